package io.fluxperf.engine.shard;

import io.fluxperf.engine.protocol.ServerClock;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.time.Instant;

/**
 * Reads a server's clock for a {@link ShardRecord}: the best of three tries (the one with the
 * shortest round trip). A server without a clock, or one that cannot be read (a Unix socket, TLS,
 * a password), gives no reading; the run goes on without it.
 */
public final class ClockReader {
    private static final int TRIES = 3;
    private final ServerClock clock;
    private final InetSocketAddress server;
    private final Duration timeout;

    /** @param clock null: no readings */
    public ClockReader(ServerClock clock, SocketAddress server, Duration timeout) {
        this.clock = clock;
        this.server = server instanceof InetSocketAddress i ? i : null;
        this.timeout = timeout;
    }

    /** A reading now, or null. */
    public ShardRecord.ClockReading read() {
        if (clock == null || server == null) {
            return null;
        }
        ShardRecord.ClockReading best = null;
        for (int i = 0; i < TRIES; i++) {
            try {
                long before = System.nanoTime();
                Instant wall = Instant.now();
                long server = clock.epochMicros(this.server, timeout);
                long roundTrip = System.nanoTime() - before;
                long local = wall.getEpochSecond() * 1_000_000L + wall.getNano() / 1_000 + roundTrip / 2_000;
                if (best == null || roundTrip / 1_000 < best.roundTripMicros()) {
                    best = new ShardRecord.ClockReading(local, server, roundTrip / 1_000);
                }
            } catch (java.io.IOException | RuntimeException e) {
                return best; // a server that cannot tell its time: the merge reports no offset for this agent
            }
        }
        return best;
    }
}
