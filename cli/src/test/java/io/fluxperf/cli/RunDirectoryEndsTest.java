package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import io.fluxperf.trace.TraceReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run directory is complete however the run ends: Ctrl-C, an error, or a replay's log running out.
 * Not a timing test: what it checks are counts that agree between the directory's files and reports
 * made again byte for byte, whatever the machine's load did to the run.
 */
@ExtendWith(RealServers.class)
class RunDirectoryEndsTest {
    @TempDir
    Path tmp;

    @Test
    void ctrlCLeavesACompleteDirectory(MemcachedProcess memcached) throws Exception {
        Path output = tmp.resolve("run.out");
        Path dir = tmp.resolve("run");
        Process run = CliRun.inChildJvm(output, "run", "-s", memcached.address(), "--rate", "2000", "-c", "4", "-d", "60",
                "--out", dir.toString(), "--trace");
        InterruptTest.awaitLine(output, "[window 1/1 ", 20_000);
        new ProcessBuilder("kill", "-INT", Long.toString(run.pid())).start().waitFor();
        assertTrue(run.waitFor(20, TimeUnit.SECONDS), "the run ends after Ctrl-C");
        String printed = Files.readString(output);
        assertEquals(130, run.exitValue(), printed);

        JsonNode result = new ObjectMapper().readTree(dir.resolve("result.json").toFile());
        assertEquals("interrupted", result.path("stopReason").asText());
        long requests = result.path("total").path("requests").asLong();
        assertTrue(requests > 1000, "more than a second at 2000/s: " + requests);
        String reportTxt = Files.readString(dir.resolve("report.txt"), StandardCharsets.UTF_8);
        assertTrue(reportTxt.contains("Stopped: interrupted"), reportTxt);
        for (String line : reportTxt.lines().toList()) {
            assertTrue(printed.contains(line), "printed: " + line);
        }
        CliRun report = CliRun.of("report", dir.toString());
        assertEquals(0, report.exitCode(), report.err());
        assertEquals(reportTxt, report.out());
        Map<String, Long> windows = RunDirectoryTest.tagCounts(dir.resolve("windows.hlog").toFile());
        Map<String, Long> seconds = RunDirectoryTest.tagCounts(dir.resolve("seconds.hlog").toFile());
        assertEquals(requests, windows.get(""));
        assertEquals(requests, seconds.get(""));
        try (TraceReader trace = TraceReader.open(dir.resolve("trace"))) {
            assertTrue(trace.closedCleanly());
        }
        assertTrue(Files.exists(dir.resolve("config.toml")) && Files.exists(dir.resolve("environment.json")));
    }

    @Test
    void aRunThatFailsLeavesWhatRanAndWhy() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        Path dir = tmp.resolve("failed");
        CliRun run = CliRun.of("run", "-s", "127.0.0.1:" + closedPort, "-d", "1", "--out", dir.toString(), "--no-live");
        assertEquals(2, run.exitCode(), run.out() + run.err());
        JsonNode result = new ObjectMapper().readTree(dir.resolve("result.json").toFile());
        assertEquals("failed", result.path("stopReason").asText());
        assertTrue(run.err().contains(result.path("error").asText()), run.err() + " / " + result.path("error"));
        assertEquals(run.out(), Files.readString(dir.resolve("report.txt")));
        CliRun report = CliRun.of("report", dir.toString());
        assertEquals(0, report.exitCode(), report.err());
        assertEquals(run.out(), report.out());
    }

    @Test
    void aPoolRunsReportIsMadeAgainWithEachServer(MemcachedProcess memcached) throws Exception {
        try (MemcachedProcess second = MemcachedProcess.start()) {
            Path dir = tmp.resolve("pool");
            CliRun run = CliRun.of("run", "-s", memcached.address(), "-s", second.address(), "--method", "set", "-d", "600ms",
                    "-w", "2", "--stats-interval", "500ms",
                    "--out", dir.toString(), "--no-live");
            assertEquals(0, run.exitCode(), run.out() + run.err());
            assertEquals(run.out(), Files.readString(dir.resolve("report.txt")));
            assertTrue(run.out().contains("Server " + second.address()), run.out());
            CliRun report = CliRun.of("report", dir.toString());
            assertEquals(0, report.exitCode(), report.err());
            assertEquals(run.out(), report.out(), "each server's line made again too");
            assertEquals(Files.readString(dir.resolve("result.json")), CliRun.of("report", dir.toString(), "--json").out());
        }
    }

    @Test
    void replayWritesItsDirectory(MemcachedProcess memcached) throws Exception {
        Path dir = tmp.resolve("replay");
        Path log = Path.of("..", "samples", "logs", "memcache-watch.log");
        CliRun replay = CliRun.of("replay", "-s", memcached.address(), "-l", log.toString(), "--speed", "max",
                "--out", dir.toString(), "--trace", "--no-live");
        assertEquals(0, replay.exitCode(), replay.out() + replay.err());
        assertEquals(replay.out(), Files.readString(dir.resolve("report.txt"), StandardCharsets.UTF_8));
        JsonNode result = new ObjectMapper().readTree(dir.resolve("result.json").toFile());
        assertEquals(1, result.path("format").asInt());
        assertEquals("replay", result.path("command").asText());
        assertTrue(result.has("replay"), "the replay's fidelity block is kept");
        long requests = result.path("total").path("requests").asLong();
        assertTrue(requests > 0);
        assertEquals(requests, RunDirectoryTest.tagCounts(dir.resolve("windows.hlog").toFile()).get(""));
        try (TraceReader trace = TraceReader.open(dir.resolve("trace"))) {
            assertTrue(trace.closedCleanly());
        }
        CliRun json = CliRun.of("report", dir.toString(), "--json");
        assertEquals(Files.readString(dir.resolve("result.json")), json.out());
        CliRun text = CliRun.of("report", dir.toString());
        assertEquals(0, text.exitCode(), text.err());
        assertEquals(replay.out(), text.out());
        Files.delete(dir.resolve("report.txt"));
        CliRun missing = CliRun.of("report", dir.toString());
        assertEquals(2, missing.exitCode());
        RunDirectoryTest.assertOneSentence(missing.err(), "report.txt");
        assertFalse(missing.err().contains("Exception"));
    }
}
