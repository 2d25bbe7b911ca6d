package io.fluxperf.engine.load;

import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.ConnectionCounts;
import io.fluxperf.engine.metrics.IntervalSample;
import io.fluxperf.engine.metrics.OutcomeCounts;
import io.fluxperf.engine.metrics.ServerSample;
import io.fluxperf.engine.metrics.ServerStats;
import io.fluxperf.engine.metrics.TcpHealth;
import io.fluxperf.engine.metrics.WorkloadStats;
import io.fluxperf.engine.workload.RateControl;
import io.fluxperf.trace.LatencyHistograms;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * The statistics blocks of {@code --stats-interval} (dperf's per-second lines) and the admin
 * endpoint's figures ({@link LiveFeed}), one block every interval from the load's start, the
 * warm-up's too: every workload together, the connection events, the paced requests' send lag,
 * TCP, each server's figures and, for the endpoint, each workload's latency.
 */
final class StatsBlocks implements IntervalConsumer {
    private final RunConfig config;
    private final RunListener listener;
    /** The admin endpoint's feed; null without one. */
    private final LiveFeed feed;
    private final RunErrors errors;
    private final RateControl rateControl;
    private final RunningWindow running;
    private final long everyNanos;
    private final Runnable pause;
    private final WorkloadStats all = new WorkloadStats();
    private final ConnectionCounts connections = new ConnectionCounts();
    private final TcpHealth tcp = new TcpHealth();
    private final TcpHealth intervalTcp = new TcpHealth();
    private final Histogram sendLag = LatencyHistograms.create();
    /** Each server's figures with several, else null. */
    private final ServerStats[] servers;
    /** The admin endpoint's histograms of each workload (null without it): two digits, an eighth of the report's size. */
    private final Histogram[] latencyByWorkload;
    private final Histogram[] serviceByWorkload;
    /** The blocks made so far (the result's intervals), with --stats-interval. */
    private final List<IntervalSample> samples = new ArrayList<>();
    private long loadStart;
    private long last;
    private long lastEnd;
    private long next = Long.MAX_VALUE;
    private long lastProtocolErrors;
    private long lastConnectionErrors;
    private boolean measuring;

    /**
     * @param everyNanos   how often a block is made
     * @param feed         the admin endpoint's feed; null without one
     * @param rateControl  the rates as they change; null: the configured rates
     * @param serverShapes several servers: one empty figure each (and one for requests sent to none); null with one
     */
    StatsBlocks(RunConfig config, long everyNanos, RunListener listener, LiveFeed feed, RunErrors errors,
                RateControl rateControl, RunningWindow running, List<ServerStats> serverShapes, Runnable pause) {
        this.config = config;
        this.everyNanos = everyNanos;
        this.listener = listener;
        this.feed = feed;
        this.errors = errors;
        this.rateControl = rateControl;
        this.running = running;
        this.pause = pause;
        this.servers = serverShapes == null ? null : serverShapes.stream().map(ServerStats::emptyCopy).toArray(ServerStats[]::new);
        int n = config.workloads().size();
        this.latencyByWorkload = feed != null ? adminHistograms(n) : null;
        this.serviceByWorkload = feed != null ? adminHistograms(n) : null;
    }

    /** Histograms for the admin endpoint's summaries: two significant digits (quantiles within 1 %). */
    static Histogram[] adminHistograms(int n) {
        Histogram[] out = new Histogram[n];
        for (int i = 0; i < n; i++) {
            out[i] = new Histogram(1, LatencyHistograms.HIGHEST_TRACKABLE_NANOS, 2);
        }
        return out;
    }

    /** The first block begins at {@code startNanos}, the load's start. */
    void begin(long startNanos) {
        loadStart = startNanos;
        last = startNanos;
        lastEnd = startNanos;
        next = startNanos + everyNanos;
    }

    @Override
    public void add(Interval interval) {
        long open = 0;
        intervalTcp.reset();
        for (ThreadFigures f : interval.threads()) {
            for (int i = 0; i < f.workloads.length; i++) {
                WorkloadStats w = f.workloads[i];
                all.addCounts(w);
                if (w.latency().getTotalCount() > 0) {
                    all.latency().add(w.latency());
                    all.service().add(w.service());
                    if (latencyByWorkload != null) {
                        latencyByWorkload[i].add(w.latency());
                        serviceByWorkload[i].add(w.service());
                    }
                    pause.run();
                }
            }
            open += f.connections.open();
            connections.add(f.connections);
            intervalTcp.add(f.tcp);
            if (f.sendLag.getTotalCount() > 0) {
                sendLag.add(f.sendLag);
            }
            if (servers != null && f.servers != null) {
                for (int s = 0; s < servers.length; s++) {
                    servers[s].add(f.servers[s]);
                }
            }
        }
        connections.setOpen(open);
        tcp.addLater(intervalTcp);
        lastEnd = interval.endNanos();
    }

    @Override
    public long nextDueNanos() {
        return next;
    }

    @Override
    public void due(long nowNanos) {
        emit();
        next += everyNanos;
    }

    @Override
    public void windowBegins(int window, long startNanos, long plannedEnd) {
        measuring = true;
    }

    /** The last, partial block, once every request has ended; its interval has been swapped out already. */
    void last() {
        emit();
    }

    /** The blocks made so far, with --stats-interval (none without). */
    List<IntervalSample> samples() {
        return List.copyOf(samples);
    }

    private void emit() {
        long now = lastEnd;
        double seconds = (now - last) / 1e9;
        boolean paced = sendLag.getTotalCount() > 0;
        long protocolErrors = errors.protocolErrors();
        long connectionErrors = errors.connectionErrors() + errors.connectFailures();
        OutcomeCounts o = all.outcomes();
        boolean timed = all.latency().getTotalCount() > 0;
        ConnectionCounts c = connections;
        IntervalSample sample = new IntervalSample((now - loadStart) / 1e9, seconds,
                all.sent(), o.requests(), o.ok(), o.miss(), o.error(), o.timeout(), o.closed(), c.attempts(),
                c.openedCount(), c.closedCount(), c.failures(), c.open(), all.bytesReceived(),
                all.bytesSent(), protocolErrors - lastProtocolErrors, connectionErrors - lastConnectionErrors,
                timed ? all.latency().getValueAtPercentile(50) : 0, timed ? all.latency().getValueAtPercentile(99) : 0,
                timed ? all.service().getValueAtPercentile(50) : 0, timed ? all.service().getValueAtPercentile(99) : 0,
                paced ? sendLag.getValueAtPercentile(50) : 0, paced ? sendLag.getValueAtPercentile(99) : 0,
                paced ? sendLag.getMaxValue() : 0,
                servers == null ? List.of() : ServerSample.of(Arrays.asList(servers), seconds), tcp.figures());
        lastProtocolErrors = protocolErrors;
        lastConnectionErrors = connectionErrors;
        last = now;
        if (feed != null) {
            feed.interval(sample, all.latency(), sendLag, latencyByWorkload, serviceByWorkload,
                    measuring ? running.countsSoFar() : null, measuring ? running.connectionsSoFar() : null,
                    rateControl != null ? rateControl.rates()
                            : config.workloads().stream().mapToDouble(WorkloadConfig::rate).toArray());
        }
        if (!config.statsInterval().isZero()) {
            samples.add(sample);
            listener.stats(sample);
        }
        reset();
    }

    private void reset() {
        all.reset();
        connections.reset();
        tcp.reset();
        sendLag.reset();
        if (servers != null) {
            for (ServerStats s : servers) {
                s.reset();
            }
        }
        if (latencyByWorkload != null) {
            for (int i = 0; i < latencyByWorkload.length; i++) {
                latencyByWorkload[i].reset();
                serviceByWorkload[i].reset();
            }
        }
    }

    /** Bytes of the histograms held (the memory formula's check). */
    long histogramBytes() {
        long bytes = all.latency().getEstimatedFootprintInBytes() * 2 + sendLag.getEstimatedFootprintInBytes()
                + tcp.histogramBytes() + intervalTcp.histogramBytes();
        if (servers != null) {
            for (ServerStats s : servers) {
                bytes += s.histogramBytes();
            }
        }
        if (latencyByWorkload != null) {
            for (int i = 0; i < latencyByWorkload.length; i++) {
                bytes += latencyByWorkload[i].getEstimatedFootprintInBytes() + serviceByWorkload[i].getEstimatedFootprintInBytes();
            }
        }
        return bytes;
    }
}
