package io.fluxperf.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * bench/lib/cpu_stalls.py, which compare.sh runs on the client's CPU before a fixed-rate
 * workload: its lines, and that it finds the gaps a second process on the same CPU makes, and
 * the send lag they would give an ideal paced client.
 */
@Tag("timing")
class CpuStallsScriptTest {
    private static final Pattern LINE = Pattern.compile("stalls of a spinning thread: ([0-9.]+) % of the time in gaps of 10 us or more; "
            + "([0-9]+) gaps/s of 100 us or more, ([0-9.]+)/s of 1 ms or more; longest ([0-9.]+) ms");

    private static Path script() {
        return RepoFiles.find("bench/lib/cpu_stalls.py");
    }

    private static boolean onPath(String program) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }

    private static final Pattern IDEAL = Pattern.compile("an ideal client at 1000/s needing 1 us per request \\(0\\.00 of this CPU\\): send lag p99 ([0-9]+) us");

    /**
     * Runs the script pinned to CPU {@code cpu}, with an ideal client at 1,000/s needing 1 µs per
     * request, and returns its figures: lost %, gaps/s ≥ 100 µs, gaps/s ≥ 1 ms, longest ms, and
     * that client's send lag p99 in µs.
     */
    private static double[] stalls(int cpu, double seconds) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("taskset", "-c", Integer.toString(cpu), "python3", script().toString(),
                Double.toString(seconds), "1000", "1").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the script ends");
        assertEquals(0, p.exitValue(), out);
        String[] lines = out.split("\n");
        assertEquals(2, lines.length, "two lines: " + out);
        Matcher m = LINE.matcher(lines[0]);
        assertTrue(m.matches(), "the stalls: " + lines[0]);
        Matcher ideal = IDEAL.matcher(lines[1]);
        assertTrue(ideal.matches(), "the ideal client: " + lines[1]);
        return new double[] {Double.parseDouble(m.group(1)), Double.parseDouble(m.group(2)),
                Double.parseDouble(m.group(3)), Double.parseDouble(m.group(4)), Double.parseDouble(ideal.group(1))};
    }

    @Test
    void aQuietCpuLosesLittle() throws Exception {
        assumeTrue(onPath("python3") && onPath("taskset"), "python3 and taskset");
        double[] s = stalls(0, 0.5);
        assertTrue(s[0] >= 0 && s[0] < 50, "share of the time lost: " + s[0] + " %");
        assertTrue(s[3] < 500, "longest gap " + s[3] + " ms");
        // 'longest' counts gaps of 10 µs or more; a request may also wait out a shorter one
        assertTrue(s[4] <= Math.max(s[3] * 1000, 10) + 1, "no request waits longer than the longest gap: " + s[4] + " µs");
    }

    /** A process that spins on the same CPU takes about half of it, in scheduler slices of milliseconds. */
    @Test
    void aSecondSpinnerOnTheSameCpuShowsAsGaps() throws Exception {
        assumeTrue(onPath("python3") && onPath("taskset"), "python3 and taskset");
        Process spinner = new ProcessBuilder(List.of("taskset", "-c", "0", "sh", "-c", "while :; do :; done")).start();
        try {
            double[] s = stalls(0, 1.0);
            assertTrue(s[0] > 25 && s[0] <= 100, "share of the time lost to the other spinner: " + s[0] + " %");
            assertTrue(s[2] >= 5, "gaps of 1 ms or more per second: " + s[2]);
            // half its requests fall due while the other process has the CPU, for a slice of ms
            assertTrue(s[4] >= 1000, "the ideal client's send lag p99: " + s[4] + " µs");
        } finally {
            spinner.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
    }
}
