package io.fluxperf.engine.protocol;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * A protocol's way to read the server's own wall-clock time (redis: {@code TIME}), over a plain
 * connection of its own, outside the load. The agents of a sharded run each read it when their
 * load starts and ends: the differences between their readings are their clock offsets against
 * each other, measured against one clock that all of them saw ({@code merge} reports them).
 */
public interface ServerClock {
    /**
     * The server's time in microseconds since the epoch, read on a blocking connection of its own.
     *
     * @throws IOException when the server cannot be reached or answers something else
     */
    long epochMicros(InetSocketAddress server, Duration timeout) throws IOException;
}
