package io.fluxperf.engine.metrics;

import java.util.List;
import org.HdrHistogram.AbstractHistogram;

/**
 * One second of a measured window, every thread's figures added (a run directory's
 * {@code seconds.hlog}). A window's seconds start with the window; its last one is cut short at its
 * end. Handed to the listener on the run's thread and reused after the call returns: read it, don't
 * keep it.
 *
 * @param window     the window it belongs to, from 1
 * @param startNanos its start, {@link System#nanoTime()}
 * @param endNanos   its end
 * @param workloads  each workload's outcomes, latency and service time, in workload order
 * @param sendLag    actual minus intended send time of the paced requests sent in it, ns
 * @param connect    connect to ready of the connections made in it, ns
 */
public record SecondFigures(int window, long startNanos, long endNanos, List<WorkloadStats> workloads,
                            AbstractHistogram sendLag, AbstractHistogram connect) {
}
