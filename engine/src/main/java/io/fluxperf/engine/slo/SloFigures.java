package io.fluxperf.engine.slo;

import java.util.List;

/**
 * The figures of one window, or of a whole run, that objectives are checked against: all the
 * {@link Evaluator} reads. A live run's windows give them through {@link ResultFigures}, and so do
 * a run directory's, read back into the same form (counts from result.json, histograms from
 * windows.hlog: {@code RunDirectory.verdicts}), so that a run and {@code report DIR --slo} judge
 * alike. A {@code workload} argument of null means every request of the window.
 */
public interface SloFigures {
    /** 1-based window number; 0 for the whole run. */
    int window();

    /** The window's length, seconds. */
    double seconds();

    /** The workloads' names, in order. */
    List<String> workloads();

    /** Requests that ended in the window (the sum of their outcomes). */
    long requests(String workload);

    /** Requests answered: ok or miss. */
    long answered(String workload);

    /** Hits among answered reads, percent; null when no read was answered (or the workload does not read). */
    Double hitratePercent(String workload);

    /**
     * The latency at {@code percentile} (0 < p <= 100, 100 being the largest), ns.
     *
     * @throws IllegalArgumentException when these figures do not hold that percentile (a sentence saying which they hold)
     */
    long latencyAt(String workload, double percentile);

    /** The mean latency, ns. */
    long meanLatency(String workload);

    /**
     * The latency at {@code percentile} (0 < p < 100) with its 95 % interval; null when there is
     * nothing to read it from.
     */
    default io.fluxperf.engine.trust.LatencyInterval latencyInterval(String workload, double percentile) {
        return null;
    }
}
