package io.fluxperf.engine.protocol;

/** Bytes from the server that cannot be a reply to the request in flight. No stack trace: it is data. */
public class ProtocolException extends Exception {
    public ProtocolException(String message) {
        super(message, null, false, false);
    }
}
