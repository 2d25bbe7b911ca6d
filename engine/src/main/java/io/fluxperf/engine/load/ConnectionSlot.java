package io.fluxperf.engine.load;

import io.fluxperf.engine.request.Request;
import java.util.concurrent.CompletableFuture;

/**
 * One place requests go out on: a TCP (or Unix socket, or TLS) connection that outlives its
 * channels, or a UDP socket. Lives on its driver's event loop; not thread-safe.
 */
interface ConnectionSlot {
    int id();

    /** Connects (or binds); completes with true once it is ready for load, false if that failed. */
    CompletableFuture<Boolean> open();

    boolean isOpen();

    /** Open, ready, and with room for one more request. */
    boolean canSend();

    int inFlightCount();

    /** Encodes the request into this batch; {@link #flush()} sends the batch. Returns the request's size in bytes. */
    int send(Request request, long nowNanos);

    void flush();

    /** Ends requests sent more than {@code timeoutNanos} ago as timeouts. */
    void expire(long nowNanos, long timeoutNanos);

    /** Closes at the end of the run; not counted as a close or a failure. */
    void shutdown();

    boolean isShuttingDown();
}
