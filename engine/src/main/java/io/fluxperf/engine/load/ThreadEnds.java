package io.fluxperf.engine.load;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * When each load thread ran out of requests, in seconds from the run's launch (the result's
 * per-thread times; NaN for a thread still sending when the run stopped it), and the moment they
 * all had. Written by each thread as its phase completes, read by the run's thread after the last
 * window has waited for {@link #all()}.
 */
final class ThreadEnds {
    private final double[] seconds;
    private final CompletableFuture<Void> all;

    /**
     * @param phases   each load thread's sending, in thread order
     * @param launched when the threads were started, {@link System#nanoTime()}
     */
    ThreadEnds(List<CompletableFuture<Void>> phases, long launched) {
        seconds = new double[phases.size()];
        Arrays.fill(seconds, Double.NaN);
        CompletableFuture<?>[] timed = new CompletableFuture<?>[phases.size()];
        for (int t = 0; t < phases.size(); t++) {
            int thread = t;
            timed[t] = phases.get(t).thenRun(() -> seconds[thread] = (System.nanoTime() - launched) / 1e9);
        }
        all = CompletableFuture.allOf(timed);
    }

    /** Completes when every thread has sent its last request and its end is written down. */
    CompletableFuture<Void> all() {
        return all;
    }

    /** Each thread's end, in seconds from the launch, in thread order. */
    List<Double> seconds() {
        List<Double> out = new ArrayList<>(seconds.length);
        for (double s : seconds) {
            out.add(s);
        }
        return out;
    }
}
