package io.fluxperf.engine.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxperf.testkit.ExternalServer;
import io.fluxperf.testkit.FreePorts;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 46: /metrics had no latency histogram, so Prometheus could not compute a percentile over a
 * time range. A real Prometheus (Debian's package) scrapes a run's admin endpoint every second and
 * answers {@code histogram_quantile} over the last 10 s with a value within the run's own latencies.
 */
class PrometheusScrapeTest {
    private static final String QUERY =
            "histogram_quantile(0.99, sum by (le) (rate(fluxperf_request_duration_seconds_bucket[10s])))";

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void prometheusComputesAPercentileOverATimeRangeFromTheHistogram() throws Exception {
        try (AdminRun run = AdminRun.start(s -> {
            s.rate = "2000";
            s.duration = Duration.ofSeconds(60);
        })) {
            run.awaitMeasuring(60);
            // the exposition with the histogram still passes promtool, and its buckets add up
            AtomicReference<String> scraped = new AtomicReference<>();
            Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
                scraped.set(run.get("/metrics")); // a second of the measured run in the figures
                return PromText.samples(scraped.get()).get("fluxperf_request_duration_seconds_count{workload=\"get\"}") > 0;
            });
            String text = scraped.get();
            Map<String, Double> samples = PromText.samples(text);
            PromText.assertPromtoolAccepts(text);
            double inf = samples.get("fluxperf_request_duration_seconds_bucket{workload=\"get\",le=\"+Inf\"}");
            assertEquals(samples.get("fluxperf_request_duration_seconds_count{workload=\"get\"}"), inf);
            assertEquals(samples.get("fluxperf_latency_seconds_count{workload=\"get\"}"), inf, "as many as the summary");

            int port = FreePorts.tcp();
            Path config = dir.resolve("prometheus.yml");
            Files.writeString(config, """
                    global:
                      scrape_interval: 1s
                      evaluation_interval: 1s
                    scrape_configs:
                      - job_name: fluxperf
                        static_configs:
                          - targets: ["127.0.0.1:%d"]
                    """.formatted(run.endpoint.address().getPort()));
            Path log = dir.resolve("prometheus.log");
            Process prometheus = new ProcessBuilder(ExternalServer.executable("prometheus"),
                    "--config.file=" + config, "--storage.tsdb.path=" + dir.resolve("data"),
                    "--web.listen-address=127.0.0.1:" + port, "--log.level=warn")
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            try {
                String api = "http://127.0.0.1:" + port + "/api/v1/query?query=";
                AtomicReference<JsonNode> answer = new AtomicReference<>();
                // Prometheus starts, scrapes, and has two samples 10 s apart at most: waiting for that is the test
                Awaitility.await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500)).until(() -> {
                    try {
                        JsonNode r = query(api + URLEncoder.encode(QUERY, StandardCharsets.UTF_8));
                        JsonNode result = r.path("data").path("result");
                        if (result.size() == 1 && !result.get(0).get("value").get(1).asText().equals("NaN")) {
                            answer.set(result.get(0));
                            return true;
                        }
                    } catch (java.io.IOException notYet) {
                        // not listening yet
                    }
                    assertTrue(prometheus.isAlive(), "prometheus ended:\n" + Files.readString(log));
                    return false;
                });
                double p99 = Double.parseDouble(answer.get().get("value").get(1).asText());
                long at = (long) (answer.get().get("value").get(0).asDouble() * 1000);
                // the run's own seconds of that range: Prometheus' p99 lies between their p50s and p999s (a
                // bucket's interpolation may stray by its width, 1.67 times)
                double lo = Double.MAX_VALUE;
                double hi = 0;
                StringBuilder seen = new StringBuilder();
                for (JsonNode sec : new ObjectMapper().readTree(run.get("/metrics.json")).get("seconds")) {
                    long end = sec.get("unix_millis").asLong();
                    if (end > at - 12_000 && end <= at + 1_000 && sec.get("p50_seconds").asDouble() > 0) {
                        lo = Math.min(lo, sec.get("p50_seconds").asDouble());
                        hi = Math.max(hi, sec.get("p999_seconds").asDouble());
                        seen.append(String.format("%n  p50 %.6f s, p99 %.6f s, p999 %.6f s", sec.get("p50_seconds").asDouble(),
                                sec.get("p99_seconds").asDouble(), sec.get("p999_seconds").asDouble()));
                    }
                }
                System.out.printf("Prometheus: %s = %.6f s; the run's seconds of the range:%s%n", QUERY, p99, seen);
                assertTrue(hi > 0, "the run's seconds of the range: " + seen);
                assertTrue(p99 >= lo / 1.7 && p99 <= hi * 1.7, "a plausible p99: " + p99 + " s, where the seconds were:" + seen);
                JsonNode up = query(api + "up").path("data").path("result").get(0);
                assertEquals("1", up.get("value").get(1).asText(), "Prometheus scrapes the endpoint");
            } finally {
                prometheus.destroy();
                if (!prometheus.waitFor(20, TimeUnit.SECONDS)) {
                    prometheus.destroyForcibly();
                }
            }
            run.orchestrator.requestStop();
            run.awaitResult(30);
        }
    }

    private JsonNode query(String url) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        return new ObjectMapper().readTree(r.body());
    }
}
