package io.fluxperf.engine.slo;

import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.LatencySummary;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.metrics.WorkloadStats;
import io.fluxperf.engine.report.WindowFigures;
import java.util.List;

/**
 * A live run's window (or its whole-run total) as {@link SloFigures}. The percentiles the report
 * prints come from the window's summaries, made once; any other is read from its histogram.
 */
public final class ResultFigures implements SloFigures {
    private final WindowResult window;
    private final List<WorkloadConfig> configs;
    private final List<String> names;
    /** A whole run's seconds, whose spread widens its intervals; empty for a window. */
    private List<io.fluxperf.engine.trust.SecondSummary> seconds = List.of();

    /** @param configs the run's workloads, for a window that does not carry them */
    public ResultFigures(WindowResult window, List<WorkloadConfig> configs) {
        this.window = window;
        List<WorkloadConfig> own = window.workloadConfigs();
        this.configs = own != null && own.size() == window.workloads().size() ? own : configs;
        this.names = this.configs.stream().map(WorkloadConfig::name).toList();
    }

    /**
     * These figures as a whole run's, whose percentile intervals are widened by the spread between
     * {@code runSeconds} as the report's Total widens them.
     */
    public ResultFigures withSeconds(List<io.fluxperf.engine.trust.SecondSummary> runSeconds) {
        this.seconds = List.copyOf(runSeconds);
        return this;
    }

    @Override
    public int window() {
        return window.number();
    }

    @Override
    public double seconds() {
        return window.seconds();
    }

    @Override
    public List<String> workloads() {
        return names;
    }

    private int index(String workload) {
        int i = names.indexOf(workload);
        if (i < 0) {
            throw new IllegalArgumentException("the run has no workload '" + workload + "'");
        }
        return i;
    }

    private WorkloadStats stats(String workload) {
        return workload == null ? window.total() : window.workloads().get(index(workload));
    }

    private LatencySummary summary(String workload) {
        return workload == null ? window.summaries().latency() : window.summaries().workloadLatency().get(index(workload));
    }

    @Override
    public long requests(String workload) {
        return stats(workload).outcomes().requests();
    }

    @Override
    public long answered(String workload) {
        WorkloadStats s = stats(workload);
        return s.outcomes().ok() + s.outcomes().miss();
    }

    @Override
    public Double hitratePercent(String workload) {
        return workload == null ? WindowFigures.hitratePercent(window, configs)
                : WindowFigures.hitratePercent(configs.get(index(workload)), stats(workload));
    }

    @Override
    public long latencyAt(String workload, double percentile) {
        LatencySummary s = summary(workload);
        if (percentile == 50) {
            return s.p50();
        } else if (percentile == 90) {
            return s.p90();
        } else if (percentile == 99) {
            return s.p99();
        } else if (percentile == 99.9) {
            return s.p999();
        } else if (percentile == 99.99) {
            return s.p9999();
        } else if (percentile == 100) {
            return s.max();
        }
        return stats(workload).latency().getValueAtPercentile(percentile);
    }

    @Override
    public long meanLatency(String workload) {
        return summary(workload).mean();
    }

    @Override
    public io.fluxperf.engine.trust.LatencyInterval latencyInterval(String workload, double percentile) {
        io.fluxperf.engine.trust.LatencyInterval i =
                io.fluxperf.engine.trust.PercentileIntervals.of(stats(workload).latency(), percentile);
        if (i == null || seconds.isEmpty()) {
            return i;
        }
        return io.fluxperf.engine.trust.TrustRecorder.widened(i, seconds, workload == null ? -1 : index(workload));
    }
}
