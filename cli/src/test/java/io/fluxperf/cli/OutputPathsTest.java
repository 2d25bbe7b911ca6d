package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Output files are checked before the load: a long run never learns at its end that its result
 * cannot be written, and the message names the flag, the path and the reason in words.
 */
class OutputPathsTest {
    @TempDir
    Path dir;

    static Stream<Arguments> unwritable() {
        return Stream.of(
                Arguments.of("--json", "/proc/fluxperf/result.json"),
                Arguments.of("--hdr-log", "/proc/fluxperf/run.hlog"),
                Arguments.of("--trace", "/proc/fluxperf-trace"));
    }

    @ParameterizedTest
    @MethodSource("unwritable")
    void anOutputThatCannotBeWrittenStopsTheRunBeforeAnyRequest(String flag, String path) {
        // 50 s of load if the check came after it
        CliRun run = CliRun.of("run", "--rate", "100", "-d", "50", "--no-live", flag, path);
        assertEquals(2, run.exitCode(), run.out() + run.err());
        String message = run.err().lines().findFirst().orElse("");
        assertTrue(message.startsWith("fluxperf: " + flag + ": ") && message.contains(path.split("/")[2]),
                "names the flag and the path: " + message);
        assertTrue(message.contains("no such file or directory") || message.contains("no such directory")
                || message.contains("permission denied") || message.contains("not a directory"), "says why, in words: " + message);
        assertFalse(message.contains("java.") || message.contains("Exception"), "no Java class name: " + message);
        assertFalse(run.out().contains("Window:") || run.out().contains("Total:"), "no load was sent:\n" + run.out());
    }

    static Stream<Arguments> inAMissingDirectory() {
        return Stream.of(
                Arguments.of("--hdr-log", "run.hlog"),
                Arguments.of("--junit", "slo.xml"),
                Arguments.of("--waterfall", "latency.png"));
    }

    /** The tester's {@code --hdr-log /nonexist/dir/r.hlog} made /nonexist/dir; heatmap --out refused the same. */
    @ParameterizedTest
    @MethodSource("inAMissingDirectory")
    void aFileInAMissingDirectoryIsRefusedAndNoDirectoryMade(String flag, String name) {
        Path missing = dir.resolve("no/such");
        Path file = missing.resolve(name);
        CliRun run = CliRun.of("run", "--rate", "100", "-d", "50", "--no-live", "--slo", "p99<1s", flag, file.toString());
        assertEquals(2, run.exitCode(), run.out() + run.err());
        assertEquals("fluxperf: " + flag + ": cannot write " + file + ": no such directory " + missing, run.err().strip());
        assertFalse(Files.exists(dir.resolve("no")), "made no directory");
        assertFalse(run.out().contains("Window:") || run.out().contains("Total:"), "no load was sent:\n" + run.out());
    }

    /**
     * replay and report refuse a --junit file in a missing directory as run does (they made the
     * directory): replay before its log is read, report before it judges.
     */
    @Test
    void replayAndReportRefuseAJunitFileInAMissingDirectory() throws Exception {
        Path missing = dir.resolve("no/such");
        Path file = missing.resolve("slo.xml");
        Path log = dir.resolve("get.log");
        Files.writeString(log, "1700000000.000000 [0 127.0.0.1:50000] \"GET\" \"k\"\n");
        CliRun replay = CliRun.of("replay", "-s", "127.0.0.1:1", "-l", log.toString(), "--no-live", "--slo", "p99<1s",
                "--junit", file.toString());
        assertEquals(2, replay.exitCode(), replay.out() + replay.err());
        assertEquals("fluxperf: --junit: cannot write " + file + ": no such directory " + missing, replay.err().strip());

        Path runDir = dir.resolve("run");
        CliRun run = CliRun.of("run", "--requests", "200", "-c", "2", "--no-live", "--out", runDir.toString());
        assertEquals(0, run.exitCode(), run.out() + run.err());
        CliRun report = CliRun.of("report", runDir.toString(), "--slo", "p99<1s", "--junit", file.toString());
        assertEquals(2, report.exitCode(), report.out() + report.err());
        assertEquals("fluxperf: --junit: cannot write " + file + ": no such directory " + missing, report.err().strip());
        assertFalse(Files.exists(dir.resolve("no")), "made no directory");
    }

    @Test
    void anUnwrittenJsonFileIsNotLeftBehind() {
        Path json = dir.resolve("result.json");
        CliRun run = CliRun.of("run", "-s", "127.0.0.1:1", "-d", "1", "--no-live", "--json", json.toString());
        assertEquals(2, run.exitCode(), run.err());
        assertTrue(run.err().contains("cannot connect"), run.err());
        assertFalse(Files.exists(json), "the run wrote no result, so no empty file stays");
    }

    @Test
    void theJsonResultIsWrittenAtTheEnd() throws Exception {
        Path json = dir.resolve("sub/result.json");
        CliRun run = CliRun.of("run", "--requests", "500", "-c", "2", "--no-live", "--json", json.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(Files.readString(json).contains("\"stopReason\" : \"requests\""), Files.readString(json));
    }
}
