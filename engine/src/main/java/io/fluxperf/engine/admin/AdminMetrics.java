package io.fluxperf.engine.admin;

import io.fluxperf.engine.admin.LiveFigures.Snapshot;
import io.fluxperf.engine.admin.LiveFigures.Summary;
import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.SummaryWithCallback;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.Quantile;
import io.prometheus.metrics.model.snapshots.Quantiles;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Every metric of {@code GET /metrics}, registered in one place: each is a Prometheus client
 * callback metric that reads the run's latest {@link Snapshot}, and the text is the client's own
 * writer's (one {@code # TYPE} per family). Names follow Prometheus' conventions: a
 * {@code fluxperf_} prefix, base units (seconds, bytes), {@code _total} on counters.
 *
 * <p>To add a metric, add one registration to {@link #registerAll} reading what it needs from the
 * snapshot (and add that to {@link LiveFigures.Snapshot}); docs/admin.md lists every name.
 */
public final class AdminMetrics {
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final Supplier<Snapshot> figures;
    /** The snapshot the scrape going on reads. */
    private Snapshot scraped;
    private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();

    public AdminMetrics(Supplier<Snapshot> figures) {
        this.figures = figures;
        registerAll();
    }

    /** The Prometheus text exposition (format 0.0.4) of the latest figures. */
    public synchronized byte[] text() {
        scraped = figures.get(); // one snapshot for every family of the scrape: they agree with each other
        ByteArrayOutputStream out = new ByteArrayOutputStream(8192);
        try {
            writer.write(out, registry.scrape(), EscapingScheme.ALLOW_UTF8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    public String contentType() {
        return writer.getContentType();
    }

    private void registerAll() {
        // requests and bytes, per workload
        counter("fluxperf_requests_total", "Requests ended in the measured windows, by workload and outcome.",
                List.of("workload", "outcome"), (s, out) -> {
                    for (int w = 0; w < s.workloads().size(); w++) {
                        for (int o = 0; o < LiveFigures.OUTCOMES.size(); o++) {
                            out.add(s.counts()[w][o], s.workloads().get(w), LiveFigures.OUTCOMES.get(o));
                        }
                    }
                });
        perWorkloadCounter("fluxperf_requests_sent_total", "Requests written in the measured windows.", LiveFigures.SENT);
        perWorkloadCounter("fluxperf_received_bytes_total", "Bytes of replies received in the measured windows.",
                LiveFigures.BYTES_IN);
        perWorkloadCounter("fluxperf_sent_bytes_total", "Bytes of requests written in the measured windows.",
                LiveFigures.BYTES_OUT);
        // rates
        gauge("fluxperf_target_requests_per_second", "Requests per second the workload is asked to send now (0: unlimited).",
                List.of("workload"), (s, out) -> {
                    for (int w = 0; w < s.workloads().size(); w++) {
                        out.add(s.targets()[w], s.workloads().get(w));
                    }
                });
        gauge("fluxperf_achieved_requests_per_second", "Requests per second the workload ended in the last interval.",
                List.of("workload"), (s, out) -> {
                    for (int w = 0; w < s.workloads().size(); w++) {
                        out.add(s.achieved()[w], s.workloads().get(w));
                    }
                });
        // connections
        gauge("fluxperf_connections_open", "Load connections open now.", List.of(),
                (s, out) -> out.add(s.connectionsOpen()));
        counter("fluxperf_connections_opened_total", "Load connections opened since the run began.", List.of(),
                (s, out) -> out.add(s.connectionsOpened()));
        counter("fluxperf_connections_failed_total", "Connection attempts that failed since the run began.", List.of(),
                (s, out) -> out.add(s.connectionsFailed()));
        counter("fluxperf_connections_closed_total", "Load connections closed since the run began.", List.of(),
                (s, out) -> out.add(s.connectionsClosed()));
        // latency
        perWorkloadSummary("fluxperf_latency_seconds",
                "Latency over the measured run: from the intended send time in open loop, from the write in closed loop.",
                Snapshot::latency);
        registry.register(this::latencyHistogram);
        perWorkloadSummary("fluxperf_service_time_seconds", "Service time over the measured run: from the write to the reply.",
                Snapshot::service);
        summary("fluxperf_send_lag_seconds", "How late paced requests were written after their intended time.",
                List.of(), (s, out) -> out.add(s.sendLag()));
        // TCP health, from the kernel's TCP_INFO of the load connections
        counter("fluxperf_tcp_retransmitted_segments_total",
                "Segments the kernel retransmitted on the load connections since the load began (TCP_INFO).", List.of(),
                (s, out) -> out.add(s.tcp().retransmits()));
        gauge("fluxperf_tcp_lost_segments", "Segments the kernel held as lost at once in the last interval with samples.",
                List.of(), (s, out) -> out.add(s.tcp().lost()));
        gauge("fluxperf_tcp_smoothed_rtt_p50_seconds",
                "Median of the kernel's smoothed RTT over the load connections in the last interval with samples.",
                List.of(), (s, out) -> out.add(s.tcp().rttP50Micros() / 1e6));
        gauge("fluxperf_tcp_smoothed_rtt_max_seconds",
                "Largest kernel smoothed RTT of a load connection in the last interval with samples.",
                List.of(), (s, out) -> out.add(s.tcp().rttMaxMicros() / 1e6));
        // the run itself
        gauge("fluxperf_elapsed_seconds", "Seconds since the run began.", List.of(), (s, out) -> out.add(s.elapsedSeconds()));
        gauge("fluxperf_measuring", "1 while the measured windows run, 0 before (connecting, warm-up) and after.",
                List.of(), (s, out) -> out.add("measuring".equals(s.phase()) ? 1 : 0));
    }

    /**
     * {@code fluxperf_request_duration_seconds}: the latency of the measured run in classic
     * buckets per workload, so that Prometheus computes percentiles over any range
     * ({@code histogram_quantile(0.99, rate(fluxperf_request_duration_seconds_bucket[1m]))}); the
     * summary above has quantiles of the whole run only. Classic, not native: the text format
     * carries no native histogram, and promtool checks the text.
     */
    private HistogramSnapshot latencyHistogram() {
        Snapshot s = scraped;
        HistogramSnapshot.Builder b = HistogramSnapshot.builder().name("fluxperf_request_duration_seconds")
                .help("Latency over the measured run in buckets, as fluxperf_latency_seconds: from the intended send time"
                        + " in open loop, from the write in closed loop.");
        double[] bounds = new double[LiveFigures.LATENCY_BUCKETS_SECONDS.length + 1];
        System.arraycopy(LiveFigures.LATENCY_BUCKETS_SECONDS, 0, bounds, 0, bounds.length - 1);
        bounds[bounds.length - 1] = Double.POSITIVE_INFINITY;
        for (int w = 0; w < s.workloads().size(); w++) {
            b.dataPoint(HistogramSnapshot.HistogramDataPointSnapshot.builder()
                    .classicHistogramBuckets(ClassicHistogramBuckets.of(bounds, s.latencyBuckets()[w]))
                    .sum(s.latency()[w].sumSeconds())
                    .labels(Labels.of("workload", s.workloads().get(w)))
                    .build());
        }
        return b.build();
    }

    /** Where a callback puts its values: one per label set. */
    private interface Values {
        void add(double value, String... labels);
    }

    private interface Summaries {
        void add(Summary s, String... labels);
    }

    private interface Fill<T> {
        void fill(Snapshot s, T out);
    }

    private void counter(String name, String help, List<String> labels, Fill<Values> fill) {
        CounterWithCallback.builder().name(name).help(help).labelNames(labels.toArray(String[]::new))
                .callback(cb -> fill.fill(scraped, cb::call)).register(registry);
    }

    private void perWorkloadCounter(String name, String help, int index) {
        counter(name, help, List.of("workload"), (s, out) -> {
            for (int w = 0; w < s.workloads().size(); w++) {
                out.add(s.counts()[w][index], s.workloads().get(w));
            }
        });
    }

    private void gauge(String name, String help, List<String> labels, Fill<Values> fill) {
        GaugeWithCallback.builder().name(name).help(help).labelNames(labels.toArray(String[]::new))
                .callback(cb -> fill.fill(scraped, cb::call)).register(registry);
    }

    private void summary(String name, String help, List<String> labels, Fill<Summaries> fill) {
        SummaryWithCallback.builder().name(name).help(help).labelNames(labels.toArray(String[]::new))
                .callback(cb -> fill.fill(scraped, (sum, l) -> cb.call(sum.count(), sum.sumSeconds(), quantiles(sum), l)))
                .register(registry);
    }

    private void perWorkloadSummary(String name, String help, java.util.function.Function<Snapshot, Summary[]> of) {
        summary(name, help, List.of("workload"), (s, out) -> {
            Summary[] all = of.apply(s);
            for (int w = 0; w < s.workloads().size(); w++) {
                out.add(all[w], s.workloads().get(w));
            }
        });
    }

    private static Quantiles quantiles(Summary s) {
        List<Quantile> q = new ArrayList<>();
        for (int i = 0; i < Summary.QUANTILES.length; i++) {
            q.add(new Quantile(Summary.QUANTILES[i], s.count() == 0 ? Double.NaN : s.quantiles()[i]));
        }
        return Quantiles.of(q);
    }
}
