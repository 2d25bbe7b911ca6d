package io.fluxperf.cli;

import io.fluxperf.engine.host.LinuxThreads;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A paced `fluxperf run` in a process of its own wakes its load loop from another thread, often,
 * at the start of its warm-up (LoadRun's WAKEUP_EXERCISE_NANOS), so that the JIT's profile of the
 * loop's wait has those races in it. Seen from outside: the load thread's context switches, read
 * from /proc every 250 ms. At 200 requests/s the loop wakes a few hundred times a second; while
 * the exercise runs, thousands of times (4,200–5,800 in one run).
 */
@Tag("timing")
class WarmupWakeupExerciseTest {
    private static final long SAMPLE_MILLIS = 250;

    @TempDir
    Path dir;

    @Test
    void thePacedWarmUpStartsWithAFewSecondsOfWakeUpsFromOutsideAndEndsQuiet() throws Exception {
        // from the run's connect on: the in-process warm-up before it (at 20,000 requests/s, for as
        // long as the JIT compiles) looks the same from outside
        List<Double> rates = switchesPerSecond("--warmup", "6s", "-d", "1s").fromRun();
        int first = -1;
        int last = -1;
        for (int i = 0; i < rates.size(); i++) {
            if (rates.get(i) > 2_000) {
                first = first < 0 ? i : first;
                last = i;
            }
        }
        assertTrue(first >= 0, "the loop was woken thousands of times a second at some point: " + rates);
        double exerciseSeconds = (last - first + 1) * SAMPLE_MILLIS / 1000.0;
        assertTrue(exerciseSeconds >= 1.5 && exerciseSeconds <= 5.5, "the exercise lasted about 3 s (" + exerciseSeconds + " s): " + rates);
        // after it (past the sample that straddles its end): the warm-up's rest and the window,
        // at the pace's own wake-ups
        int quiet = 0;
        for (int i = last + 2; i < rates.size() && rates.get(i) < 1_500; i++) {
            quiet++;
        }
        assertTrue(quiet * SAMPLE_MILLIS >= 2_000, "at least 2 s of ordinary wake-ups after the exercise: " + rates);
    }

    @Test
    void aPacedRunWithoutAWarmUpIsNotExercised() throws Exception {
        // the loop first runs the in-process warm-up (at 20,000 requests/s, against its own target);
        // an exercise would start at the run's connect and last about 3 s, so 2 s of run show it
        List<Double> run = switchesPerSecond("-d", "2s").fromRun();
        assertTrue(run.size() >= 6, "sampled the whole run: " + run);
        assertTrue(run.stream().allMatch(r -> r < 1_500), "no phase of wake-ups from outside: " + run);
    }

    /** Context switches per second of the load thread, per sample; the run connected at sample {@code runStart}. */
    private record Samples(List<Double> rates, int runStart) {
        List<Double> fromRun() {
            assertTrue(runStart >= 0, "saw the run connect: " + rates);
            return rates.subList(Math.min(runStart, rates.size()), rates.size());
        }
    }

    /** Runs a paced run against the embedded target; its load thread's context switches per second, per sample. */
    private Samples switchesPerSecond(String... timing) throws Exception {
        Path output = dir.resolve("run-" + System.nanoTime() + ".out");
        List<String> args = new ArrayList<>(List.of("run", "--rate", "200", "-c", "1", "--no-live"));
        args.addAll(List.of(timing));
        Process run = CliRun.inChildJvm(output, args.toArray(String[]::new));
        List<Double> rates = new ArrayList<>();
        Path thread = null;
        long previous = -1;
        long previousAt = 0;
        long deadline = System.nanoTime() + 60_000_000_000L;
        int runStart = -1;
        while (run.isAlive() && System.nanoTime() < deadline) {
            if (runStart < 0 && Files.readString(output).contains(" Failures: ")) {
                // "Connections: 1 Failures: 0": the in-process warm-up is over; the next sample still
                // straddles its end
                runStart = rates.size() + 1;
            }
            if (thread == null) {
                thread = loadThread(run.pid());
            }
            if (thread != null) {
                long switches = switches(thread);
                long now = System.nanoTime();
                if (switches < 0) {
                    break; // the thread has ended
                }
                if (previous >= 0) {
                    rates.add((switches - previous) / ((now - previousAt) / 1e9));
                }
                previous = switches;
                previousAt = now;
            }
            Thread.sleep(SAMPLE_MILLIS); // deliberate: the sampling period between two reads of the counter
        }
        assertTrue(run.waitFor(30, java.util.concurrent.TimeUnit.SECONDS), "the run ended");
        assertEquals(0, run.exitValue(), Files.readString(output));
        assertTrue(thread != null, "found the load thread");
        return new Samples(rates, runStart);
    }

    /** The /proc directory of the process's load loop thread, once it exists. */
    private static Path loadThread(long pid) throws IOException {
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        try (Stream<Path> all = Files.list(tasks)) {
            for (Path task : all.toList()) {
                if ("fluxperf-load-0".equals(LinuxThreads.threadName(task))) {
                    return task;
                }
            }
        } catch (IOException gone) {
            return null; // the process ended
        }
        return null;
    }

    /** Voluntary and involuntary context switches of the thread so far, or -1 once it has ended. */
    private static long switches(Path thread) {
        try {
            long total = 0;
            for (String line : Files.readAllLines(thread.resolve("status"))) {
                if (line.startsWith("voluntary_ctxt_switches:") || line.startsWith("nonvoluntary_ctxt_switches:")) {
                    total += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                }
            }
            return total;
        } catch (IOException | RuntimeException gone) {
            return -1;
        }
    }
}
