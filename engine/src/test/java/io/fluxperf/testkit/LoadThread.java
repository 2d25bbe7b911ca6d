package io.fluxperf.testkit;

import io.fluxperf.engine.host.LinuxThreads;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** The first load thread ({@code fluxperf-load-0}) of a run in this JVM, as tests watch it. */
public final class LoadThread {
    private static final String NAME = "fluxperf-load-0";

    private LoadThread() {
    }

    /** Bytes the run's load thread has allocated so far. */
    public static long allocatedBytes() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith(NAME)) {
                return threads.getThreadAllocatedBytes(t.getId());
            }
        }
        throw new AssertionError("no load thread");
    }

    /** How often the run's load thread has given up its CPU to wait so far (Linux's /proc). */
    public static long voluntarySwitches() {
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            // the newest thread of that name: a loop of an earlier test in this JVM has ended by now
            Path loop = tasks.filter(t -> NAME.equals(LinuxThreads.threadName(t)))
                    .max(Comparator.comparingLong(t -> Long.parseLong(t.getFileName().toString())))
                    .orElseThrow(() -> new AssertionError("no load thread in /proc/self/task"));
            return LinuxThreads.voluntarySwitches(loop).orElseThrow();
        } catch (IOException e) {
            throw new AssertionError("cannot list /proc/self/task", e);
        }
    }
}
