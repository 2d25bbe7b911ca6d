package io.fluxperf.engine.load;

import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.host.HostTuning;
import io.fluxperf.engine.metrics.ConnectionCounts;
import io.fluxperf.engine.metrics.KeptHistogram;
import io.fluxperf.engine.metrics.LatencySummary;
import io.fluxperf.engine.metrics.PoolFigures;
import io.fluxperf.engine.metrics.ServerStats;
import io.fluxperf.engine.metrics.TcpHealth;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.metrics.WindowSummaries;
import io.fluxperf.engine.metrics.WorkloadStats;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.Histogram;

/**
 * A window's end on the run's thread, in steps of one histogram each: the threads' figures added
 * into the window, its summaries (where the host policy wants them made here), its addition to the
 * whole run, and the small copy kept for the result. Between any two steps the host policy may hand a paced loop the CPU
 * ({@link HostTuning#pause()}); each step is a pass over a histogram's counts (tens to a few hundred
 * µs).
 */
final class WindowBookkeeping {
    /** Between two steps: the host policy's {@link HostTuning#pause()}. */
    private final Runnable pause;
    /**
     * Make each window's summaries here, in steps, rather than when a report first asks: where the
     * host policy offers the CPU back between steps, so that the report's summaries do not hold a
     * paced loop's CPU in one piece.
     */
    private final boolean summariesInSteps;
    private final List<WorkloadConfig> configs;
    /** The whole run so far, added into in place. */
    private final List<WorkloadStats> runWorkloads = new ArrayList<>();
    private final WorkloadStats runTotal = new WorkloadStats();
    private final ConnectionCounts runConnections = new ConnectionCounts();
    private final Histogram runSendLag = WorkloadStats.newHistogram();
    private final Histogram runConnect = WorkloadStats.newHistogram();
    private final TcpHealth runTcp = new TcpHealth();
    private long runStart;
    private long runEnd;
    private long runCpu;
    private long[] runLoopCpu = new long[0];
    private boolean anyWindow;
    /** Several servers: the whole run's per-server figures, added into in place; null with one. */
    private List<ServerStats> runServers;
    private boolean cluster;
    /** A cluster run: how often its map has been read again so far, and how often at the last window's end. */
    private java.util.function.LongSupplier mapRefreshes;
    private long refreshesSeen;
    private long runRefreshes;

    /** The workloads with the rates asked for between two times, when rates change as the run goes; null: {@link #configs}. */
    private java.util.function.BiFunction<Long, Long, List<WorkloadConfig>> targets;

    /** Windows carry the rates asked for in their own time (a window's target when the rate changed). */
    WindowBookkeeping targets(java.util.function.BiFunction<Long, Long, List<WorkloadConfig>> t) {
        this.targets = t;
        return this;
    }

    private List<WorkloadConfig> configs(long startNanos, long endNanos) {
        return targets == null ? configs : targets.apply(startNanos, endNanos);
    }

    WindowBookkeeping(Runnable pause, boolean summariesInSteps, List<WorkloadConfig> configs) {
        this.pause = pause;
        this.summariesInSteps = summariesInSteps;
        this.configs = configs;
        for (int i = 0; i < configs.size(); i++) {
            runWorkloads.add(new WorkloadStats());
        }
    }

    /** A run with several servers: its windows carry each server's figures; a cluster's, how often its map was read again. */
    WindowBookkeeping servers(boolean clusterRun, java.util.function.LongSupplier refreshes) {
        this.cluster = clusterRun;
        this.mapRefreshes = refreshes;
        return this;
    }

    /**
     * The window made of its figures, every thread's added ({@link RunningWindow}), with its summaries.
     * The window gets histograms of its own: a listener may keep it.
     *
     * @param cpuNanos this process's CPU time in the window; -1 unknown
     */
    WindowResult window(int number, long startNanos, long endNanos, long cpuNanos, FigureSum figures) {
        ThreadFigures f = figures.sum;
        List<WorkloadStats> workloads = new ArrayList<>();
        WorkloadStats total = new WorkloadStats();
        for (int i = 0; i < configs.size(); i++) {
            WorkloadStats w = new WorkloadStats();
            add(w, f.workloads[i]);
            add(total, w);
            workloads.add(w);
        }
        ConnectionCounts connections = f.connections.copy();
        Histogram lag = WorkloadStats.newHistogram();
        lag.add(f.sendLag);
        pause.run();
        Histogram connect = WorkloadStats.newHistogram();
        connect.add(f.connectLatency);
        TcpHealth tcp = f.tcp.copy();
        WindowResult w = new WindowResult(number, startNanos, endNanos, configs(startNanos, endNanos), workloads, total,
                connections, lag, connect, cpuNanos, figures.loopCpuNanos()).withTcp(tcp);
        if (f.servers != null) {
            w = w.withPool(servers(f.servers));
        }
        return summariesInSteps ? w.withSummaries(summaries(w)) : w;
    }

    /** Each server's figures over every thread. */
    private PoolFigures servers(ServerStats[] figures) {
        List<ServerStats> sum = new ArrayList<>();
        for (ServerStats s : figures) {
            sum.add(s.copy());
            pause.run();
        }
        long refreshes = 0;
        if (mapRefreshes != null) {
            long now = mapRefreshes.getAsLong();
            refreshes = now - refreshesSeen;
            refreshesSeen = now;
        }
        return new PoolFigures(sum, cluster, refreshes);
    }

    /** Adds {@code window} to the whole run. */
    void addToRun(WindowResult window) {
        if (window.pool() != null) {
            if (runServers == null) {
                runServers = window.pool().servers().stream().map(ServerStats::emptyCopy).toList();
            }
            for (int i = 0; i < runServers.size(); i++) {
                runServers.get(i).add(window.pool().servers().get(i));
                pause.run();
            }
            runRefreshes += window.pool().mapRefreshes();
        }
        for (int i = 0; i < runWorkloads.size(); i++) {
            add(runWorkloads.get(i), window.workloads().get(i));
        }
        add(runTotal, window.total());
        runTcp.addLater(window.tcp());
        runConnections.add(window.connections());
        runConnections.setOpen(window.connections().open());
        pause.run();
        runSendLag.add(window.sendLag());
        pause.run();
        runConnect.add(window.connectLatency());
        runStart = anyWindow ? Math.min(runStart, window.startNanos()) : window.startNanos();
        runEnd = anyWindow ? Math.max(runEnd, window.endNanos()) : window.endNanos();
        runCpu = anyWindow && (runCpu < 0 || window.cpuNanos() < 0) ? -1 : runCpu + window.cpuNanos();
        runLoopCpu = WindowResult.addLoopCpu(runLoopCpu, window.loopCpuNanos());
        anyWindow = true;
    }

    /** The whole run as one window (number 0), with its summaries. */
    WindowResult run() {
        WindowResult w = new WindowResult(0, runStart, runEnd, configs(runStart, runEnd), runWorkloads, runTotal, runConnections, runSendLag,
                runConnect, anyWindow ? runCpu : 0, runLoopCpu).withTcp(runTcp);
        if (runServers != null) {
            w = w.withPool(new PoolFigures(runServers, cluster, runRefreshes));
        }
        return w.withSummaries(summaries(w));
    }

    /** The small read-only copy of {@code w} that the result keeps ({@link WindowResult#compact()} in steps). */
    WindowResult keep(WindowResult w) {
        KeptHistogram.Encoder encoder = new KeptHistogram.Encoder();
        List<WorkloadStats> kept = new ArrayList<>();
        for (WorkloadStats s : w.workloads()) {
            kept.add(keep(s, encoder));
        }
        WorkloadStats keptTotal = keep(w.total(), encoder);
        pause.run();
        KeptHistogram lag = encoder.keep(w.sendLag());
        pause.run();
        KeptHistogram connect = encoder.keep(w.connectLatency());
        return w.kept(kept, keptTotal, lag, connect);
    }

    private WorkloadStats keep(WorkloadStats s, KeptHistogram.Encoder encoder) {
        pause.run();
        KeptHistogram latency = encoder.keep(s.latency());
        pause.run();
        KeptHistogram service = encoder.keep(s.service());
        return s.kept(latency, service);
    }

    private void add(WorkloadStats into, WorkloadStats from) {
        into.addCounts(from);
        pause.run();
        into.latency().add(from.latency());
        pause.run();
        into.service().add(from.service());
    }

    private WindowSummaries summaries(WindowResult w) {
        List<LatencySummary> latency = new ArrayList<>();
        List<LatencySummary> service = new ArrayList<>();
        for (WorkloadStats s : w.workloads()) {
            latency.add(summary(s.latency()));
            service.add(summary(s.service()));
        }
        return new WindowSummaries(summary(w.total().latency()), summary(w.total().service()), summary(w.sendLag()),
                summary(w.connectLatency()), latency, service);
    }

    /** A summary in three passes over the counts, with a pause between each. */
    private LatencySummary summary(AbstractHistogram h) {
        if (h.getTotalCount() == 0) {
            return LatencySummary.EMPTY;
        }
        pause.run();
        double mean = h.getMean();
        pause.run();
        double stddev = h.getStdDeviation();
        pause.run();
        return LatencySummary.of(h, mean, stddev);
    }

    /**
     * One window's end on made-up figures, through the code a real one runs (the listener's too),
     * for the host policy's rehearsal: values over the whole range, and counts of every size a
     * window holds (HdrHistogram's encoder writes a count in 1 to 9 bytes).
     */
    static void rehearse(List<WorkloadConfig> workloads, RunListener listener) {
        FigureSum made = new FigureSum(workloads.size(), 1, null, () -> { });
        ThreadFigures f = made.sum;
        for (WorkloadStats w : f.workloads) {
            for (int v = 0; v < 2_000; v++) {
                long nanos = 1_000L + (long) v * v * 97;
                long count = 1L << ((v * 7) % 40);
                w.latency().recordValueWithCount(nanos, count);
                w.service().recordValueWithCount(nanos / 2, count);
                f.sendLag.recordValueWithCount(v, count);
            }
        }
        made.loopCpuNanos(0, 900_000_000L); // far beyond the made-up window: the saturated-client line is rehearsed too
        WindowBookkeeping rehearsal = new WindowBookkeeping(() -> { }, true, workloads);
        WindowResult window = rehearsal.window(0, 0, 1, -1, made);
        listener.rehearseWindow(window);
        rehearsal.addToRun(window);
        rehearsal.keep(window).total().latency().getValueAtPercentile(99);
        rehearsal.run();
    }

    /** One summary of a made-up window's latency, for the host policy's rehearsal. */
    static void rehearseSummary() {
        Histogram h = WorkloadStats.newHistogram();
        for (int v = 1; v < 2_000; v++) {
            h.recordValueWithCount(1_000L + (long) v * v * 97, v);
        }
        LatencySummary.of(h);
    }
}
