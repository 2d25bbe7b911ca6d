/**
 * HTTP/1.1 traffic read from packet captures ({@link io.fluxperf.engine.protocol.http.log.HttpCapture}):
 * requests into log entries (method, request-target, body) and responses into their original
 * outcome, behind the capture layer's {@link io.fluxperf.engine.log.capture.ConnectionReader}.
 */
package io.fluxperf.engine.protocol.http.log;
