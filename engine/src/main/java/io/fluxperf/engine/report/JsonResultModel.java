package io.fluxperf.engine.report;

import io.fluxperf.engine.config.KeyspaceConfig;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.ValueSize;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.ConnectionCounts;
import io.fluxperf.engine.metrics.HitrateWarmup;
import io.fluxperf.engine.metrics.LatencySummary;
import io.fluxperf.engine.metrics.PoolFigures;
import io.fluxperf.engine.metrics.ServerStats;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.metrics.WorkloadStats;
import io.fluxperf.engine.protocol.ReplyClasses;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The shape of the run's figures in the JSON result ({@link JsonResult}), as plain records mapped
 * from a {@link RunResult}. Kept apart from
 * the engine's config and metrics classes so that they carry no Jackson annotations and the JSON
 * layout can change without touching them. Times are ns relative to the first window's start,
 * latencies ns, config durations ms.
 */
final class JsonResultModel {
    private JsonResultModel() {
    }

    /**
     * A warm-up to a hit rate: the target, the hit rate of its last one-second check (null when no
     * read was answered in it), how long it ran, its bound, and whether it reached the target.
     */
    record Warmup(double targetHitratePercent, Double hitratePercent, double seconds, double boundSeconds,
                  boolean reached) {
        static Warmup of(HitrateWarmup w) {
            return w == null ? null
                    : new Warmup(w.targetPercent(), w.hitratePercent(), w.seconds(), w.boundSeconds(), w.reached());
        }
    }

    /**
     * @param pool a run with several servers or a cluster: its servers as given and how keys are
     *             placed on them; absent for a run against one server
     */
    record Config(String server, String protocol, int threads, int connections, int pipeline, long durationMs,
                  int windows, long warmupMs, long timeoutMs, boolean tcpNoDelay, long requests, long seed,
                  boolean openLoop, String arrivals, double warmupHitratePercent, List<WorkloadSettings> workloads,
                  @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                  Pool pool) {
    }

    /** The servers as given (HOST:PORT[:WEIGHT]), the distribution (null for a cluster), and a cluster's reads. */
    record Pool(List<String> servers, String distribution, boolean cluster, String readFrom) {
    }

    /**
     * One server's part of a window: a pool's server, or a cluster's node (role master or replica).
     * The servers' requests add up to the window's; the entry named "(not sent)" counts requests
     * whose keys lived on several servers and that were sent to none.
     */
    record Server(String server, String role, long requests, long ok, long miss, long error, long timeout,
                  long closed, double rate, long sent, long p50, long p99, long p999, Long moved, Long ask) {
    }

    /** A cluster run's redirects in a window, and how often the slot map was read again. */
    record Redirects(long moved, long ask, long mapRefreshes) {
    }

    /**
     * A cluster run's changes of layout seen in a window (each with its time, ns from the first
     * window's start) and the slots without a master in it: each gap that overlaps the window, as
     * long as it was by the window's end ({@code open}: still then). {@code longestGapNanos} is
     * the longest (0: none).
     */
    record Topology(List<TopologyChange> changes, List<TopologyGap> gaps, long longestGapNanos) {
        static Topology of(io.fluxperf.engine.metrics.TopologyFigures t, long origin) {
            if (t == null) {
                return null;
            }
            var longest = t.longestGap();
            return new Topology(t.changes().stream().map(c -> new TopologyChange(c.atNanos() - origin, c.what())).toList(),
                    t.gaps().stream().map(g -> new TopologyGap(g.firstSlot(), g.lastSlot(), g.master(), g.startNanos() - origin,
                            g.endNanos() - origin, g.nanos(), g.open())).toList(), longest == null ? 0 : longest.nanos());
        }
    }

    record TopologyChange(long at, String change) {
    }

    /**
     * A publish workload's messages as its subscribers received them (see {@code MessageFigures}):
     * in a window, the publishes that ended ok and what arrived; over the run ({@code reconciled}),
     * also each subscriber's {@code lost} and {@code unconfirmed} messages, null in a window.
     */
    record Messages(long published, boolean reconciled, long delivered, long duplicated, Long lost, Long unconfirmed,
                    List<SubscriberMessages> subscribers) {
        static Messages of(io.fluxperf.engine.metrics.MessageFigures m) {
            if (m == null) {
                return null;
            }
            boolean r = m.reconciled();
            return new Messages(m.published(), r, m.delivered(), m.duplicated(), r ? m.lost() : null,
                    r ? m.unconfirmed() : null, m.subscribers().stream().map(s -> new SubscriberMessages(s.number(),
                    s.delivered(), s.duplicated(), r ? s.lost() : null, r ? s.unconfirmed() : null, s.latency())).toList());
        }
    }

    /** One subscriber's messages; latency from each message's send time to its arrival, ns. */
    record SubscriberMessages(int subscriber, long delivered, long duplicated, Long lost, Long unconfirmed,
                              LatencySummary latency) {
    }

    record TopologyGap(int firstSlot, int lastSlot, String master, long start, long end, long nanos, boolean open) {
    }

    record WorkloadSettings(int index, String name, String method, double rate, int weight, Map<String, Object> bytes,
                            Keyspace keyspace, boolean hit, boolean flush, int keysPerRequest, int ttlSeconds) {
    }

    record Keyspace(long count, int keyLength, String distribution, double exponent) {
    }

    /**
     * One window, or the whole run (number 0). requests is the sum of the five outcomes below it;
     * mismatch is a part of error: reads whose value was not the one the run writes for the key.
     * loopCpuNanos, each load thread's CPU time, is a run directory's (absent from {@code --json}).
     */
    record Window(int number, long start, long end, double seconds, long requests, long ok, long miss, long error,
                  long timeout, long closed, long mismatch, double rate, Double successPercent, Double hitratePercent,
                  LatencySummary latency, LatencySummary service, LatencySummary sendLag, Connections connections,
                  long bytesSent, long bytesReceived, Long cpuNanos, Double cpuNanosPerRequest, Double busiestLoadThreadCpuShare,
                  double connectRate, LatencySummary connectLatency, java.util.Map<String, Long> replyClasses,
                  List<Workload> workloads,
                  @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                  List<Server> servers,
                  @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                  Redirects redirects,
                  @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                  Topology topology,
                  @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                  Messages messages,
                  @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                  io.fluxperf.engine.metrics.TcpFigures tcp,
                  @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                  long[] loopCpuNanos) {
    }

    record Workload(int index, String name, String method, double targetRate, boolean belowTarget, long requests,
                    long ok, long miss, long error, long timeout, long closed, long mismatch, double rate, Double hitratePercent,
                    LatencySummary latency, LatencySummary service, long bytesSent, long bytesReceived) {
    }

    /**
     * @param roomWaitNanos       paced runs: how long due requests waited for a connection with room (summed over threads)
     * @param roomWaitBehindNanos the part of it that began with a request already 1 ms behind its schedule (a backlog)
     */
    record Connections(long attempts, long opened, long failures, long closed, long open, long roomWaitNanos,
                       long roomWaitBehindNanos) {
    }

    static Config config(RunConfig c) {
        List<WorkloadSettings> workloads = new ArrayList<>();
        for (int i = 0; i < c.workloads().size(); i++) {
            WorkloadConfig w = c.workloads().get(i);
            KeyspaceConfig k = w.keyspace();
            workloads.add(new WorkloadSettings(i, w.name(), w.method().label(), w.rate(), w.weight(), bytes(w.bytes()),
                    new Keyspace(k.count(), k.keyLength(), k.distribution().label(), k.exponent()),
                    w.hit(), w.flush(), w.keysPerRequest(), w.ttlSeconds()));
        }
        return new Config(c.server(), c.protocol(), c.threads(), c.connections(), c.pipeline(),
                millis(c.duration()), c.windows(), millis(c.warmup()), millis(c.timeout()), c.tcpNoDelay(),
                c.requests(), c.seed(), c.isOpenLoop(), c.arrivals().label(), c.warmupHitrate(), workloads,
                c.pool().isPool() ? new Pool(c.pool().servers(), c.pool().cluster() ? null : c.pool().distribution().label(),
                        c.pool().cluster(), c.pool().cluster() ? c.pool().readFrom().label() : null) : null);
    }

    private static long millis(Duration d) {
        return d == null ? 0 : d.toMillis();
    }

    private static Map<String, Object> bytes(ValueSize size) {
        Map<String, Object> m = new LinkedHashMap<>();
        if (size instanceof ValueSize.Fixed f) {
            m.put("kind", "fixed");
            m.put("bytes", f.bytes());
        } else if (size instanceof ValueSize.Range r) {
            m.put("kind", "range");
            m.put("min", r.min());
            m.put("max", r.max());
        } else if (size instanceof ValueSize.Weighted w) {
            m.put("kind", "weighted");
            m.put("sizes", w.sizes());
            m.put("weights", w.weights());
        }
        m.put("text", size.describe());
        return m;
    }

    /** @param loopCpu whether to give each load thread's CPU time (a run directory's result) */
    static Window window(WindowResult w, RunConfig run, long origin, boolean loopCpu) {
        List<WorkloadConfig> configs = WindowFigures.configs(w, run);
        List<Workload> workloads = new ArrayList<>();
        for (int i = 0; i < w.workloads().size(); i++) {
            workloads.add(workload(i, i < configs.size() ? configs.get(i) : null, w.workloads().get(i),
                    w.summaries().workloadLatency().get(i), w.summaries().workloadService().get(i), w.rate(i)));
        }
        WorkloadStats t = w.total();
        Counts c = Counts.of(t.outcomes());
        ConnectionCounts cc = w.connections() != null ? w.connections() : new ConnectionCounts();
        return new Window(w.number(), w.startNanos() - origin, w.endNanos() - origin, w.seconds(),
                c.requests(), c.ok(), c.miss(), c.error(), c.timeout(), c.closed(), c.mismatch(), w.rate(), c.successPercent(),
                WindowFigures.hitratePercent(w, configs), w.summaries().latency(),
                w.summaries().service(), run.isOpenLoop() ? w.summaries().sendLag() : null,
                new Connections(cc.attempts(), cc.openedCount(), cc.failures(), cc.closedCount(), cc.open(), cc.roomWaitNanos(),
                        cc.roomWaitBehindNanos()),
                t.bytesSent(), t.bytesReceived(), w.cpuNanos() < 0 ? null : w.cpuNanos(),
                w.cpuNanosPerRequest() < 0 ? null : w.cpuNanosPerRequest(),
                w.busiestLoopShare() < 0 ? null : w.busiestLoopShare(),
                w.connectLatency() != null ? w.connectRate() : 0,
                w.connectLatency() != null ? w.summaries().connect() : null, replyClasses(t, TextReport.replyClasses(run)), workloads,
                servers(w), w.pool() != null && w.pool().cluster()
                        ? new Redirects(w.pool().moved(), w.pool().ask(), w.pool().mapRefreshes()) : null,
                Topology.of(w.topology(), origin), Messages.of(w.messages()),
                w.tcp().figures().samples() > 0 ? w.tcp().figures() : null, loopCpu ? w.loopCpuNanos() : null);
    }

    private static List<Server> servers(WindowResult w) {
        PoolFigures pool = w.pool();
        if (pool == null) {
            return null;
        }
        List<Server> out = new ArrayList<>();
        for (ServerStats s : pool.servers()) {
            if (!s.shown()) {
                continue;
            }
            org.HdrHistogram.AbstractHistogram h = s.latency();
            boolean timed = h.getTotalCount() > 0;
            Counts c = Counts.of(s.outcomes());
            out.add(new Server(s.name(), s.role(), c.requests(), c.ok(), c.miss(), c.error(), c.timeout(), c.closed(),
                    c.requests() / w.seconds(), s.sent(), timed ? h.getValueAtPercentile(50) : 0,
                    timed ? h.getValueAtPercentile(99) : 0, timed ? h.getValueAtPercentile(99.9) : 0,
                    pool.cluster() ? s.moved() : null, pool.cluster() ? s.ask() : null));
        }
        return out;
    }

    /** Replies by the protocol's class ("2xx" → n for HTTP), or null for protocols without classes. */
    private static java.util.Map<String, Long> replyClasses(WorkloadStats s, ReplyClasses classes) {
        if (!s.hasReplyClasses() || classes.count() == 0) {
            return null;
        }
        java.util.Map<String, Long> m = new java.util.LinkedHashMap<>();
        for (int c = 1; c <= classes.count(); c++) {
            m.put(classes.label(c), s.replyClass(c));
        }
        return m;
    }

    private static Workload workload(int index, WorkloadConfig config, WorkloadStats s, LatencySummary latency,
                                     LatencySummary service, double rate) {
        Counts c = Counts.of(s.outcomes());
        return new Workload(index, config != null ? config.name() : "workload-" + index,
                config != null ? config.method().label() : null, config != null ? config.rate() : 0,
                WindowFigures.belowTarget(config, rate), c.requests(), c.ok(), c.miss(), c.error(), c.timeout(),
                c.closed(), c.mismatch(), rate, WindowFigures.hitratePercent(config, s), latency, service, s.bytesSent(), s.bytesReceived());
    }
}
