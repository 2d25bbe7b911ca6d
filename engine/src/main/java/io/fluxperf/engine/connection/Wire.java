package io.fluxperf.engine.connection;

import io.netty.buffer.ByteBuf;

/**
 * What one {@link TargetConnection} talks over while it is connected: a Netty channel
 * ({@link ChannelWire}), or for connect per request (and held connections when switched on) a bare
 * socket on the loop ({@link SocketWire}). Replies, the end of the stream and errors come back through the
 * connection's {@code received}, {@code ended}, {@code failed} and {@code closed} methods,
 * always on the driver's event loop.
 */
interface Wire {
    /** A buffer to encode requests into; {@link #write} takes it back. */
    ByteBuf buffer(int capacity);

    /** Writes and flushes {@code batch}, and releases it. */
    void write(ByteBuf batch);

    boolean isActive();

    /** Closes; the connection hears of it through {@code closed}, never from inside this call. */
    void close();

    /** Reads the socket's TCP_INFO into {@code probe}; false for a wire that has none to give. */
    default boolean tcpInfo(TcpProbe probe) {
        return false;
    }
}
