package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code run} tells a person while it runs and when it is done (issue 46): the live line says
 * how far the run has gone, with its p99 in a unit a person reads; the total ends with a summary in
 * such units beside rpc-perf's ns lines; and {@code --out} says where the run directory is.
 */
class RunProgressTest {
    @TempDir
    Path tmp;

    @Test
    void theLiveLineTheSummaryAndTheRunDirectorysPlace() throws Exception {
        Path dir = tmp.resolve("runs").resolve("a");
        CliRun run = CliRun.of("run", "--rate", "500", "-c", "2", "-d", "2", "-w", "2", "--out", dir.toString());
        assertEquals(0, run.exitCode(), run.out() + run.err());

        // a line about a second into each window (how many come depends on the machine's load)
        List<String> live = run.err().lines().filter(l -> l.startsWith("[window ")).toList();
        assertTrue(live.stream().anyMatch(l -> l.startsWith("[window 1/2 ")), run.err());
        for (String l : live) {
            assertTrue(l.matches("\\[window [12]/2 [0-4] s of 4 s] [0-9,]+ rps, errors 0, p99 so far [0-9.]+ (ns|us|ms|s)"), l);
        }

        String total = run.out().substring(run.out().indexOf("\nTotal:\n"));
        assertTrue(total.lines().anyMatch(l -> l.matches("Percentiles: p50: [0-9]+ ns p90: [0-9]+ ns p99: [0-9]+ ns p999: [0-9]+ ns p9999: [0-9]+ ns")),
                "rpc-perf's ns lines stay: " + total);
        assertTrue(total.lines().anyMatch(l -> l.matches("Summary: [0-9,]+ requests/s, success 100\\.00 %, latency p50 [0-9.]+ (ns|us|ms),"
                + " p99 [0-9.]+ (ns|us|ms|s), p999 [0-9.]+ (ns|us|ms|s), max [0-9.]+ (ns|us|ms|s)")), total);

        String where = "fluxperf: run directory " + dir.toAbsolutePath() + " ('fluxperf report " + dir
                + "' prints this report again)";
        assertTrue(run.err().lines().anyMatch(where::equals), where + "\n" + run.err());
        assertFalse(run.out().contains("run directory"), "stdout stays the report, as report.txt holds it");
        assertEquals(run.out(), Files.readString(dir.resolve("report.txt"), StandardCharsets.UTF_8));
        CliRun report = CliRun.of("report", dir.toString());
        assertEquals(run.out(), report.out(), "report DIR prints the Summary line again, byte for byte");
    }
}
