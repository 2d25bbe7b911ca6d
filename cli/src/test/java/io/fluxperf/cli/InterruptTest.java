package io.fluxperf.cli;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import io.fluxperf.trace.TraceReader;
import io.fluxperf.trace.TraceRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Ctrl-C and SIGTERM stop a run gracefully: the report of what ran, a closed trace, exit 130 / 143. */
@ExtendWith(RealServers.class)
class InterruptTest {
    @TempDir
    Path dir;

    static void awaitLine(Path output, String prefix, long timeoutMillis) throws IOException {
        try {
            await().atMost(Duration.ofMillis(timeoutMillis)).pollInterval(Duration.ofMillis(50))
                    .until(() -> Files.readAllLines(output, StandardCharsets.UTF_8).stream().anyMatch(l -> l.startsWith(prefix)));
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("no line '" + prefix + "' within " + timeoutMillis + " ms:\n" + Files.readString(output));
        }
    }

    /** The gets and sets memcached has answered. */
    private static long served(MemcachedProcess memcached) {
        return memcached.stats().get("cmd_get") + memcached.stats().get("cmd_set");
    }

    /** Waits until memcached has served {@code n} more commands than {@code before}: the load is under way. */
    private static void awaitServed(MemcachedProcess memcached, long before, long n, Path output) throws IOException {
        try {
            // a child JVM on a busy machine may take many seconds to start
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
                    .until(() -> served(memcached) - before >= n);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("memcached did not serve " + n + " commands within 60 s:\n" + Files.readString(output));
        }
    }

    private void stopsGracefully(MemcachedProcess memcached, String signal, int expectedExit, String stopLine)
            throws Exception {
        Path output = dir.resolve(signal + ".out");
        Path trace = dir.resolve(signal + "-trace");
        long before = served(memcached);
        Process run = CliRun.inChildJvm(output, "run", "-s", memcached.address(), "--rate", "2000", "-c", "4", "-d", "60",
                "--trace", trace.toString());
        awaitServed(memcached, before, 2000, output);
        new ProcessBuilder("kill", "-" + signal, Long.toString(run.pid())).start().waitFor();
        assertTrue(run.waitFor(20, TimeUnit.SECONDS), "the run ends within the timeout after the signal");
        String text = Files.readString(output);
        assertEquals(expectedExit, run.exitValue(), text);
        assertTrue(text.contains(stopLine), text);
        assertTrue(text.contains("Total:"), text);
        assertFalse(text.contains("Exception"), text);
        long requests = text.lines().dropWhile(l -> !l.equals("Total:")).filter(l -> l.startsWith("Requests:"))
                .map(l -> CliRun.field(l, "Requests:")).findFirst().orElseThrow();
        assertTrue(requests > 1000, text);
        long records = 0;
        try (TraceReader reader = TraceReader.open(trace)) {
            TraceRecord r = new TraceRecord();
            while (reader.next(r)) {
                records++;
            }
            assertTrue(reader.closedCleanly(), "the trace was closed cleanly");
        }
        assertEquals(requests, records);
    }

    /** A shell's background job ignores SIGINT and its children inherit that: the JVM then never sees Ctrl-C. */
    private static boolean sigintIgnoredHere() throws IOException {
        Path status = Path.of("/proc/self/status");
        if (!Files.isReadable(status)) {
            return false;
        }
        String mask = Files.readAllLines(status).stream().filter(l -> l.startsWith("SigIgn:")).map(l -> l.substring(7).trim())
                .findFirst().orElse("0");
        return (Long.parseUnsignedLong(mask, 16) & (1L << 1)) != 0;
    }

    @Test
    void ctrlCPrintsTheReportAndExits130(MemcachedProcess memcached) throws Exception {
        assertFalse(sigintIgnoredHere(), "this test JVM was started with SIGINT ignored (a background job of a shell "
                + "without job control), so no child can receive Ctrl-C: run the suite in the foreground");
        stopsGracefully(memcached, "INT", 130, "Stopped: interrupted (Ctrl-C); the report covers what ran");
    }

    /** SIGTERM is named as such, not as Ctrl-C (issue 46). */
    @Test
    void sigtermPrintsTheReportAndExits143(MemcachedProcess memcached) throws Exception {
        stopsGracefully(memcached, "TERM", 143, "Stopped: terminated (SIGTERM); the report covers what ran");
    }

    /**
     * A replay stopped by SIGTERM (issue 46): its report names the signal, and the commands it says
     * it replayed are those it sent, which the report's requests and memcached count too, not those
     * its reader had dealt ahead.
     */
    @Test
    void aReplayStoppedBySigtermCountsWhatItSent(MemcachedProcess memcached) throws Exception {
        Path log = dir.resolve("stream.txt");
        StringBuilder stream = new StringBuilder();
        for (int i = 0; i < 200_000; i++) {
            stream.append(i % 5 == 0 ? "set k" + i % 5000 + " 0 0 3\r\nabc\r\n" : "get k" + i % 5000 + "\r\n");
        }
        Files.writeString(log, stream, StandardCharsets.ISO_8859_1);
        Path output = dir.resolve("replay.out");
        long before = served(memcached);
        Process replay = CliRun.inChildJvm(output, "replay", "-s", memcached.address(), "-l", log.toString(),
                "--format", "memcache-ascii", "--rate-cap", "3000", "--no-live");
        awaitServed(memcached, before, 3000, output);
        new ProcessBuilder("kill", "-TERM", Long.toString(replay.pid())).start().waitFor();
        assertTrue(replay.waitFor(20, TimeUnit.SECONDS), "the replay ends within the timeout after the signal");
        String text = Files.readString(output);
        assertEquals(143, replay.exitValue(), text);
        assertTrue(text.contains("Stopped: terminated (SIGTERM); the report covers what ran"), text);
        long requests = text.lines().filter(l -> l.startsWith("Requests:")).map(l -> CliRun.field(l, "Requests:"))
                .reduce((a, b) -> b).orElseThrow();
        String lines = text.lines().filter(l -> l.startsWith("Lines:")).findFirst().orElseThrow();
        assertEquals(requests, CliRun.field(lines, "replayed"), lines + "\n" + text);
        assertEquals(requests, served(memcached) - before, "memcached served what the report counts:\n" + text);
        assertTrue(requests < 150_000, "stopped early: " + lines);
    }
}
