package io.fluxperf.engine.admin;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The admin endpoint's dashboard ({@code GET /}) in headless Chromium during a run of 20 workloads:
 * its script polls /metrics.json and shows the run's current rate, every workload's row, and a
 * rate set through the endpoint; a screenshot is left in target/admin-dashboard.png. The page
 * loads nothing from the network.
 */
class DashboardChromiumTest {
    private static final Pattern TOTAL = Pattern.compile("id=\"total-rate\">([0-9,]+)<");
    private static final Pattern TARGET = Pattern.compile("id=\"total-target\">([0-9,]+)<");

    @TempDir
    Path tmp;

    @Test
    void showsTheRunsCurrentRateWithTwentyWorkloads() throws Exception {
        StringBuilder toml = new StringBuilder();
        for (int i = 0; i < 20; i++) {
            toml.append("[[workload]]\nname = \"w").append(i).append("\"\nmethod = \"").append(i % 2 == 0 ? "get" : "set")
                    .append("\"\nrate = 200\n\n");
        }
        Path config = tmp.resolve("twenty.toml");
        Files.writeString(config, toml);
        try (AdminRun run = AdminRun.start(s -> {
            s.config = config;
            s.duration = java.time.Duration.ofSeconds(60);
        })) {
            run.awaitMeasuring(60);
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                    .until(() -> metricsJson(run).get("seconds").size() >= 2); // a few seconds of figures to draw
            String page = run.get("/");
            assertFalse(page.matches("(?s).*(src|href)=\"https?:.*"), "the page loads nothing from the network");

            String dom = chromium("--virtual-time-budget=4000", "--dump-dom", run.endpoint.url());
            assertShownRateIsTheRuns(number(TOTAL, dom), run);
            assertEquals(4000, number(TARGET, dom), "the target on the page");
            for (int i = 0; i < 20; i++) {
                assertTrue(dom.contains("<tr><td>w" + i + "</td>"), "workload w" + i + "'s row");
            }
            assertTrue(dom.contains("measuring · run · memcache"), "the phase");

            assertEquals(200, run.call("PUT", "/ratelimit/8000").status());
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                    .until(() -> targetSum(metricsJson(run)) == 8000);
            String after = chromium("--virtual-time-budget=4000", "--dump-dom", run.endpoint.url());
            assertEquals(8000, number(TARGET, after), "the rate set shows as the target");
            assertShownRateIsTheRuns(number(TOTAL, after), run);

            Path shot = Path.of("target", "admin-dashboard.png").toAbsolutePath();
            Files.deleteIfExists(shot);
            chromium("--screenshot=" + shot, "--window-size=1400,1100", "--hide-scrollbars", "--virtual-time-budget=4000",
                    run.endpoint.url());
            assertTrue(Files.size(shot) > 20_000, "a screenshot with the charts: " + Files.size(shot) + " bytes");
            run.orchestrator.requestStop();
            run.awaitResult(30);
        }
    }

    /**
     * Issue 46: with --stats-interval 5 the outcomes chart plotted each interval's counts (five
     * times the rate), its time axis said "−2 s" for 10 s of history, the header's p99 (of the
     * last interval) and the table's (of the run) had one label, and the ticks were not round.
     */
    @Test
    void atAStatsIntervalOfFiveSecondsThePageShowsPerSecondRatesAndTheRightHistory() throws Exception {
        try (AdminRun run = AdminRun.start(s -> {
            s.rate = "2000";
            s.duration = java.time.Duration.ofSeconds(60);
            s.statsInterval = java.time.Duration.ofSeconds(5);
        })) {
            run.awaitMeasuring(60);
            // two intervals of history, 10 s (where the axis said "-2 s")
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                    .until(() -> metricsJson(run).get("seconds").size() >= 2);
            String dom = chromium("--virtual-time-budget=3000", "--dump-dom", run.endpoint.url());

            // outcomes per second: the misses (a get of keys never set) at the rate, not at five times it
            double misses = number(Pattern.compile("data-series=\"miss\"><i[^>]*></i>miss <b>([0-9,]+)/s</b>"), dom);
            assertEquals(2000, misses, 2000 * 0.1, "the outcomes legend shows misses per second");
            List<Double> outcomeTicks = numbers(ticks(dom, "outcomes", "ytick"));
            assertRound(outcomeTicks, "the outcomes chart's y ticks");
            double top = outcomeTicks.get(outcomeTicks.size() - 1);
            assertTrue(top >= 2000 && top <= 4000, "the outcomes axis fits per-second rates: " + outcomeTicks);
            assertRound(numbers(ticks(dom, "rates", "ytick")), "the requests/s chart's y ticks");

            // the time axis spans the history: two intervals of 5 s or more, as the titles say
            double span = number(Pattern.compile("id=\"outcomes-span\">\\(last ([0-9]+) s, one point per 5 s\\)<"), dom);
            assertTrue(span >= 10 && Math.abs(span / 5 - Math.rint(span / 5)) < 0.25, "the history's span: " + span);
            List<String> times = ticks(dom, "outcomes", "xtick");
            assertEquals("now", times.get(0), "the newest tick: " + times);
            double oldest = Double.parseDouble(times.get(times.size() - 1).replace("−", "").replace(" s", ""));
            assertTrue(oldest > span - 5 && oldest <= span, "the oldest time tick of " + span + " s of history: " + times);

            // latency on a log axis with round ticks: powers of ten (and 2 and 5 between on a short one)
            for (String t : ticks(dom, "latency", "ytick")) {
                assertTrue(t.matches("[125]0{0,2} (ns|µs|ms|s)"), "a round latency tick: " + t + " of " + ticks(dom, "latency", "ytick"));
            }
            for (String t : ticks(dom, "heatmap", "ytick")) {
                assertTrue(t.matches("[125]0{0,2} (ns|µs|ms|s)"), "a round heatmap tick: " + t);
            }

            // the two p99s say which is which
            assertTrue(dom.contains("id=\"p99-label\">p99 of the last 5 s<"), "the header's p99 label");
            assertTrue(dom.contains("<th>p99 over the run</th>"), "the table's p99 label");

            Path shot = Path.of("target", "admin-dashboard-5s.png").toAbsolutePath();
            Files.deleteIfExists(shot);
            chromium("--screenshot=" + shot, "--window-size=1400,1100", "--hide-scrollbars", "--virtual-time-budget=3000",
                    run.endpoint.url());
            assertTrue(Files.size(shot) > 20_000, "a screenshot with the charts: " + Files.size(shot) + " bytes");
            run.orchestrator.requestStop();
            run.awaitResult(30);
        }
    }

    /** The text of the ticks of one axis ({@code xtick}, {@code ytick}) of the chart {@code id}, as the page shows them. */
    private static List<String> ticks(String dom, String id, String axis) {
        int at = dom.indexOf("id=\"" + id + "\"");
        assertTrue(at >= 0, "no chart " + id);
        String chart = dom.substring(at, dom.indexOf("</svg>", at));
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("<text class=\"tick " + axis + "\"[^>]*>([^<]+)</text>").matcher(chart);
        while (m.find()) {
            out.add(m.group(1));
        }
        assertTrue(out.size() >= 2, "ticks of " + id + ": " + chart.substring(0, Math.min(chart.length(), 2000)));
        return out;
    }

    private static List<Double> numbers(List<String> ticks) {
        return ticks.stream().map(t -> Double.parseDouble(t.replace(",", ""))).toList();
    }

    /** Ticks from 0 by one step of 1, 2 or 5 times a power of ten. */
    private static void assertRound(List<Double> ticks, String what) {
        assertEquals(0, ticks.get(0), what + ": " + ticks);
        double step = ticks.get(1) - ticks.get(0);
        double mantissa = step / Math.pow(10, Math.floor(Math.log10(step)));
        assertTrue(Math.abs(mantissa - 1) < 1e-9 || Math.abs(mantissa - 2) < 1e-9 || Math.abs(mantissa - 5) < 1e-9,
                what + " step by 1, 2 or 5 times a power of ten: " + ticks);
        for (int i = 0; i < ticks.size(); i++) {
            assertEquals(i * step, ticks.get(i), 1e-9, what + ": " + ticks);
        }
    }

    /** The page's rate is the run's requests/s of one of its last seconds (the one the page last read). */
    /** The workloads' targets added up: the run's rate the page shows. */
    private static double targetSum(com.fasterxml.jackson.databind.JsonNode json) {
        double sum = 0;
        for (com.fasterxml.jackson.databind.JsonNode w : json.get("workloads")) {
            sum += w.get("target_requests_per_second").asDouble();
        }
        return Math.round(sum);
    }

    private static com.fasterxml.jackson.databind.JsonNode metricsJson(AdminRun run) throws Exception {
        return new com.fasterxml.jackson.databind.ObjectMapper().readTree(run.get("/metrics.json"));
    }

    private static void assertShownRateIsTheRuns(double shown, AdminRun run) throws Exception {
        com.fasterxml.jackson.databind.JsonNode json = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(run.get("/metrics.json"));
        List<Long> seconds = new ArrayList<>();
        for (com.fasterxml.jackson.databind.JsonNode sec : json.get("seconds")) {
            double sum = 0;
            for (com.fasterxml.jackson.databind.JsonNode r : sec.get("rates")) {
                sum += r.asDouble();
            }
            seconds.add(Math.round(sum));
        }
        List<Long> recent = seconds.subList(Math.max(0, seconds.size() - 8), seconds.size());
        assertTrue(recent.contains(Math.round(shown)), "the page shows " + shown + "/s; the run's last seconds: " + recent);
    }

    private static double number(Pattern p, String dom) {
        Matcher m = p.matcher(dom);
        assertTrue(m.find(), p + " in:\n" + dom.substring(0, Math.min(dom.length(), 3000)));
        return Double.parseDouble(m.group(1).replace(",", ""));
    }

    private String chromium(String... args) throws IOException, InterruptedException {
        String exe = io.fluxperf.testkit.ExternalServer.executable("chromium");
        List<String> cmd = new ArrayList<>(List.of(exe, "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--user-data-dir=" + tmp.resolve("profile")));
        cmd.addAll(List.of(args));
        Path log = Files.createTempFile(tmp, "chromium", ".log");
        Process p = new ProcessBuilder(cmd).redirectError(log.toFile()).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("chromium did not finish in 90 s");
        }
        return new String(out, StandardCharsets.UTF_8);
    }
}
