/**
 * HTTP/1.1 as a protocol plug-in: GET, POST, PUT and DELETE of a path template over keep-alive,
 * pipelined connections. {@link HttpProtocol} registers it and reads its options into
 * {@link HttpOptions} (the user's headers, and the status classes that count as OK);
 * {@code HttpClientCodec} is the per-connection codec and the place where the rules are written
 * down. A request is written from pre-encoded pieces (the head after the path is encoded once per
 * connection by {@code HttpRequestHead}, and the template is expanded while writing), so nothing
 * is allocated per request; {@code HttpResponseDecoder} finds where each response ends (RFC 9112
 * section 6.3) as a resumable, bounded state machine, and the status class decides the outcome and
 * is counted per class for the report. A response that closes the connection ends the requests
 * pipelined behind it as CLOSED. HTTP has no MISS, no UDP framing and no command-log format; its
 * embedded server is in {@code .target}. Like every protocol package, it imports no other
 * protocol's package.
 */
package io.fluxperf.engine.protocol.http;
