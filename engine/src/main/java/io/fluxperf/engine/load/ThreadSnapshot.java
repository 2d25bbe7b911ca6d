package io.fluxperf.engine.load;

import io.fluxperf.engine.metrics.ConnectionCounts;
import io.fluxperf.engine.metrics.WorkloadStats;
import org.HdrHistogram.Histogram;

/** One thread's counts and histograms for an interval, handed from its event loop to the run's thread. */
record ThreadSnapshot(WorkloadStats[] workloads, ConnectionCounts connections, Histogram sendLag,
                      Histogram connectLatency) {
}
