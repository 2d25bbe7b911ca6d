package io.fluxperf.engine.protocol;

/**
 * The server refused a connection's handshake (e.g. redis answered AUTH with WRONGPASS): a
 * mistake in the run's settings, not a transient fault. The message says which setting and what
 * the server answered, as one sentence for the user.
 */
public final class HandshakeRefused extends ProtocolException {
    public HandshakeRefused(String message) {
        super(message);
    }
}
