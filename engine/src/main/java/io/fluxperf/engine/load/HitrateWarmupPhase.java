package io.fluxperf.engine.load;

import io.fluxperf.engine.metrics.HitrateWarmup;
import io.fluxperf.engine.metrics.StopReason;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A warm-up to a hit rate (--warmup-hitrate, rpc-perf's {@code warmup_hitrate}): once a second the
 * hit rate of the reads answered in that second (rpc-perf checks each interval's own figures),
 * until one reaches the target or the bound (--warmup) has passed; the last check falls on the bound.
 */
final class HitrateWarmupPhase {
    /** How often it checks (rpc-perf's: each one-second interval). */
    private static final long CHECK_NANOS = TimeUnit.SECONDS.toNanos(1);

    /** How it ended: why the run stops (null: it goes on), and the hit rate (null when it stopped). */
    record End(StopReason stop, HitrateWarmup outcome) {
    }

    private HitrateWarmupPhase() {
    }

    /**
     * @param target     the hit rate to reach, %
     * @param boundNanos how long it may take at most (--warmup)
     */
    static End run(List<LoadDriver> drivers, RunClock clock, RunClock.Stops stops, long start, double target,
                   long boundNanos) {
        long bound = start + boundNanos;
        long hits = 0;
        long misses = 0;
        long check = start;
        while (true) {
            check = Math.min(check + CHECK_NANOS, bound);
            StopReason stop = clock.runUntil(check, stops);
            if (stop != null) {
                return new End(stop, null);
            }
            long allHits = 0;
            long allMisses = 0;
            for (CompletableFuture<ThreadRecorder.WarmupReads> f : drivers.stream().map(LoadDriver::warmupReads).toList()) {
                ThreadRecorder.WarmupReads r = LoopTasks.await(f, Duration.ofSeconds(10));
                allHits += r.hits();
                allMisses += r.misses();
            }
            long answered = allHits - hits + allMisses - misses;
            Double hitrate = answered == 0 ? null : 100.0 * (allHits - hits) / answered;
            hits = allHits;
            misses = allMisses;
            boolean reached = hitrate != null && hitrate >= target;
            if (reached || check == bound) {
                return new End(null, new HitrateWarmup(target, hitrate, (System.nanoTime() - start) / 1e9,
                        boundNanos / 1e9, reached));
            }
        }
    }
}
