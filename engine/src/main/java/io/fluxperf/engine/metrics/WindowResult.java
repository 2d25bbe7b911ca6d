package io.fluxperf.engine.metrics;

import io.fluxperf.engine.config.WorkloadConfig;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * What happened in one window (or in the whole run): per workload stats, their total, the
 * connection events and the send lag (actual minus intended send time, open loop only).
 * Requests are counted in the window in which they ended. A window that has been reported is
 * kept in a small read-only form ({@link #compact()}). Its latency summaries are made once
 * ({@link #summaries()}); not thread-safe.
 */
public final class WindowResult {
    /**
     * From this share of a window on, a load loop counts as saturated: it had requests to handle
     * nearly all the time, so the client set the window's pace and requests queued in it.
     */
    public static final double SATURATED_LOOP_SHARE = 0.9;

    private final int number;
    private final long startNanos;
    private final long endNanos;
    private final List<WorkloadConfig> workloadConfigs;
    private final List<WorkloadStats> workloads;
    private final WorkloadStats total;
    private final ConnectionCounts connections;
    /** Null in a kept window ({@link #compact()}), which holds {@link #keptSendLag} instead. */
    private final Histogram sendLag;
    private final Histogram connectLatency;
    private final KeptHistogram keptSendLag;
    private final KeptHistogram keptConnectLatency;
    private final long cpuNanos;
    private final long[] loopCpuNanos;
    /** Made on first need, or given ({@link #withSummaries}); kept by {@link #compact()}. */
    private WindowSummaries summaries;
    /** Each server's figures in a run with several; null with one. */
    private PoolFigures pool;
    /** The kernel's TCP_INFO of the load connections in the window; empty when none was sampled. */
    private TcpHealth tcp = new TcpHealth();
    /** A cluster run: what it saw of the cluster's layout in the window; null otherwise. */
    private TopologyFigures topology;
    /** A publish workload with subscribers: what they received in the window; null otherwise. */
    private MessageFigures messages;

    public WindowResult(int number, long startNanos, long endNanos, List<WorkloadConfig> workloadConfigs,
                        List<WorkloadStats> workloads, WorkloadStats total, ConnectionCounts connections,
                        Histogram sendLag, Histogram connectLatency, long cpuNanos, long[] loopCpuNanos) {
        this(number, startNanos, endNanos, workloadConfigs, workloads, total, connections, sendLag, connectLatency,
                null, null, cpuNanos, loopCpuNanos);
    }

    private WindowResult(int number, long startNanos, long endNanos, List<WorkloadConfig> workloadConfigs,
                         List<WorkloadStats> workloads, WorkloadStats total, ConnectionCounts connections,
                         Histogram sendLag, Histogram connectLatency, KeptHistogram keptSendLag,
                         KeptHistogram keptConnectLatency, long cpuNanos, long[] loopCpuNanos) {
        this.number = number;
        this.startNanos = startNanos;
        this.endNanos = endNanos;
        this.workloadConfigs = workloadConfigs;
        this.workloads = workloads;
        this.total = total;
        this.connections = connections;
        this.sendLag = sendLag;
        this.connectLatency = connectLatency;
        this.keptSendLag = keptSendLag;
        this.keptConnectLatency = keptConnectLatency;
        this.cpuNanos = cpuNanos;
        this.loopCpuNanos = loopCpuNanos.clone();
    }

    /** 1-based window number; 0 for the whole run. */
    public int number() {
        return number;
    }

    /** Every latency summary of this window, read from its histograms once. */
    public WindowSummaries summaries() {
        if (summaries == null) {
            summaries = WindowSummaries.of(this);
        }
        return summaries;
    }

    /** This window with summaries made elsewhere (in steps, between other work) from its own histograms. */
    public WindowResult withSummaries(WindowSummaries s) {
        WindowResult w = new WindowResult(number, startNanos, endNanos, workloadConfigs, workloads, total, connections,
                sendLag, connectLatency, keptSendLag, keptConnectLatency, cpuNanos, loopCpuNanos);
        w.summaries = s;
        w.pool = pool;
        w.tcp = tcp;
        w.topology = topology;
        w.messages = messages;
        return w;
    }

    /** This window with each server's figures (a run with several servers). */
    public WindowResult withPool(PoolFigures p) {
        WindowResult w = new WindowResult(number, startNanos, endNanos, workloadConfigs, workloads, total, connections,
                sendLag, connectLatency, keptSendLag, keptConnectLatency, cpuNanos, loopCpuNanos);
        w.summaries = summaries;
        w.pool = p;
        w.tcp = tcp;
        w.topology = topology;
        w.messages = messages;
        return w;
    }

    /** This window with what a publish workload's subscribers received in it. */
    public WindowResult withMessages(MessageFigures m) {
        WindowResult w = withPool(pool);
        w.messages = m;
        return w;
    }

    /** A publish workload's messages as its subscribers received them; null without subscribers. */
    public MessageFigures messages() {
        return messages;
    }

    /** This window with what a cluster run saw of its cluster's layout in it. */
    public WindowResult withTopology(TopologyFigures t) {
        WindowResult w = withPool(pool);
        w.topology = t;
        return w;
    }

    /** A cluster run's changes of layout and slots without a master in this window; null for other runs. */
    public TopologyFigures topology() {
        return topology;
    }

    /** This window with its TCP health figures. */
    public WindowResult withTcp(TcpHealth t) {
        WindowResult w = withPool(pool);
        w.tcp = t;
        return w;
    }

    /** The kernel's TCP_INFO of the load connections in this window (no samples: none was read). */
    public TcpHealth tcp() {
        return tcp;
    }

    /** Each server's figures in a run with several servers or a cluster; null in a run against one. */
    public PoolFigures pool() {
        return pool;
    }

    /** Window start, System.nanoTime(). */
    public long startNanos() {
        return startNanos;
    }

    /** Window end, System.nanoTime(). */
    public long endNanos() {
        return endNanos;
    }

    public List<WorkloadConfig> workloadConfigs() {
        return workloadConfigs;
    }

    public List<WorkloadStats> workloads() {
        return workloads;
    }

    public WorkloadStats total() {
        return total;
    }

    public ConnectionCounts connections() {
        return connections;
    }

    /** Actual minus intended send time of the window's paced requests; a kept window's is decoded anew on each call. */
    public Histogram sendLag() {
        return keptSendLag != null ? keptSendLag.histogram() : sendLag;
    }

    /**
     * Time from connect start to ready for load, per connection made in the window; a kept
     * window's is decoded anew on each call.
     */
    public Histogram connectLatency() {
        return keptConnectLatency != null ? keptConnectLatency.histogram() : connectLatency;
    }

    /** CPU time (user + system) this process used in the window, ns; -1 if the JVM cannot tell. */
    public long cpuNanos() {
        return cpuNanos;
    }

    public static WindowResult empty(int number, long startNanos, List<WorkloadConfig> configs) {
        List<WorkloadStats> stats = configs.stream().map(c -> new WorkloadStats()).toList();
        return new WindowResult(number, startNanos, startNanos, configs, stats, new WorkloadStats(),
                new ConnectionCounts(), WorkloadStats.newHistogram(), WorkloadStats.newHistogram(), 0, new long[0]);
    }

    public double seconds() {
        return Math.max(1, endNanos - startNanos) / 1e9;
    }

    /** Requests per second that ended in this window. */
    public double rate() {
        return total.outcomes().requests() / seconds();
    }

    /** Connections made per second in this window. */
    public double connectRate() {
        long made = keptConnectLatency != null ? keptConnectLatency.totalCount() : connectLatency.getTotalCount();
        return made / seconds();
    }

    /** Client CPU per request, ns, or -1 when unknown or there were no requests. */
    public double cpuNanosPerRequest() {
        long requests = total.outcomes().requests();
        return cpuNanos < 0 || requests == 0 ? -1 : (double) cpuNanos / requests;
    }

    /**
     * The busiest load loop's CPU time as a share of the window (0.97: on CPU 97 % of it), or -1
     * when any loop's is unknown. Under --busy-poll, its polls that found nothing to do are left
     * out: a loop that spins has room as long as it spins idle.
     */
    public double busiestLoopShare() {
        if (loopCpuNanos.length == 0) {
            return -1;
        }
        long max = 0;
        for (long n : loopCpuNanos) {
            if (n < 0) {
                return -1;
            }
            max = Math.max(max, n);
        }
        return max / 1e9 / seconds();
    }

    /** The busiest load loop was on CPU for {@link #SATURATED_LOOP_SHARE} of the window or more. */
    public boolean loopSaturated() {
        return busiestLoopShare() >= SATURATED_LOOP_SHARE;
    }

    /**
     * CPU time each load thread's event loop used in the window, ns, in thread order; empty when
     * unknown (an entry is -1 when that thread's is). A copy: the window keeps its own.
     */
    public long[] loopCpuNanos() {
        return loopCpuNanos.clone();
    }

    public double rate(int workload) {
        return workloads.get(workload).outcomes().requests() / seconds();
    }

    /**
     * This window kept small and read-only, its histograms encoded ({@link KeptHistogram}), to
     * keep once it has been reported: a run keeps every window for its JSON result, and at full
     * size a window costs about 1.6 MB (a 30-minute soak of one-minute windows grew its heap by
     * 50 MB). Made on the run's thread at each window end, while the load goes on.
     */
    public WindowResult compact() {
        KeptHistogram.Encoder encoder = new KeptHistogram.Encoder();
        List<WorkloadStats> kept = new ArrayList<>(workloads.size());
        for (WorkloadStats s : workloads) {
            kept.add(s.compact(encoder));
        }
        return kept(kept, total.compact(encoder), encoder.keep(sendLag()), encoder.keep(connectLatency()));
    }

    /**
     * This window kept read-only from its parts, encoded by the caller ({@link #compact()} in
     * steps): the workloads' and total's kept copies, and the encoded send lag and connect times.
     * Summaries made already come along; others are made from the kept copy when asked for.
     */
    public WindowResult kept(List<WorkloadStats> keptWorkloads, WorkloadStats keptTotal, KeptHistogram keptLag,
                             KeptHistogram keptConnect) {
        WindowSummaries s = summaries;
        WindowResult w = new WindowResult(number, startNanos, endNanos, workloadConfigs, keptWorkloads, keptTotal,
                connections.copy(), null, null, keptLag, keptConnect, cpuNanos, loopCpuNanos);
        w.summaries = s;
        w.pool = pool == null ? null : pool.kept();
        w.tcp = tcp.copy();
        w.topology = topology;
        w.messages = messages;
        return w;
    }

    /** Bytes held by the window's histograms: their counts, or a kept window's encodings. */
    public long histogramBytes() {
        long bytes = total.histogramBytes();
        for (WorkloadStats s : workloads) {
            bytes += s.histogramBytes();
        }
        if (keptSendLag != null) {
            return bytes + keptSendLag.encodedBytes() + keptConnectLatency.encodedBytes();
        }
        return bytes + sendLag.getEstimatedFootprintInBytes() + connectLatency.getEstimatedFootprintInBytes();
    }

    /** The window with {@code other} added; used to build the whole-run result. */
    public WindowResult merge(int newNumber, WindowResult other) {
        List<WorkloadStats> merged = new java.util.ArrayList<>();
        for (int i = 0; i < workloads.size(); i++) {
            WorkloadStats s = workloads.get(i).copy();
            s.add(other.workloads.get(i));
            merged.add(s);
        }
        WorkloadStats t = total.copy();
        t.add(other.total);
        ConnectionCounts c = connections.copy();
        c.add(other.connections);
        c.setOpen(other.connections.open());
        Histogram lag = sendLag().copy();
        lag.add(other.sendLag());
        Histogram connect = connectLatency().copy();
        connect.add(other.connectLatency());
        WindowResult w = new WindowResult(newNumber, Math.min(startNanos, other.startNanos), Math.max(endNanos, other.endNanos),
                workloadConfigs, merged, t, c, lag, connect,
                cpuNanos < 0 || other.cpuNanos < 0 ? -1 : cpuNanos + other.cpuNanos, addLoopCpu(loopCpuNanos, other.loopCpuNanos));
        w.pool = pool == null ? other.pool : other.pool == null ? pool : pool.plus(other.pool);
        w.tcp = tcp.copy();
        w.tcp.addLater(other.tcp);
        return w;
    }

    /** Per-loop sums; an empty start takes the other's, and loops of unknown time stay unknown. */
    public static long[] addLoopCpu(long[] a, long[] b) {
        if (a.length == 0) {
            return b;
        }
        if (b.length == 0) {
            return a;
        }
        if (a.length != b.length) {
            return new long[0];
        }
        long[] sum = new long[a.length];
        for (int i = 0; i < a.length; i++) {
            sum[i] = a[i] < 0 || b[i] < 0 ? -1 : a[i] + b[i];
        }
        return sum;
    }
}
