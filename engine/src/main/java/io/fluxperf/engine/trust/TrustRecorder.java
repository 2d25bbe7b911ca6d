package io.fluxperf.engine.trust;

import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.metrics.ConnectionCounts;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.SecondFigures;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.metrics.WorkloadStats;
import io.fluxperf.engine.pause.ClientPause;
import io.fluxperf.engine.pause.PauseDetector;
import io.fluxperf.engine.slo.Objective;
import io.fluxperf.trace.LatencyHistograms;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.Histogram;

/**
 * Gathers a run's trust as it goes, on the run's thread: each second's summary, each window's
 * intervals, pauses and limits as the window ends ({@link WindowTrust}), and the whole run's at
 * its end ({@link RunTrust}). A consumer of the run's seconds and windows; it changes nothing of
 * the load.
 */
public final class TrustRecorder {
    /** A load thread that waited for a CPU this share of a window or more made the client the limit. */
    public static final double RUN_QUEUE_SHARE = 0.10;
    /** Paced requests whose send lag p99 reaches this left late. */
    public static final long LATE_SEND_NANOS = 1_000_000;
    /** Waits for a connection with room below this share of a window do not explain a send lag. */
    static final double ROOM_WAIT_SHARE = 0.01;

    private final RunConfig config;
    private final PauseDetector detector;
    private final Histogram all = LatencyHistograms.create();
    private final List<SecondSummary> seconds = new ArrayList<>();
    private final List<WindowTrust> windows = new ArrayList<>();
    private final long epochMillisAt = System.currentTimeMillis();
    private final long nanosAt = System.nanoTime();
    private long origin = Long.MIN_VALUE;
    private long assignedUntil = Long.MIN_VALUE;
    private Map<Integer, Long> waitsAtStart = new HashMap<>();
    private long compiledAt = -1;
    /** The window whose first second was seen last, and that second's smallest send lag (-1: none paced). */
    private int startLagWindow;
    private long startLagNanos = -1;

    /** @param detector the process's pause detector, or null to name no pauses */
    public TrustRecorder(RunConfig config, PauseDetector detector) {
        this.config = config;
        this.detector = detector;
    }

    /** The bytes of the histograms this recorder holds, for the memory formula (docs/internals.md). */
    public long histogramBytes() {
        return all.getEstimatedFootprintInBytes();
    }

    /** The load is about to be measured: the run-queue waits and compile time count from here. */
    public void loadBegins() {
        waitsAtStart = detector == null ? new HashMap<>() : detector.loadThreads().waits();
        compiledAt = compiledMillis();
    }

    /** The JIT compiler threads' CPU time so far, ms; -1 unknown (no detector, or not Linux). */
    private long compiledMillis() {
        long nanos = detector == null ? -1 : detector.compilerThreads().cpuNanos();
        return nanos < 0 ? -1 : nanos / 1_000_000;
    }

    /** One second of a measured window (its figures are reused after the call). */
    public void second(SecondFigures s) {
        if (origin == Long.MIN_VALUE) {
            origin = s.startNanos();
        }
        if (s.window() != startLagWindow) {
            startLagWindow = s.window();
            startLagNanos = s.sendLag() != null && s.sendLag().getTotalCount() > 0 ? s.sendLag().getMinValue() : -1;
        }
        all.reset();
        List<SecondSummary.Workload> parts = new ArrayList<>();
        for (WorkloadStats w : s.workloads()) {
            all.add(w.latency());
            if (s.workloads().size() > 1) {
                parts.add(new SecondSummary.Workload(w.latency().getTotalCount(), percentiles(w.latency())));
            }
        }
        LatencyInterval p99 = PercentileIntervals.of(all, 99);
        long compiled = compiledMillis();
        long compileMillis = compiled < 0 || compiledAt < 0 ? -1 : compiled - compiledAt;
        compiledAt = compiled;
        seconds.add(new SecondSummary(s.window(), s.startNanos() - origin, Math.max(0, s.endNanos() - s.startNanos()) / 1e9,
                all.getTotalCount(), percentiles(all), p99 == null ? 0 : p99.low(), p99 == null ? 0 : p99.high(),
                compileMillis, parts));
    }

    private static long[] percentiles(AbstractHistogram h) {
        long[] out = new long[PercentileIntervals.REPORTED.length];
        if (h.getTotalCount() > 0) {
            for (int i = 0; i < out.length; i++) {
                out[i] = h.getValueAtPercentile(PercentileIntervals.REPORTED[i]);
            }
        }
        return out;
    }

    /** A measured window has ended: its trust (after its seconds have been given). */
    public WindowTrust window(WindowResult w) {
        if (origin == Long.MIN_VALUE) {
            origin = w.startNanos();
        }
        List<LatencyInterval> intervals = PercentileIntervals.reported(w.total().latency());
        long from = assignedUntil == Long.MIN_VALUE ? w.startNanos() : assignedUntil;
        assignedUntil = Math.max(from, w.endNanos());
        List<NamedPause> pauses = new ArrayList<>();
        if (detector != null) {
            for (ClientPause p : detector.pauses(from, assignedUntil)) {
                pauses.add(new NamedPause(w.number(), p.startNanos() - origin, p.durationNanos(), p.cause(),
                        epochMillisAt + Math.floorDiv(p.startNanos() - nanosAt, 1_000_000L)));
            }
        }
        double share = runQueueShare(w);
        long lagP99 = config.isOpenLoop() ? w.summaries().sendLag().p99() : 0;
        List<ClientLimit> limits = new ArrayList<>();
        if (w.loopSaturated()) {
            limits.add(ClientLimit.CPU);
        }
        if (share >= RUN_QUEUE_SHARE) {
            limits.add(ClientLimit.RUN_QUEUE);
        }
        ConnectionCounts cc = w.connections() != null ? w.connections() : new ConnectionCounts();
        if (config.isOpenLoop() && lagP99 >= LATE_SEND_NANOS && pauses.isEmpty()
                && cc.roomWaitNanos() < ROOM_WAIT_SHARE * w.seconds() * 1e9) {
            limits.add(ClientLimit.SEND_LAG);
        }
        List<Finding> drift = new ArrayList<>();
        if (config.isOpenLoop() && startLagWindow == w.number()) {
            Finding behind = Stability.beganBehind(w.number(), startLagNanos);
            if (behind != null) {
                drift.add(behind);
            }
        }
        if (config.windows() > 1) {
            int number = w.number();
            drift.addAll(Stability.windowDrift(number, seconds.stream().filter(s -> s.window() == number).toList(),
                    intervals.isEmpty() ? null : intervals.get(2), w.total().outcomes().requests(), w.seconds()));
        }
        WindowTrust t = new WindowTrust(w.number(), intervals, pauses, share, lagP99, limits, drift);
        windows.add(t);
        return t;
    }

    /** The longest any load thread waited for a CPU in the window, as a share of it; -1 when unknown. */
    private double runQueueShare(WindowResult w) {
        if (detector == null) {
            return -1;
        }
        Map<Integer, Long> now = detector.loadThreads().waits();
        if (now.isEmpty()) {
            return -1;
        }
        long longest = 0;
        for (Map.Entry<Integer, Long> e : now.entrySet()) {
            longest = Math.max(longest, e.getValue() - waitsAtStart.getOrDefault(e.getKey(), 0L));
        }
        waitsAtStart = now;
        return longest / 1e9 / w.seconds();
    }

    /**
     * The whole run's trust, at its end.
     *
     * @param floor the latency floor measured before the load
     */
    public RunTrust finish(RunResult r, LatencyFloor floor) {
        return finish(config, r.total().total().latency(), windows, seconds, floor, totalsOf(r));
    }

    private List<AbstractHistogram> totalsOf(RunResult r) {
        List<AbstractHistogram> out = new ArrayList<>();
        r.total().workloads().forEach(w -> out.add(w.latency()));
        return out;
    }

    /**
     * A run's trust from its parts (also what a run directory's is made again from).
     *
     * @param latency   the whole run's latency, every workload together
     * @param workloads each workload's, in order
     */
    static RunTrust finish(RunConfig config, AbstractHistogram latency, List<WindowTrust> windows, List<SecondSummary> seconds,
                           LatencyFloor floor, List<? extends AbstractHistogram> workloads) {
        List<LatencyInterval> total = widened(PercentileIntervals.reported(latency), seconds, -1);
        List<Finding> findings = new ArrayList<>();
        double warmup = config.warmup() == null ? 0 : config.warmup().toNanos() / 1e9;
        Finding first = Stability.firstSeconds(seconds, warmup);
        if (first != null) {
            findings.add(first);
        }
        findings.addAll(Stability.trends(seconds, Stability.outlyingStart(seconds)));
        EnumSet<TrustVerdict.Flag> flags = EnumSet.noneOf(TrustVerdict.Flag.class);
        if (windows.stream().anyMatch(w -> !w.limits().isEmpty())) {
            flags.add(TrustVerdict.Flag.CLIENT_LIMITED);
        }
        if (windows.stream().anyMatch(w -> !w.pauses().isEmpty())) {
            flags.add(TrustVerdict.Flag.CLIENT_PAUSED);
        }
        if (!findings.isEmpty() || windows.stream().anyMatch(w -> !w.drift().isEmpty())) {
            flags.add(TrustVerdict.Flag.UNSTABLE);
        }
        if (fewSamples(config, total, latency, workloads)) {
            flags.add(TrustVerdict.Flag.FEW_SAMPLES);
        }
        return new RunTrust(floor, windows, total, seconds, findings, new TrustVerdict(flags));
    }

    /** The whole run's p99, or a percentile an objective judges, has too few samples beyond it. */
    private static boolean fewSamples(RunConfig config, List<LatencyInterval> total, AbstractHistogram latency,
                                      List<? extends AbstractHistogram> workloads) {
        if (total.isEmpty() || total.get(2).fewSamples()) {
            return true;
        }
        List<String> names = config.workloads().stream().map(w -> w.name()).toList();
        for (Objective o : config.objectives()) {
            if (o.measure() != Objective.Measure.PERCENTILE || o.percentile() >= 100) {
                continue;
            }
            int i = o.workload() == null ? -1 : names.indexOf(o.workload());
            AbstractHistogram h = i < 0 ? latency : i < workloads.size() ? workloads.get(i) : null;
            if (h != null && OrderStatistics.beyond(h.getTotalCount(), o.percentile()) < OrderStatistics.MIN_BEYOND) {
                return true;
            }
        }
        return false;
    }

    /**
     * The intervals of a whole run widened by the spread between its seconds, where it has enough
     * ({@link SecondsSpread}); the order-statistic interval alone elsewhere.
     *
     * @param workload the workload's index, or -1 for every request
     */
    public static List<LatencyInterval> widened(List<LatencyInterval> intervals, List<SecondSummary> seconds, int workload) {
        List<LatencyInterval> out = new ArrayList<>();
        for (LatencyInterval i : intervals) {
            out.add(widened(i, seconds, workload));
        }
        return out;
    }

    /** One interval widened as {@link #widened(List, List, int)} does; as it is for a percentile no second summary holds. */
    public static LatencyInterval widened(LatencyInterval i, List<SecondSummary> seconds, int workload) {
        int index = -1;
        for (int k = 0; k < PercentileIntervals.REPORTED.length; k++) {
            if (PercentileIntervals.REPORTED[k] == i.percentile()) {
                index = k;
            }
        }
        long[] b = index < 0 ? null : SecondsSpread.bounds(seconds, workload, index, i.value());
        return b == null ? i : i.widenedTo(b[0], b[1]);
    }

    /** The first window's start, {@link System#nanoTime()}, which the run's times count from; 0 before it. */
    public long originNanos() {
        return origin == Long.MIN_VALUE ? 0 : origin;
    }

    /** The seconds so far. */
    public List<SecondSummary> seconds() {
        return List.copyOf(seconds);
    }
}
