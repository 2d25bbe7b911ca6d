package io.fluxperf.engine.protocol;

import io.fluxperf.engine.request.Request;
import io.netty.buffer.ByteBuf;

/**
 * Encodes requests and decodes their replies on one connection whose replies come in request
 * order (memcache text, RESP). Not thread-safe: it lives on its connection's event loop.
 */
public interface ProtocolCodec {
    /** {@link #decode} found no complete reply yet; nothing was consumed. */
    int NEED_MORE = -1;

    /** {@link #decodeHandshake} has read every handshake reply: the connection is ready for load. */
    int HANDSHAKE_DONE = 0;

    /**
     * Writes what a new connection sends before any load (redis AUTH, SELECT, HELLO).
     *
     * @return true when something was written and its replies must be read with {@link #decodeHandshake}
     */
    default boolean writeHandshake(ByteBuf out) {
        return false;
    }

    /**
     * Reads the handshake replies: {@link #NEED_MORE} until all have come, then {@link #HANDSHAKE_DONE}.
     *
     * @throws HandshakeRefused when the server refused (a wrong password): the run cannot go on
     * @throws ProtocolException when the bytes are not a reply
     */
    default int decodeHandshake(ByteBuf in) throws ProtocolException {
        return HANDSHAKE_DONE;
    }

    /** Writes the request's bytes. Must not allocate per request beyond {@code out} growth. */
    void encode(Request request, ByteBuf out);

    /**
     * Decodes the reply to {@code request} (the oldest in flight) from the start of {@code in}.
     * Returns {@link #NEED_MORE} without consuming anything when the reply is incomplete;
     * otherwise consumes exactly the reply and returns the {@link io.fluxperf.engine.request.Outcome}
     * ordinal. Partial input never throws.
     *
     * @throws ProtocolException when the bytes cannot be a reply to this request; the connection
     *                           is then out of step and must be closed
     */
    int decode(ByteBuf in, Request request) throws ProtocolException;
}
