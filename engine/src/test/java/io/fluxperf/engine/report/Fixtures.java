package io.fluxperf.engine.report;

import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.ConnectionCounts;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.StopReason;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.metrics.WorkloadStats;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Outcome;
import io.fluxperf.trace.LatencyHistograms;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/** Hand-built configs and results with known values, so report lines can be asserted exactly. */
final class Fixtures {
    static final long SECOND = 1_000_000_000L;
    static final long NO_REPLY_NANOS = 1000;

    private Fixtures() {
    }

    static RunConfig config(List<WorkloadConfig> workloads) {
        return RunConfig.builder().server("127.0.0.1:11211").threads(1).connections(25).pipeline(1)
                .duration(Duration.ofSeconds(60)).windows(1).timeout(Duration.ofSeconds(1)).tcpNoDelay(false).seed(42)
                .workloads(workloads).build();
    }

    /** Closed loop: set (weight 1) and get (weight 9). */
    static List<WorkloadConfig> setAndGet() {
        return List.of(WorkloadConfig.of(Command.SET).withWeight(1), WorkloadConfig.of(Command.GET).withWeight(9));
    }

    /** Open loop: set at 1000/s and get at 5000/s. */
    static List<WorkloadConfig> ratedSetAndGet() {
        return List.of(WorkloadConfig.of(Command.SET).withRate(1000), WorkloadConfig.of(Command.GET).withRate(5000));
    }

    /** Builds the stats of one workload reply by reply. */
    static final class Stats {
        final WorkloadStats s = new WorkloadStats();

        Stats reply(Outcome outcome, long... latencies) {
            for (long l : latencies) {
                s.record(outcome, l, l / 2, 10);
                s.recordSent(20);
            }
            return this;
        }

        Stats replies(Outcome outcome, int n, long latency) {
            for (int i = 0; i < n; i++) {
                reply(outcome, latency);
            }
            return this;
        }

        /** Requests that ended without a reply (timeout, closed): timed too, here at {@link #NO_REPLY_NANOS}. */
        Stats noReply(Outcome outcome, int n) {
            for (int i = 0; i < n; i++) {
                s.record(outcome, NO_REPLY_NANOS, NO_REPLY_NANOS, 0);
                s.recordSent(20);
            }
            return this;
        }
    }

    static WindowResult window(int number, long start, long end, List<WorkloadConfig> configs, Stats... stats) {
        return window(number, start, end, configs, new ConnectionCounts(), stats);
    }

    static WindowResult window(int number, long start, long end, List<WorkloadConfig> configs,
                               ConnectionCounts connections, Stats... stats) {
        List<WorkloadStats> list = new ArrayList<>();
        WorkloadStats total = new WorkloadStats();
        for (Stats s : stats) {
            list.add(s.s);
            total.add(s.s);
        }
        Histogram lag = LatencyHistograms.create();
        for (long v = 100; v <= 1000; v += 100) {
            lag.recordValue(v);
        }
        return new WindowResult(number, start, end, configs, list, total, connections, lag, io.fluxperf.trace.LatencyHistograms.create(), -1, new long[0]);
    }

    /**
     * Window 1 (1 s): set ok 100, 200, 300; get ok 400..700, miss 800, 900, error 1000.
     * Totals: Requests 10 Ok 7 Miss 2 Error 1, latencies 100..1000 ns.
     */
    static WindowResult mixedWindow(int number, long start) {
        return window(number, start, start + SECOND, setAndGet(),
                new Stats().reply(Outcome.OK, 100, 200, 300),
                new Stats().reply(Outcome.OK, 400, 500, 600, 700).reply(Outcome.MISS, 800, 900)
                        .reply(Outcome.ERROR, 1000));
    }

    /** {@code w} with these load-loop CPU times (the fixtures' windows leave them unknown). */
    static WindowResult withLoopCpu(WindowResult w, long... loopCpuNanos) {
        return new WindowResult(w.number(), w.startNanos(), w.endNanos(), w.workloadConfigs(), w.workloads(), w.total(),
                w.connections(), w.sendLag(), w.connectLatency(), w.cpuNanos(), loopCpuNanos);
    }

    static RunResult run(RunConfig config, StopReason stopReason, WindowResult... windows) {
        WindowResult total = windows[0];
        for (int i = 1; i < windows.length; i++) {
            total = total.merge(0, windows[i]);
        }
        if (windows.length == 1) {
            total = WindowResult.empty(0, windows[0].startNanos(), windows[0].workloadConfigs()).merge(0, windows[0]);
        }
        return new RunResult(config, config.server(), List.of(windows), total, stopReason, 0);
    }
}
