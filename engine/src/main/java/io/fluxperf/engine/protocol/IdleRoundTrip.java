package io.fluxperf.engine.protocol;

import io.netty.buffer.ByteBuf;

/**
 * A protocol's no-op: a request the server answers at once without touching its data (memcache
 * {@code version}, redis {@code PING}, an HTTP GET of the run's path). The latency floor
 * ({@code io.fluxperf.engine.trust.FloorProbe}) sends a few hundred of them, one at a time on an
 * idle connection of its own, before the load: the shortest round trip the run could measure.
 */
public interface IdleRoundTrip {
    /** What is sent, for the report: {@code version}, {@code PING}, {@code GET /}. */
    String describe();

    /** The request's bytes, sent as they are for every round trip. */
    byte[] request();

    /**
     * Consumes one whole reply from {@code in} when it holds one.
     *
     * @return false, consuming nothing, while the reply is not whole yet
     * @throws ProtocolException for bytes that cannot be a reply to it
     */
    boolean replied(ByteBuf in) throws ProtocolException;
}
