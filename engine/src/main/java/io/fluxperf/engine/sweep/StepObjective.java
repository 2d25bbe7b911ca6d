package io.fluxperf.engine.sweep;

import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.WindowResult;
import java.util.List;

/** One objective each step must meet, judged on the step's window (the SLO grammar's objectives, adapted). */
public interface StepObjective {
    /** The objective as written, e.g. {@code p99<1ms}. */
    String text();

    /** The judgement on one step's window. */
    Judged judge(WindowResult window, List<WorkloadConfig> configs);

    /**
     * For an objective on a latency percentile of every request: the percentile (50, 99, 99.9) the
     * plot draws its line against; NaN for any other objective (a workload's, a rate, errors).
     */
    double latencyPercentile();

    /** The latency bound in ns, for the plot's line; NaN when {@link #latencyPercentile()} is. */
    double latencyBoundNanos();

    /**
     * @param met      whether the window met the objective
     * @param measured what was measured, for people: "1.234 ms", "no requests"
     */
    record Judged(boolean met, String measured) {
    }
}
