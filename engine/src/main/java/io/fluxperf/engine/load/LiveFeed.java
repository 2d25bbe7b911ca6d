package io.fluxperf.engine.load;

import io.fluxperf.engine.metrics.ConnectionCounts;
import io.fluxperf.engine.metrics.IntervalSample;
import io.fluxperf.engine.metrics.WindowResult;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.Histogram;

/**
 * Where a run's figures go while it runs besides its report: the admin endpoint's
 * ({@code io.fluxperf.engine.admin.LiveFigures}). Called on the run's thread with figures the load
 * loops have already handed over (each copied in a task on its loop, as the statistics block's
 * are), so a reader on another thread never touches a loop's figures and no loop is locked.
 */
public interface LiveFeed {
    /** The run's connections are open: {@code open} of them, {@code failed} did not open. */
    void connected(long open, long failed);

    /** The measured windows begin (the warm-up is over), at {@link System#nanoTime()} {@code nanos}. */
    void measuring(long nanos);

    /**
     * One statistics interval: the same figures as {@code --stats-interval}'s block (collected every
     * second when that is off), and the running window's counts so far. The histograms are reused
     * by the run: read them before returning.
     *
     * @param latency     the interval's latency, all workloads together
     * @param sendLag     the interval's send lag of paced requests
     * @param latencyByWorkload the interval's latency of each workload, in workload order
     * @param serviceByWorkload the interval's service time of each workload
     * @param windowSoFar per workload the running window's ok, miss, error, timeout, closed, sent,
     *                    bytes received and bytes sent so far; null before the measured windows begin
     * @param connections the running window's connection events so far (null with windowSoFar)
     * @param rates       each workload's target rate now, requests/s (0: unlimited)
     */
    void interval(IntervalSample sample, AbstractHistogram latency, Histogram sendLag, Histogram[] latencyByWorkload,
                  Histogram[] serviceByWorkload, long[][] windowSoFar, ConnectionCounts connections, double[] rates);

    /** A measured window has ended: its figures now count as closed, and the next window starts empty. */
    void window(WindowResult window);
}
