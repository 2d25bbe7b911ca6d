package io.fluxperf.engine.connection;

import io.fluxperf.engine.request.Request;

/**
 * One place requests go out on: a TCP (or Unix socket, or TLS) connection that outlives its
 * channels, or a UDP socket. What it sees happen it tells its thread through {@link SlotEvents};
 * when to connect is the thread's call. Lives on its thread's event loop; not thread-safe.
 */
public interface ConnectionSlot {
    /** The slot's number in the run, unique over every thread (what traces record). */
    int id();

    /** The slot's number in its thread, from 0. */
    int index();

    /**
     * Connects (or binds) now; the slot reports {@link SlotEvents#ready} once it can take load, or
     * {@link SlotEvents#connectFailed}. Called on the loop, only while the slot is closed.
     */
    void connect();

    /** When the last {@link #connect()} began, {@link System#nanoTime()}. */
    long connectStartedNanos();

    /** Connected and not being closed (it may still be in its handshake). */
    boolean isOpen();

    /** Ready, and with room for one more request. */
    boolean canSend();

    int inFlightCount();

    /** Encodes the request into this batch and returns its size in bytes; {@link #flush()} sends the batch. */
    int send(Request request, long nowNanos);

    void flush();

    /** Ends requests sent more than {@code timeoutNanos} ago as timeouts. */
    void expire(long nowNanos, long timeoutNanos);

    /** Closes at the end of the run; not counted as a close or a failure, and never reconnected. */
    void shutdown();

    /**
     * Reads the kernel's TCP_INFO of the connection into {@code probe}; false when there is none to
     * read (not connected, not TCP, or a transport whose socket is not reachable).
     */
    default boolean sampleTcp(TcpProbe probe) {
        return false;
    }
}
