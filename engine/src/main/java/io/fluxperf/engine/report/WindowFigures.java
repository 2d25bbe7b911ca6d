package io.fluxperf.engine.report;

import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.metrics.WorkloadStats;
import java.util.ArrayList;
import java.util.List;

/**
 * Figures derived from a window that more than one report needs: the hit rate (reads only), and
 * the workloads that fell short of their target rate. Kept in one place so that the text and the
 * JSON cannot disagree on what counts as a hit or as a missed rate.
 */
public final class WindowFigures {
    /** A workload is reported as short of its rate when it achieved less than this share of it. */
    public static final double RATE_TOLERANCE = 0.99;

    /** A rated workload that ended fewer requests per second than it was asked to send. */
    public record Shortfall(int index, String name, double target, double achieved) {
    }

    private WindowFigures() {
    }

    /**
     * The workload configs that go with the window's stats: the window's own, or the run's when
     * the window does not carry them.
     */
    public static List<WorkloadConfig> configs(WindowResult w, RunConfig run) {
        List<WorkloadConfig> own = w.workloadConfigs();
        if (own != null && own.size() == w.workloads().size()) {
            return own;
        }
        return run.workloads();
    }

    /**
     * Hits among answered reads, in percent, over the read workloads only (a set that succeeds is
     * not a hit); null when no read was answered in the window.
     */
    public static Double hitratePercent(WindowResult w, List<WorkloadConfig> configs) {
        long ok = 0;
        long miss = 0;
        for (int i = 0; i < w.workloads().size(); i++) {
            if (isRead(configs, i)) {
                ok += w.workloads().get(i).outcomes().ok();
                miss += w.workloads().get(i).outcomes().miss();
            }
        }
        return ok + miss == 0 ? null : 100.0 * ok / (ok + miss);
    }

    /** The hit rate of one workload; null for a workload that does not read or had no answered reads. */
    public static Double hitratePercent(WorkloadConfig config, WorkloadStats stats) {
        if (config == null || !config.method().isRead()) {
            return null;
        }
        return Counts.of(stats.outcomes()).hitPercent();
    }

    /** Whether {@code achieved} requests/s is more than 1% below the workload's target (rated workloads only). */
    public static boolean belowTarget(WorkloadConfig config, double achieved) {
        return config != null && config.isRated() && achieved < config.rate() * RATE_TOLERANCE;
    }

    /** Every rated workload that achieved more than 1% less than its target in this window. */
    public static List<Shortfall> shortfalls(WindowResult w, List<WorkloadConfig> configs) {
        List<Shortfall> out = new ArrayList<>();
        for (int i = 0; i < w.workloads().size(); i++) {
            WorkloadConfig c = i < configs.size() ? configs.get(i) : null;
            double achieved = w.rate(i);
            if (belowTarget(c, achieved)) {
                out.add(new Shortfall(i, c.name(), c.rate(), achieved));
            }
        }
        return out;
    }

    private static boolean isRead(List<WorkloadConfig> configs, int i) {
        return i < configs.size() && configs.get(i).method().isRead();
    }
}
