package io.fluxperf.engine.pause;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The CPU time this JVM's JIT compiler threads have used ({@code C1 CompilerThre},
 * {@code C2 CompilerThre} in {@code /proc/self/task/TID/comm}, summed from their
 * {@code schedstat}): how much a second of the run spent compiling. The JVM's own
 * compilation-time counter is wall time, which a busy machine or a lowered priority stretches.
 */
public final class CompilerThreads {
    private static final List<String> NAMES = List.of("C1 CompilerThre", "C2 CompilerThre");
    private static final Path TASKS = Path.of("/proc/self/task");

    private CompilerThreads() {
    }

    /** Their CPU time so far, ns, over the compiler threads alive now; -1 where it cannot be read. */
    public static long cpuNanos() {
        long sum = 0;
        boolean any = false;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path task : tasks) {
                String name;
                try {
                    name = Files.readString(task.resolve("comm")).strip();
                } catch (IOException | RuntimeException e) {
                    continue;
                }
                if (!NAMES.contains(name)) {
                    continue;
                }
                try (SchedStat s = SchedStat.ofThread(Integer.parseInt(task.getFileName().toString()))) {
                    long cpu = s == null ? -1 : s.cpuNanos();
                    if (cpu >= 0) {
                        sum += cpu;
                        any = true;
                    }
                } catch (NumberFormatException e) {
                    // not a thread's directory
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return any ? sum : -1;
    }
}
