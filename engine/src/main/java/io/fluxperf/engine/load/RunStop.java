package io.fluxperf.engine.load;

import io.fluxperf.engine.metrics.StopReason;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A run's stop signal: asked for once from any thread (Ctrl-C, the admin endpoint's
 * {@code POST /quitquitquit}, a failed objective under --slo-abort), seen by the run's thread
 * between its steps and by each of its waits, which it ends at once. What the phases do on a stop
 * is theirs to say; this only says whether, and why.
 */
final class RunStop {
    private final CountDownLatch signal = new CountDownLatch(1);
    private volatile boolean requested;
    /** Why, when a reason was given; null: interrupted (Ctrl-C). */
    private volatile StopReason reason;

    /** Asks the run to stop, for {@code why} (null: an interrupt, Ctrl-C). */
    void request(StopReason why) {
        if (why != null) {
            reason = why;
        }
        requested = true;
        signal.countDown();
    }

    boolean requested() {
        return requested;
    }

    /** Why the run was asked to stop, or null when it was not. */
    StopReason reason() {
        if (!requested) {
            return null;
        }
        StopReason why = reason;
        return why != null ? why : StopReason.INTERRUPTED;
    }

    /**
     * Waits {@code nanos}, or less when a stop is asked for meanwhile; an interrupt of the waiting
     * thread is a stop as well.
     */
    void await(long nanos) {
        if (nanos <= 0) {
            return;
        }
        try {
            signal.await(nanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            request(null);
        }
    }
}
