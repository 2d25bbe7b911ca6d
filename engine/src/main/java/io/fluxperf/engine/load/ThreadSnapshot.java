package io.fluxperf.engine.load;

import io.fluxperf.engine.metrics.ConnectionCounts;
import io.fluxperf.engine.metrics.WorkloadStats;
import org.HdrHistogram.Histogram;

/**
 * One thread's counts and histograms for an interval, handed from its event loop to the run's thread.
 *
 * @param loopCpuNanos CPU time the thread's event loop used in the interval (less its idle polls under --busy-poll), ns; -1 where the JVM cannot tell
 * @param takenNanos   {@link System#nanoTime()} on the event loop when it took the figures: the end of
 *                     the interval they cover (and, for a reset, the start of the next)
 */
record ThreadSnapshot(WorkloadStats[] workloads, ConnectionCounts connections, Histogram sendLag,
                      Histogram connectLatency, long loopCpuNanos, long takenNanos) {

    /**
     * When a set of threads took their figures: the mean of their times (each counted its requests
     * up to its own), so that a window's rate divides its requests by the time they were counted in.
     */
    static long takenNanos(java.util.List<ThreadSnapshot> snapshots) {
        long first = snapshots.get(0).takenNanos();
        long offsets = 0;
        for (ThreadSnapshot s : snapshots) {
            offsets += s.takenNanos() - first; // differences: nanoTime may be near overflow
        }
        return first + offsets / snapshots.size();
    }
}
