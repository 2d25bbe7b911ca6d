package io.fluxperf.engine.load;

import io.fluxperf.engine.metrics.ConnectionCounts;
import io.fluxperf.engine.metrics.WorkloadStats;
import org.HdrHistogram.Histogram;

/**
 * One thread's counts and histograms for an interval, handed from its event loop to the run's thread.
 *
 * @param loopCpuNanos CPU time the thread's event loop used in the interval (less its idle polls under --busy-poll), ns; -1 where the JVM cannot tell
 */
record ThreadSnapshot(WorkloadStats[] workloads, ConnectionCounts connections, Histogram sendLag,
                      Histogram connectLatency, long loopCpuNanos) {
}
