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
     * {@link #decode} consumed a reply that sends the request to another node of a cluster
     * ({@link #redirect()} says where); only codecs of a cluster's nodes return it
     * ({@link ClusterProtocol#nodeCodecs}).
     */
    int REDIRECTED = -2;

    /**
     * Writes what a new connection sends before any load (redis AUTH, SELECT, HELLO).
     *
     * @return true when something was written and its replies must be read with {@link #decodeHandshake}
     */
    default boolean writeHandshake(ByteBuf out) {
        return false;
    }

    /**
     * Whether {@link #writeHandshake} may write anything; when false the engine does not call it,
     * nor take a buffer for it, on each new connection. True unless a codec knows better.
     */
    default boolean hasHandshake() {
        return true;
    }

    /**
     * Readies this codec for a new connection of the same run, in the state of a new codec, and
     * returns true; false when it cannot (the engine then makes a new one). With a connection per
     * request this keeps one codec per connection slot instead of one per request.
     */
    default boolean resetForNewConnection() {
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
     * Writes what ends a batch of requests that {@link #encode} wrote into {@code out}, just before
     * the batch goes out: memcache meta ends quiet requests with {@code mn}, whose reply tells the
     * codec that the replies the server left out are not coming. Nothing by default.
     */
    default void writeBatchEnd(ByteBuf out) {
    }

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

    /** The redirect that {@link #decode} just returned {@link #REDIRECTED} for; valid until the next decode. */
    default Redirect redirect() {
        return null;
    }

    /**
     * The class of the reply {@link #decode} just consumed, for the report's per-class counts
     * (HTTP: 2 for 2xx, …); -1 for protocols without classes.
     */
    default int replyClass() {
        return -1;
    }

    /**
     * The connection ended while {@code request}'s reply was incomplete: decode what came, for a
     * reply that the end of the stream completes (an HTTP body delimited by the close). Returns
     * {@link #NEED_MORE} when the bytes are not a whole reply even so (the request ends as CLOSED).
     */
    default int decodeAtEnd(ByteBuf in, Request request) throws ProtocolException {
        return NEED_MORE;
    }

    /**
     * The server said that it closes the connection after the reply just decoded (HTTP's
     * {@code Connection: close}): nothing more may be sent on it, and the engine reconnects at once.
     */
    default boolean closesConnection() {
        return false;
    }
}
