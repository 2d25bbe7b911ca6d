package io.fluxperf.cli;

import io.fluxperf.engine.host.LinuxThreads;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * `fluxperf run --rate` in a process of its own lowers the JIT compiler threads and the run's
 * thread to nice 19, and leaves the load loops and the embedded target's loops alone; a
 * closed-loop run, or one with --no-host-tuning, changes nothing. Watched from outside, in
 * /proc, as `top` would.
 */
class PacedRunPriorityTest {
    private static final int LOWEST = 19;
    @TempDir
    Path dir;

    @Test
    void aPacedRunLowersTheCompilersButNotTheLoops() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux /proc");
        Map<String, Integer> seen = watch("run", "-d", "1s", "-w", "2", "--rate", "2000", "-c", "2", "--no-live");
        assumeTrue(seen.containsKey("fluxperf-load-0"), "the run was seen while it ran: " + seen);
        assertEquals(LOWEST, seen.get("C2 CompilerThre"), "C2: " + seen);
        assertEquals(LOWEST, seen.get("C1 CompilerThre"), "C1: " + seen);
        assertEquals(LOWEST, seen.get("java"), "the run's own thread (main): " + seen);
        assertEquals(0, seen.get("fluxperf-load-0"), "the load loop keeps its priority: " + seen);
        assertEquals(0, seen.get("fluxperf-target"), "the embedded target's loop keeps its priority: " + seen);
    }

    /** A JVM that makes HotSpot's clean-up safepoint once a second (java -jar) keeps the run's thread where it was. */
    @Test
    void withCleanupSafepointsTheRunsThreadKeepsItsPriority() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux /proc");
        Map<String, Integer> seen = watch(List.of("-XX:GuaranteedSafepointInterval=1000"), "run", "-d", "1s", "-w", "2",
                "--rate", "2000", "-c", "2", "--no-live");
        assumeTrue(seen.containsKey("fluxperf-load-0"), "the run was seen while it ran: " + seen);
        assertEquals(LOWEST, seen.get("C2 CompilerThre"), "C2: " + seen);
        assertEquals(0, seen.get("java"), "the run's own thread (main): " + seen);
    }

    @Test
    void withoutHostTuningAPacedRunChangesNoPriority() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux /proc");
        Map<String, Integer> seen = watch("run", "-d", "1s", "-w", "2", "--rate", "2000", "-c", "2", "--no-live",
                "--no-host-tuning");
        assumeTrue(seen.containsKey("fluxperf-load-0"), "the run was seen while it ran: " + seen);
        assertEquals(0, seen.get("C2 CompilerThre"), "C2: " + seen);
        assertEquals(0, seen.get("java"), "the run's own thread (main): " + seen);
    }

    @Test
    void aClosedLoopRunChangesNoPriority() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux /proc");
        Map<String, Integer> seen = watch("run", "-d", "1s", "-c", "2", "--no-live");
        assumeTrue(seen.containsKey("fluxperf-load-0"), "the run was seen while it ran: " + seen);
        assertEquals(0, seen.get("C2 CompilerThre"), "C2: " + seen);
        assertEquals(0, seen.get("fluxperf-load-0"), seen.toString());
    }

    /**
     * Runs the command line in a JVM of its own and returns, for each thread name, the highest
     * nice value seen while the load loop existed.
     */
    private Map<String, Integer> watch(String... args) throws Exception {
        return watch(List.of(), args);
    }

    /** @param jvmOptions options after the launcher's (CliRun), which a later one of the same name overrides */
    private Map<String, Integer> watch(List<String> jvmOptions, String... args) throws Exception {
        Path output = dir.resolve("run.out");
        Process run = CliRun.inChildJvm(output, jvmOptions, args);
        Path tasks = Path.of("/proc", Long.toString(run.pid()), "task");
        Map<String, Integer> seen = new HashMap<>();
        while (run.isAlive()) {
            Map<String, Integer> now = niceByName(tasks);
            if (now.containsKey("fluxperf-load-0")) {
                now.forEach((name, nice) -> seen.merge(name, nice, Math::max));
            }
            Thread.sleep(100); // deliberate: the sampling period of the watch from outside
        }
        assertTrue(run.waitFor(60, TimeUnit.SECONDS), "the run ends");
        assertEquals(0, run.exitValue(), Files.readString(output));
        return seen;
    }

    private static Map<String, Integer> niceByName(Path tasks) {
        Map<String, Integer> nice = new HashMap<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(tasks)) {
            for (Path task : stream) {
                String name = LinuxThreads.threadName(task);
                LinuxThreads.niceOf(task).ifPresent(n -> {
                    if (name != null) {
                        nice.merge(name, n, Math::max);
                    }
                });
            }
        } catch (IOException e) {
            // the process ended between two looks
        }
        return nice;
    }
}
