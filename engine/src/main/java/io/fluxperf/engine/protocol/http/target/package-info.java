/**
 * The embedded HTTP/1.1 server (like dperf's server mode), built on the target framework of
 * {@code io.fluxperf.engine.target}. {@link HttpTargetServer} starts it; per connection, Netty's
 * {@code HttpRequestDecoder} feeds {@code HttpConnectionHandler}, which holds the rules (GET
 * returns what PUT or POST stored at the path, or a generated body, so that GETs work on an empty
 * server; keep-alive as RFC 9112 says; query-string knobs for tests) and answers each read batch
 * into one buffer for the framework's reply writer, so a pipelining client costs one write per
 * batch. {@code HttpReplies} writes responses from pre-encoded pieces, {@code HttpStore} keeps the
 * stored bodies within the memory bound and refuses a store beyond it rather than evicting, and
 * {@code HttpCounters} count per event loop. It is started only through
 * {@link io.fluxperf.engine.protocol.http.HttpProtocol}'s target, and depends on the target
 * framework and the protocol SPI, never on another protocol's package.
 */
package io.fluxperf.engine.protocol.http.target;
