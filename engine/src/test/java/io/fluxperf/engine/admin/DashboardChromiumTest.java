package io.fluxperf.engine.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
            Thread.sleep(2500); // a few seconds of figures to draw
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
            Thread.sleep(2500);
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

    /** The page's rate is the run's requests/s of one of its last seconds (the one the page last read). */
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
