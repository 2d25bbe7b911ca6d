package io.fluxperf.engine.load;

import io.fluxperf.engine.metrics.ConnectionCounts;
import io.fluxperf.engine.metrics.ServerStats;
import io.fluxperf.engine.metrics.WorkloadStats;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * The window going on: every interval added since the last window ended (or the warm-up's figures
 * were dropped), over every thread. The run's phases end a window by a swap and read it here; the
 * live line and the admin endpoint read it while it runs.
 */
final class RunningWindow implements IntervalConsumer {
    private final FigureSum sum;
    /** The warm-up: its intervals are dropped, not added. */
    private boolean warmingUp;

    RunningWindow(int workloads, int threads, List<ServerStats> serverShapes, Runnable pause) {
        this.sum = new FigureSum(workloads, threads, serverShapes, pause);
    }

    @Override
    public void add(Interval interval) {
        if (!warmingUp) {
            sum.add(interval);
        }
    }

    /** Whether the intervals ending from now on are the warm-up's (dropped) or the window's. */
    void warmingUp(boolean warmup) {
        this.warmingUp = warmup;
    }

    /** The window's figures, every thread together, and each thread's loop CPU time. */
    FigureSum figures() {
        return sum;
    }

    /** Empties it for the next window. */
    void reset() {
        sum.reset();
    }

    /** Requests ended in the window so far. */
    long requests() {
        return sum.requests();
    }

    /** Requests of the window so far that failed: errors, timeouts and closed connections. */
    long failed() {
        long n = 0;
        for (WorkloadStats w : sum.sum.workloads) {
            n += w.outcomes().error() + w.outcomes().timeout() + w.outcomes().closed();
        }
        return n;
    }

    /** Adds the window's latency so far, every workload together, into {@code into}. */
    void latencyInto(Histogram into) {
        for (WorkloadStats w : sum.sum.workloads) {
            if (w.latency().getTotalCount() > 0) {
                into.add(w.latency());
            }
        }
    }

    /**
     * The window's counts so far, each workload apart (the admin endpoint's counters: the closed
     * windows plus these): ok, miss, error, timeout, closed, sent, bytes received and bytes sent.
     * A new array each time: the endpoint keeps it.
     */
    long[][] countsSoFar() {
        WorkloadStats[] workloads = sum.sum.workloads;
        long[][] counts = new long[workloads.length][];
        for (int i = 0; i < workloads.length; i++) {
            WorkloadStats w = workloads[i];
            counts[i] = new long[] {w.outcomes().ok(), w.outcomes().miss(), w.outcomes().error(), w.outcomes().timeout(),
                    w.outcomes().closed(), w.sent(), w.bytesReceived(), w.bytesSent()};
        }
        return counts;
    }

    /** The window's connection events so far, and the connections open at the last swap (a copy). */
    ConnectionCounts connectionsSoFar() {
        return sum.sum.connections.copy();
    }
}
