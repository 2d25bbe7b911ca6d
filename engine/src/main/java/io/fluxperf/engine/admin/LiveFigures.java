package io.fluxperf.engine.admin;

import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.load.LiveFeed;
import io.fluxperf.engine.metrics.ConnectionCounts;
import io.fluxperf.engine.metrics.IntervalSample;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.metrics.WorkloadStats;
import io.fluxperf.trace.LatencyHistograms;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.Histogram;

/**
 * The admin endpoint's figures of one run, fed on the run's thread ({@link LiveFeed}) and read by
 * the endpoint's loop as one immutable {@link Snapshot}, published whole after every interval and
 * window: a scrape never waits for the run, and never sees half an update.
 *
 * <p>The counters are the closed windows' figures plus the running window's so far, so they only
 * grow, count the measured windows alone (not the warm-up), and at the run's end equal its report.
 * Latency, service time and send lag are summaries over the measured run, from each interval's
 * histograms; requests/s and the per-second history come from the statistics intervals.
 */
public final class LiveFigures implements LiveFeed {
    /** How much per-second history {@code /metrics.json} holds (the dashboard's last minutes). */
    public static final int HISTORY_SECONDS = 300;
    /** The heatmap's latency buckets: upper bounds in ns, 1 µs doubling to about 8.4 s, then one for the rest. */
    static final long[] HEAT_BOUNDS_NANOS = heatBounds();
    /**
     * The upper bounds of {@code /metrics}' latency histogram, seconds: 1, 1.5, 2, 3, 5 and 7 times
     * each power of ten from 1 µs to 7 s, then 10 s (and +Inf after them). Neighbours differ by at
     * most 1.67 times, so Prometheus' {@code histogram_quantile}, which interpolates within a
     * bucket, is off by less than that; 43 buckets a workload keep the series few.
     */
    static final double[] LATENCY_BUCKETS_SECONDS = latencyBuckets();
    /** The order of a workload's counts ({@link io.fluxperf.engine.load.LiveFeed#interval}). */
    static final List<String> OUTCOMES = List.of("ok", "miss", "error", "timeout", "closed");
    static final int SENT = 5;
    static final int BYTES_IN = 6;
    static final int BYTES_OUT = 7;
    static final int COUNTS = 8;

    /** One workload's latency over the measured run: quantiles 0.5, 0.9, 0.99, 0.999 and the max, seconds. */
    public record Summary(long count, double sumSeconds, double[] quantiles, double maxSeconds) {
        public static final double[] QUANTILES = {0.5, 0.9, 0.99, 0.999};
        static final Summary EMPTY = new Summary(0, 0, new double[QUANTILES.length], 0);

        static Summary of(Histogram h) {
            if (h.getTotalCount() == 0) {
                return EMPTY;
            }
            double[] q = new double[QUANTILES.length];
            for (int i = 0; i < q.length; i++) {
                q[i] = h.getValueAtPercentile(QUANTILES[i] * 100) / 1e9;
            }
            return new Summary(h.getTotalCount(), h.getMean() * h.getTotalCount() / 1e9, q, h.getMaxValue() / 1e9);
        }
    }

    /**
     * One statistics interval of the run (a second, or {@code --stats-interval}): requests/s and
     * target per workload, the outcomes (counts over the interval, {@code seconds} long), latency
     * percentiles (ns) and heatmap column of every workload together.
     *
     * @param second  when it ended, seconds since the load began
     * @param seconds its length
     */
    public record Second(double second, double seconds, long unixMillis, double[] rates, double[] targets, long[] outcomes,
                         long p50, long p99, long p999, long openConnections, long[] heat) {
    }

    /**
     * Everything the endpoint shows, at one moment.
     *
     * @param phase    "connecting", "warm-up", "measuring" or "ended"
     * @param counts   per workload: ok, miss, error, timeout, closed, sent, bytes received, bytes sent
     * @param targets  per workload its target requests/s now (0: unlimited)
     * @param achieved per workload its requests/s in the last interval
     * @param intervalSeconds how often the figures are taken: --stats-interval, else 1 s
     * @param latencyBuckets per workload, its requests of the measured run in each bucket of
     *                       {@link #LATENCY_BUCKETS_SECONDS} and a last one above them (not cumulative)
     */
    public record Snapshot(String kind, String protocol, String target, boolean steerable, String phase, double intervalSeconds,
                           double elapsedSeconds, List<String> workloads, long[][] counts, double[] targets,
                           double[] achieved, Summary[] latency, Summary[] service, Summary sendLag,
                           long connectionsOpen, long connectionsOpened, long connectionsFailed,
                           long connectionsClosed, List<Second> history, TcpNow tcp, long[][] latencyBuckets) {
    }

    /**
     * TCP health (the kernel's TCP_INFO of the load connections, sampled once a second): segments
     * retransmitted since the load began, and the last interval with samples' lost segments and
     * smoothed RTT (µs); all 0 before any sample (UDP, Unix sockets).
     */
    public record TcpNow(long retransmits, long samples, long lost, long rttP50Micros, long rttMaxMicros) {
    }

    private final RunConfig config;
    private final String kind;
    private final String target;
    private final boolean steerable;
    private final List<String> names;
    private final long startedNanos = System.nanoTime();
    private final long[][] closed;
    private long[][] soFar;
    /** Connection events since the load began, from the statistics intervals (the connect phase's apart). */
    private long opened;
    private long failed;
    private long closedConnections;
    private long initialOpen;
    private long initialFailed;
    private long open;
    private final Histogram[] latency;
    private final Histogram[] service;
    private final Histogram sendLag = new Histogram(1, LatencyHistograms.HIGHEST_TRACKABLE_NANOS, 2);
    private double[] targets;
    private double[] achieved;
    private String phase = "connecting";
    private final ArrayDeque<Second> history = new ArrayDeque<>();
    private long tcpRetransmits;
    private io.fluxperf.engine.metrics.TcpFigures tcpLast = io.fluxperf.engine.metrics.TcpFigures.NONE;
    private volatile Snapshot snapshot;

    /**
     * @param kind      "run" or "replay"
     * @param target    how the report names the server
     * @param steerable whether PUT /ratelimit applies (an open-loop run of generated workloads)
     */
    public LiveFigures(RunConfig config, String kind, String target, boolean steerable) {
        this.config = config;
        this.kind = kind;
        this.target = target == null ? "embedded" : target;
        this.steerable = steerable;
        this.names = labels(config.workloads());
        int n = names.size();
        closed = new long[n][COUNTS];
        soFar = new long[n][COUNTS];
        latency = histograms(n);
        service = histograms(n);
        targets = config.workloads().stream().mapToDouble(WorkloadConfig::rate).toArray();
        achieved = new double[n];
        publish();
    }

    /**
     * The workloads' names as labels, each different: a name given twice gets its index after it
     * ({@code get-1}), as Prometheus refuses two series with the same labels.
     */
    static List<String> labels(List<WorkloadConfig> workloads) {
        Set<String> seen = new HashSet<>();
        Set<String> repeated = new HashSet<>();
        for (WorkloadConfig w : workloads) {
            if (!seen.add(w.name())) {
                repeated.add(w.name());
            }
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < workloads.size(); i++) {
            String name = workloads.get(i).name();
            out.add(repeated.contains(name) ? name + "-" + i : name);
        }
        return List.copyOf(out);
    }

    /** The bytes of the histograms these figures hold, for the memory formula (docs/internals.md). */
    public long histogramBytes() {
        long bytes = sendLag.getEstimatedFootprintInBytes();
        for (int i = 0; i < latency.length; i++) {
            bytes += latency[i].getEstimatedFootprintInBytes() + service[i].getEstimatedFootprintInBytes();
        }
        return bytes;
    }

    private static Histogram[] histograms(int n) {
        Histogram[] out = new Histogram[n];
        for (int i = 0; i < n; i++) {
            out[i] = new Histogram(1, LatencyHistograms.HIGHEST_TRACKABLE_NANOS, 2);
        }
        return out;
    }

    private static double[] latencyBuckets() {
        double[] b = new double[43];
        int i = 0;
        for (int e = -6; e <= 0; e++) {
            for (String m : new String[] {"1", "1.5", "2", "3", "5", "7"}) {
                b[i++] = Double.parseDouble(m + "e" + e); // the shortest decimal: le="1.5E-6", not 1.5000000000000002E-6
            }
        }
        b[i] = 10;
        return b;
    }

    private static long[] heatBounds() {
        long[] b = new long[24];
        for (int i = 0; i < b.length; i++) {
            b[i] = 1_000L << i;
        }
        return b;
    }

    /** The latest figures; never null. */
    public Snapshot snapshot() {
        return snapshot;
    }

    /** The workloads' labels, in workload order. */
    public List<String> workloads() {
        return names;
    }

    /** Whether PUT /ratelimit applies to this run. */
    public boolean steerable() {
        return steerable;
    }

    public RunConfig config() {
        return config;
    }

    // ---- fed on the run's thread ----

    @Override
    public synchronized void connected(long openNow, long failed) {
        initialOpen = openNow;
        initialFailed = failed;
        open = openNow;
        phase = config.warmup().isZero() ? phase : "warm-up";
        publish();
    }

    @Override
    public synchronized void measuring(long nanos) {
        phase = "measuring";
        for (int i = 0; i < latency.length; i++) {
            latency[i].reset(); // the warm-up's, from the intervals before
            service[i].reset();
        }
        sendLag.reset();
        publish();
    }

    @Override
    public synchronized void interval(IntervalSample sample, AbstractHistogram all, Histogram lag, Histogram[] latencyByWorkload,
                                      Histogram[] serviceByWorkload, long[][] windowSoFar, ConnectionCounts connections,
                                      double[] rates) {
        int n = names.size();
        double seconds = sample.seconds() > 0 ? sample.seconds() : 1;
        double[] perWorkload = new double[n];
        for (int i = 0; i < n; i++) {
            perWorkload[i] = latencyByWorkload[i].getTotalCount() / seconds;
            if ("measuring".equals(phase)) {
                latency[i].add(latencyByWorkload[i]);
                service[i].add(serviceByWorkload[i]);
            }
        }
        if ("measuring".equals(phase) && lag != null) {
            sendLag.add(lag);
        }
        if (windowSoFar != null) {
            soFar = windowSoFar;
        }
        tcpRetransmits += sample.tcp().retransmits();
        if (sample.tcp().samples() > 0) {
            tcpLast = sample.tcp();
        }
        opened += sample.connectionsOpened();
        failed += sample.connectFailures();
        closedConnections += sample.connectionsClosed();
        open = sample.openConnections();
        targets = rates.clone();
        achieved = perWorkload;
        boolean timed = all.getTotalCount() > 0;
        history.addLast(new Second(sample.second(), seconds, System.currentTimeMillis(), perWorkload, rates.clone(),
                new long[] {sample.ok(), sample.miss(), sample.error(), sample.timeout(), sample.closed()},
                timed ? all.getValueAtPercentile(50) : 0, timed ? all.getValueAtPercentile(99) : 0,
                timed ? all.getValueAtPercentile(99.9) : 0, sample.openConnections(), heat(all)));
        while (history.size() > HISTORY_SECONDS) {
            history.removeFirst();
        }
        publish();
    }

    @Override
    public synchronized void window(WindowResult window) {
        for (int i = 0; i < names.size() && i < window.workloads().size(); i++) {
            WorkloadStats w = window.workloads().get(i);
            long[] c = closed[i];
            c[0] += w.outcomes().ok();
            c[1] += w.outcomes().miss();
            c[2] += w.outcomes().error();
            c[3] += w.outcomes().timeout();
            c[4] += w.outcomes().closed();
            c[SENT] += w.sent();
            c[BYTES_IN] += w.bytesReceived();
            c[BYTES_OUT] += w.bytesSent();
        }
        soFar = new long[names.size()][COUNTS];
        publish();
    }

    /** The run is over: its last figures stay readable until the endpoint closes. */
    public synchronized void ended() {
        phase = "ended";
        publish();
    }

    private static long[] heat(AbstractHistogram h) {
        long[] counts = new long[HEAT_BOUNDS_NANOS.length + 1];
        if (h.getTotalCount() == 0) {
            return counts;
        }
        for (org.HdrHistogram.HistogramIterationValue v : h.recordedValues()) {
            long value = v.getValueIteratedTo();
            int b = 0;
            while (b < HEAT_BOUNDS_NANOS.length && value > HEAT_BOUNDS_NANOS[b]) {
                b++;
            }
            counts[b] += v.getCountAtValueIteratedTo();
        }
        return counts;
    }

    private void publish() {
        int n = names.size();
        long[][] counts = new long[n][COUNTS];
        Summary[] lat = new Summary[n];
        Summary[] svc = new Summary[n];
        long[][] buckets = new long[n][];
        for (int i = 0; i < n; i++) {
            buckets[i] = buckets(latency[i]);
            for (int k = 0; k < COUNTS; k++) {
                counts[i][k] = closed[i][k] + soFar[i][k];
            }
            lat[i] = Summary.of(latency[i]);
            svc[i] = Summary.of(service[i]);
        }
        double every = config.statsInterval().isZero() ? 1 : config.statsInterval().toNanos() / 1e9;
        snapshot = new Snapshot(kind, config.protocol(), target, steerable, phase, every,
                (System.nanoTime() - startedNanos) / 1e9, names, counts, targets.clone(), achieved.clone(), lat, svc,
                Summary.of(sendLag), open, initialOpen + opened, initialFailed + failed, closedConnections,
                List.copyOf(history), new TcpNow(tcpRetransmits, tcpLast.samples(), tcpLast.lost(), tcpLast.rttP50Micros(),
                tcpLast.rttMaxMicros()), buckets);
    }

    /** {@code h}'s counts in the buckets of {@link #LATENCY_BUCKETS_SECONDS}, each value at its bucket's median. */
    private static long[] buckets(Histogram h) {
        long[] counts = new long[LATENCY_BUCKETS_SECONDS.length + 1];
        if (h.getTotalCount() == 0) {
            return counts;
        }
        int b = 0;
        for (org.HdrHistogram.HistogramIterationValue v : h.recordedValues()) {
            double seconds = h.medianEquivalentValue(v.getValueIteratedTo()) / 1e9;
            while (b < LATENCY_BUCKETS_SECONDS.length && seconds > LATENCY_BUCKETS_SECONDS[b]) {
                b++; // the values come in rising order
            }
            counts[b] += v.getCountAtValueIteratedTo();
        }
        return counts;
    }
}
