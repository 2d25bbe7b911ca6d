package io.fluxperf.engine.sweep;

import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.WindowResult;
import java.util.List;
import java.util.Locale;

/** A test's objective on a latency percentile of every request (the SLO grammar's are adapted the same way). */
record PercentileObjective(String text, double percentile, long boundNanos) implements StepObjective {
    @Override
    public Judged judge(WindowResult window, List<WorkloadConfig> configs) {
        long n = window.total().latency().getTotalCount();
        if (n == 0) {
            return new Judged(false, "no requests");
        }
        long v = window.total().latency().getValueAtPercentile(percentile);
        return new Judged(v < boundNanos, String.format(Locale.ROOT, "%.3f ms", v / 1e6));
    }

    @Override
    public double latencyPercentile() {
        return percentile;
    }

    @Override
    public double latencyBoundNanos() {
        return boundNanos;
    }
}
