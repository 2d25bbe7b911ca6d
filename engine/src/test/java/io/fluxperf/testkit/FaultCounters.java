package io.fluxperf.testkit;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What a {@link FaultProxy} has done so far: connections, bytes each way, and the faults applied.
 *
 * @param accepted       client connections accepted
 * @param open           links open now
 * @param targetFailures connections to the target that failed (each closes its client connection)
 * @param bytesToServer  bytes read from clients (relayed to the server unless a fault dropped them)
 * @param bytesToClient  bytes read from the server
 * @param bytesCorrupted reply bytes damaged
 * @param truncations    replies cut short (each closing its connection)
 * @param drops          connections closed by {@link FaultProxy#drop()}
 * @param resets         connections reset by {@link FaultProxy#reset()}
 * @param stalls         stalls started
 * @param swaps          pairs of replies exchanged between connections
 * @param faults         faults applied through {@link FaultProxy#apply} or a schedule ({@link FaultProxy#every}, {@link FaultProxy#rotate}, {@link FaultProxy#after})
 * @param faultFailures  scheduled faults that threw
 * @param ioErrors       exceptions on the proxy's own channels (resets seen from either side)
 */
public record FaultCounters(long accepted, long open, long targetFailures, long bytesToServer, long bytesToClient,
                            long bytesCorrupted, long truncations, long drops, long resets, long stalls, long swaps,
                            long faults, long faultFailures, long ioErrors) {

    /** The counters as the proxy updates them (from its loop; read from anywhere). */
    static final class Live {
        final AtomicLong accepted = new AtomicLong();
        final AtomicLong open = new AtomicLong();
        final AtomicLong targetFailures = new AtomicLong();
        final AtomicLong bytesToServer = new AtomicLong();
        final AtomicLong bytesToClient = new AtomicLong();
        final AtomicLong bytesCorrupted = new AtomicLong();
        final AtomicLong truncations = new AtomicLong();
        final AtomicLong drops = new AtomicLong();
        final AtomicLong resets = new AtomicLong();
        final AtomicLong stalls = new AtomicLong();
        final AtomicLong swaps = new AtomicLong();
        final AtomicLong faults = new AtomicLong();
        final AtomicLong faultFailures = new AtomicLong();
        final AtomicLong ioErrors = new AtomicLong();

        FaultCounters snapshot() {
            return new FaultCounters(accepted.get(), open.get(), targetFailures.get(), bytesToServer.get(),
                    bytesToClient.get(), bytesCorrupted.get(), truncations.get(), drops.get(), resets.get(),
                    stalls.get(), swaps.get(), faults.get(), faultFailures.get(), ioErrors.get());
        }
    }
}
