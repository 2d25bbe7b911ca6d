package io.fluxperf.engine.load;

import io.fluxperf.engine.shard.StartAt;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongConsumer;

/**
 * The waits of a run with a start time ({@code --start-at}, the agents of a sharded run): for the
 * start, on the run's thread, and at the end for a schedule not yet sent in full.
 */
final class StartAtWait {
    private final BooleanSupplier stopRequested;
    private final LongConsumer sleep;

    /** @param sleep sleeps up to its argument in nanoseconds, less when a stop is asked for */
    StartAtWait(BooleanSupplier stopRequested, LongConsumer sleep) {
        this.stopRequested = stopRequested;
        this.sleep = sleep;
    }

    /**
     * Waits (Ctrl-C ends the wait) until the start is a millisecond away and returns its
     * {@link System#nanoTime()}; a start already past is returned as it is, and the listener told
     * how late this agent is. {@link Long#MIN_VALUE}: no start time.
     */
    long start(Instant startAt, RunListener listener) {
        if (startAt == null) {
            return Long.MIN_VALUE;
        }
        long at = StartAt.nanoTimeOf(startAt);
        long late = System.nanoTime() - at;
        if (late > 0) {
            listener.startedLate(late);
            return at;
        }
        long margin = TimeUnit.MILLISECONDS.toNanos(1);
        while (!stopRequested.getAsBoolean() && System.nanoTime() < at - margin) {
            sleep.accept(Math.min(TimeUnit.MILLISECONDS.toNanos(100), at - margin - System.nanoTime()));
        }
        return at;
    }

    /**
     * A schedule with an end that is not sent in full at its last window's end (an agent that
     * started late or fell behind): waits until it is, for at most {@code boundNanos}, so that the
     * agents together send the whole schedule; what was late counts as send lag.
     */
    void catchUp(CompletableFuture<Void> exhausted, long boundNanos) {
        long bound = System.nanoTime() + boundNanos;
        while (!exhausted.isDone() && !stopRequested.getAsBoolean() && System.nanoTime() < bound) {
            sleep.accept(TimeUnit.MILLISECONDS.toNanos(10));
        }
    }
}
