package io.fluxperf.engine.connection;

import io.fluxperf.engine.request.Outcome;
import io.fluxperf.engine.request.Request;
import io.netty.channel.EventLoop;

/**
 * What connection slots tell the load thread they belong to: the one narrow way from a slot to
 * its thread. Every call comes on the thread's event loop.
 *
 * <p>A slot's life, as these calls tell it: {@link #established} (the transport is connected),
 * then {@link #ready} (after the protocol's handshake) or {@link #connectFailed}; while ready,
 * {@link #completed} for each request that ends and {@link #answered} for each reply; at the end
 * {@link #closed}. Whether and when to connect again is the thread's decision
 * ({@link ConnectionSlot#connect()}).
 */
public interface SlotEvents {
    /** The loop the slots run on. */
    EventLoop loop();

    /** A new codec for one of the thread's connections. */
    io.fluxperf.engine.protocol.ProtocolCodec newCodec();

    /** A new codec for {@code slot} (the servers of a pool may each have their own); {@link #newCodec()} unless told. */
    default io.fluxperf.engine.protocol.ProtocolCodec newCodec(ConnectionSlot slot) {
        return newCodec();
    }

    /** The slot's transport is connected (before any protocol handshake). */
    void established(ConnectionSlot slot);

    /** The slot is ready for load: its connect (and handshake) is done. */
    void ready(ConnectionSlot slot);

    /** The slot's connect failed (refused, timed out, TLS handshake failed); it is closed again. */
    void connectFailed(ConnectionSlot slot, Throwable cause);

    /**
     * The slot's connection closed (by either side, or after an error) and every request on it
     * has ended.
     *
     * @param expected the close came where the protocol or the mode says it comes (HTTP's
     *                 {@code Connection: close}, a connection per request after its reply), not
     *                 as a failure
     */
    void closed(ConnectionSlot slot, boolean expected);

    /** A reply came on the slot: the target works. */
    void answered(ConnectionSlot slot);

    /** The server refused the handshake (a wrong password): a settings mistake, so no reconnect. */
    void refused(ConnectionSlot slot, String message);

    /**
     * A request ended. It must not be used afterwards: it goes back to its pool.
     *
     * @param replyClass the protocol's class of its reply (from 1), or -1
     */
    void completed(Request request, Outcome outcome, long nowNanos, int responseBytes, int replyClass);

    /**
     * A cluster node answered {@code request} with a redirect to another node
     * ({@link io.fluxperf.engine.protocol.ProtocolCodec#REDIRECTED}); the request is no longer in
     * flight on {@code slot}. By default it ends as an error.
     */
    default void redirected(ConnectionSlot slot, Request request, io.fluxperf.engine.protocol.Redirect redirect,
                            long nowNanos, int responseBytes) {
        completed(request, Outcome.ERROR, nowNanos, responseBytes, -1);
    }

    /** A read turn is over: replies it decoded may have freed room to send. */
    void readDone();

    /** Room may have come free outside a read turn (a timeout, a request that could not be sent): send what is due. */
    void pump();

    /** Bytes that break the protocol; the slot has dealt with them (closed, or dropped a datagram). */
    void protocolError(String reason);

    /**
     * A reply that cannot be one, from {@code from} in {@code in} (read, not consumed, during this
     * call only): counted as {@link #protocolError}, and its first bytes may tell what kind of
     * server answered ({@link io.fluxperf.engine.protocol.UnexpectedReply#hint}).
     */
    default void unexpectedReply(String reason, io.netty.buffer.ByteBuf in, int from) {
        protocolError(reason);
    }

    /** A reset, a broken pipe, an ICMP error: counted. */
    void connectionError(Throwable cause);

    /**
     * The target's host refused a datagram of {@code slot} (ICMP port unreachable): nothing listens
     * on the port now. Counted as a connection error unless it ends the run.
     *
     * @return true when the thread gives the slot up because the target never answered (nothing
     *         ever listened there, so the run ends as a failed connect does): the slot then closes
     *         and its requests end at once, rather than each by its timeout
     */
    default boolean unreachable(ConnectionSlot slot, Throwable cause) {
        connectionError(cause);
        return false;
    }
}
