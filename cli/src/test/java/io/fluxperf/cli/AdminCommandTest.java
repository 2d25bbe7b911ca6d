package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * --admin on run and replay, as a user runs them (a process of its own): the address on stderr,
 * POST /quitquitquit ends the run as Ctrl-C does but with exit code 0 (report and files written),
 * a replay's rate cannot be set, and a bad --admin or --ramp is one sentence and exit 2.
 */
@ExtendWith(RealServers.class)
class AdminCommandTest {
    private final HttpClient http = HttpClient.newHttpClient();

    @TempDir
    Path dir;

    @Test
    void quitquitquitEndsTheRunWithItsReportAndExitCodeZero() throws Exception {
        Path out = dir.resolve("run.out");
        Path json = dir.resolve("result.json");
        Process p = CliRun.inChildJvm(out, "run", "--rate", "2000", "-d", "120", "--admin", "0", "--json", json.toString(),
                "--no-live");
        try {
            String url = awaitUrl(p, out);
            awaitMeasuring(url);
            HttpResponse<String> r = send("POST", url + "quitquitquit");
            assertEquals(200, r.statusCode(), r.body());
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the run ended after /quitquitquit");
            String text = Files.readString(out);
            assertEquals(0, p.exitValue(), text);
            assertTrue(text.contains("Stopped: asked to quit (POST /quitquitquit on the admin endpoint)"), text);
            assertTrue(text.contains("Total:"), "the report: " + text);
            JsonNode result = new ObjectMapper().readTree(json.toFile());
            assertEquals("quit", result.get("stopReason").asText());
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    void aReplaysRateCannotBeSetAndItQuitsTheSameWay(MemcachedProcess memcached) throws Exception {
        Path out = dir.resolve("replay.out");
        Path log = Path.of(System.getProperty("user.dir")).getParent().resolve("samples/logs/memcache-stream.txt");
        Process p = CliRun.inChildJvm(out, "replay", "-s", memcached.address(), "-l", log.toString(), "--speed", "max",
                "--loop", "100000000", "--admin", "0", "--no-live");
        try {
            String url = awaitUrl(p, out);
            awaitMeasuring(url);
            HttpResponse<String> put = send("PUT", url + "ratelimit/1000");
            assertEquals(409, put.statusCode(), put.body());
            assertEquals("A replay is paced by its log, so it has no rate to set.", put.body().strip());
            assertEquals(200, send("GET", url + "metrics").statusCode());
            assertEquals(200, send("POST", url + "quitquitquit").statusCode());
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the replay ended after /quitquitquit");
            assertEquals(0, p.exitValue(), Files.readString(out));
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    void aRampedRunsDirectoryMakesItsReportAgainWithTheRateLines() throws Exception {
        Path dir = this.dir.resolve("ramped");
        CliRun run = CliRun.of("run", "--ramp", "1000:2000:1000:1s", "--out", dir.toString(), "--stats-interval", "1",
                "--no-live");
        assertEquals(0, run.exitCode(), run.out() + run.err());
        assertTrue(run.out().contains("Rate: workload get now 1,000 requests/s (ramp step 1)"), run.out());
        assertTrue(run.out().contains("Rate: workload get now 2,000 requests/s (ramp step 2)"), run.out());
        assertTrue(run.out().contains("Window: 2") && !run.out().contains("Window: 3"), "one window per step: " + run.out());
        CliRun report = CliRun.of("report", dir.toString());
        assertEquals(0, report.exitCode(), report.err());
        assertEquals(run.out(), report.out(), "report DIR prints what the run printed, byte for byte");
    }

    @Test
    void aBadAdminOrRampIsOneSentence() {
        for (String[] bad : new String[][] {
            {"--admin", "http", "fluxperf: --admin: the port must be a number from 0 to 65535, not 'http'"},
            {"--admin", "1.2.3.4:99999", "fluxperf: --admin: the port must be a number from 0 to 65535, not 99999"},
            {"--ramp", "1000:2000", "fluxperf: --ramp: expected START:END:STEP:INTERVAL"},
            {"--ramp", "3000:2000:1000:1s", "fluxperf: --ramp: start (3000) is above end (2000)"},
        }) {
            CliRun run = CliRun.of("run", bad[0], bad[1], "--no-live");
            assertEquals(2, run.exitCode(), run.err());
            assertTrue(run.err().startsWith(bad[2]), run.err());
            assertEquals(1, run.err().lines().count(), run.err());
        }
        CliRun replay = CliRun.of("replay", "-l", "x.log", "--admin", "x");
        assertEquals(2, replay.exitCode(), replay.err());
        assertTrue(replay.err().contains("--admin:"), replay.err());
    }

    private String awaitUrl(Process p, Path out) throws Exception {
        return AdminChild.awaitEndpoint(p, out).group(1);
    }

    private void awaitMeasuring(String url) {
        AdminChild.awaitMeasuring(() -> {
            HttpResponse<String> r = send("GET", url + "metrics.json");
            return r.statusCode() == 200 ? r.body() : null;
        });
    }

    private HttpResponse<String> send(String method, String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
                .method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }
}
