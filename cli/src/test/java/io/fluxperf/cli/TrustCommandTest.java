package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * How far a run trusts itself, shown on real processes: fluxperf stopped by SIGSTOP names a client
 * pause of that length; memcached stopped instead is the server's stall, not the client's; a
 * fluxperf pinned to a CPU that a busy process shares is client-limited; the latency floor lies
 * below the service time of a slow run.
 */
@ExtendWith(RealServers.class)
class TrustCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** A child JVM on a busy machine may take this long to start and warm up. */
    private static final long START_MILLIS = 120_000;

    @TempDir
    Path dir;

    /** Stops {@code pid} for 200 ms from a process of its own: returns {when it stopped (epoch ms), how long (ns)}. */
    private static long[] stop(long pid) throws Exception {
        Process stopper = new ProcessBuilder("/usr/bin/python3", "-c",
                "import os,sys,time,signal\np=int(sys.argv[1])\nw=time.time()\nt=time.monotonic()\n"
                        + "os.kill(p,signal.SIGSTOP)\ntime.sleep(0.2)\nos.kill(p,signal.SIGCONT)\n"
                        + "print(round(w*1000), round((time.monotonic()-t)*1e9))", Long.toString(pid)).start();
        assertTrue(stopper.waitFor(30, TimeUnit.SECONDS));
        String[] out = new String(stopper.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim().split(" ");
        return new long[] {Long.parseLong(out[0]), Long.parseLong(out[1])};
    }

    private static JsonNode result(Path runDir) throws IOException {
        return JSON.readTree(runDir.resolve("result.json").toFile());
    }

    /**
     * Waits for the live line of the window's second 2 or later: mid-run, two of the three seconds
     * measured. A loaded machine may skip the "2 s" line itself; a later one then ends the wait at
     * once instead of after {@link #START_MILLIS}.
     */
    private static void awaitSecondTwo(Path output) throws java.io.IOException {
        java.util.regex.Pattern live = java.util.regex.Pattern.compile("\\[window 1/1 ([2-9]|\\d\\d+) s.*");
        try {
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofMillis(START_MILLIS))
                    .pollInterval(java.time.Duration.ofMillis(50))
                    .until(() -> Files.readAllLines(output).stream().anyMatch(l -> live.matcher(l).matches()));
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError("no live line of second 2 or later:\n" + Files.readString(output));
        }
    }

    private static String trustLine(String text) {
        List<String> lines = text.lines().filter(l -> l.startsWith("Trust: ")).toList();
        assertEquals(1, lines.size(), text);
        return lines.get(0);
    }

    @Test
    @Tag("timing")
    void theClientStoppedIsAClientPauseOfThatLength(MemcachedProcess memcached) throws Exception {
        Path output = dir.resolve("client.out");
        Path runDir = dir.resolve("client-run");
        Process run = CliRun.inChildJvm(output, "run", "-s", memcached.address(), "--rate", "5000", "-d", "3",
                "--out", runDir.toString());
        awaitSecondTwo(output); // mid-run: two of the three seconds measured
        long[] stopped = stop(run.pid());
        assertTrue(run.waitFor(60, TimeUnit.SECONDS));
        String text = Files.readString(output);
        assertEquals(0, run.exitValue(), text);
        JsonNode pauses = result(runDir).path("trust").path("pauses");
        JsonNode named = null;
        for (JsonNode p : pauses) {
            if (Math.abs(p.path("startEpochMs").asLong() - stopped[0]) < 100) {
                named = p;
            }
        }
        assertTrue(named != null, "no pause at " + stopped[0] + " ms: " + pauses + "\n" + text);
        assertEquals("stopped", named.path("cause").asText(), named.toString());
        assertEquals(stopped[1], named.path("durationNanos").asLong(), 20_000_000, "stopped for " + stopped[1] + " ns");
        String line = text.lines().filter(l -> l.startsWith("Client pauses: ") && !l.startsWith("Client pauses: 0"))
                .findFirst().orElseThrow(() -> new AssertionError(text));
        assertTrue(line.matches("Client pauses: \\d+, longest \\d+ ms at \\d+\\.\\d\\d s \\(GC \\d+, run queue \\d+, stopped [1-9]\\d*\\)"),
                line);
        assertTrue(trustLine(text).contains("client paused"), text);
        // the run directory makes the same report again (invariant 8), its pause lines too
        assertEquals(Files.readString(runDir.resolve("report.txt")), CliRun.of("report", runDir.toString()).out());
    }

    @Test
    @Tag("timing")
    void theServerStoppedIsNoClientPause(MemcachedProcess memcached) throws Exception {
        Path output = dir.resolve("server.out");
        Path runDir = dir.resolve("server-run");
        Process run = CliRun.inChildJvm(output, "run", "-s", memcached.address(), "--rate", "5000", "-d", "3",
                "--warmup", "1", "--out", runDir.toString());
        awaitSecondTwo(output);
        long[] stopped = stop(memcached.pid());
        assertTrue(run.waitFor(60, TimeUnit.SECONDS));
        String text = Files.readString(output);
        assertEquals(0, run.exitValue(), text);
        JsonNode r = result(runDir);
        // Service and Latency show the stall
        assertTrue(r.path("total").path("service").path("max").asLong() >= 150_000_000, text);
        assertTrue(r.path("total").path("latency").path("max").asLong() >= 150_000_000, text);
        JsonNode trust = r.path("trust");
        long from = stopped[0] - 20;
        long to = stopped[0] + stopped[1] / 1_000_000 + 20;
        for (JsonNode p : trust.path("pauses")) {
            long start = p.path("startEpochMs").asLong();
            long end = start + p.path("durationNanos").asLong() / 1_000_000;
            boolean overlaps = start < to && end > from;
            assertFalse(overlaps && !p.path("cause").asText().equals("run queue"),
                    "the server's stall named as the client's: " + p + "\n" + text);
        }
        for (JsonNode w : trust.path("windows")) {
            for (JsonNode l : w.path("clientLimited")) {
                assertFalse(l.asText().equals("send lag"), "the requests waited for the server, not the client\n" + text);
            }
        }
        // the verdict is good; on a machine busy with other work the run queue may also have held the client, and
        // then only that may be named. A pause away from the server's stop may also be the machine's own: a
        // virtual machine's CPU taken by its host stops every thread of the guest, and reads as "stopped"
        String verdict = trust.path("verdict").asText();
        if (!verdict.equals("good")) {
            assertTrue(Set.of("client-limited", "client paused").containsAll(
                    JSON.convertValue(trust.path("flags"), List.class)), text);
        }
        assertEquals("Trust: " + verdict, trustLine(text));
    }

    @Test
    @Tag("timing")
    void aClientShortOfCpuIsClientLimited() throws Exception {
        Path output = dir.resolve("starved.out");
        // two seconds: the busy process holds half the CPU for all of them (the run queue's share of a window does
        // not grow with its length), and HotSpot's clean-up safepoints came once a second
        Process run = CliRun.inChildJvm(output, List.of("taskset", "-c", "0"), List.of(), "run", "--rate", "10000",
                "-d", "2", "--no-live");
        // the busy process takes half of the child's CPU from its config echo on, before anything is sent: the
        // run is starved, and the JVM's start, which the verdict does not judge, is not (it took twice as long)
        Process spinner = null;
        try {
            InterruptTest.awaitLine(output, "Workload 0: ", START_MILLIS);
            spinner = new ProcessBuilder("taskset", "-c", "0", "sh", "-c", "while :; do :; done").start();
            assertTrue(run.waitFor(START_MILLIS, TimeUnit.MILLISECONDS), Files.readString(output));
            String text = Files.readString(output);
            assertEquals(0, run.exitValue(), text);
            assertTrue(trustLine(text).contains("client-limited"), text);
            // the run's thread at nice 19 waits for the CPU too: a safepoint that waited for it stopped the whole
            // process (the launcher's options turn the once-a-second clean-up safepoint off, as CliRun's child has them)
            assertFalse(java.util.regex.Pattern.compile("Client pauses: .*stopped [1-9]").matcher(text).find(),
                    "the process stood still:\n" + text);
        } finally {
            run.destroyForcibly();
            if (spinner != null) {
                spinner.destroyForcibly();
                spinner.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void theFloorIsAtOrBelowTheServiceTimeOfASlowRun(MemcachedProcess memcached) throws Exception {
        Path json = dir.resolve("slow.json");
        // the floor is probed before the load; one second at 500/s gives the service p50 of 500 requests
        CliRun run = CliRun.of("run", "-s", memcached.address(), "--rate", "500", "-d", "1", "--no-live", "--json",
                json.toString());
        assertEquals(0, run.exitCode(), run.out() + run.err());
        JsonNode r = JSON.readTree(json.toFile());
        JsonNode floor = r.path("trust").path("floor");
        assertTrue(floor.path("measured").asBoolean(), floor.toString());
        assertEquals("version", floor.path("noOp").asText());
        long servicePerc50 = r.path("total").path("service").path("p50").asLong();
        assertTrue(floor.path("p50").asLong() <= servicePerc50, "floor " + floor + ", service p50 " + servicePerc50);
        assertTrue(run.line("Config: Floor: p50 ").endsWith("(idle round trip: 300 x version)"), run.out());
    }
}
