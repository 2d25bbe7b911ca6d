package io.fluxperf.engine.host;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;

/**
 * A paced run's load loops share their CPU with the JVM's JIT compiler threads and with the run's
 * own thread, which times the windows and prints them. Linux's scheduler lets either of them run
 * for a slice of several milliseconds while a loop has requests due, and every request due
 * meanwhile leaves late (send lag). At nice 19 they still run whenever the loops wait, and still
 * get about 1.5 % of a CPU that the loops keep busy, so a compile is slowed, never stopped (a
 * loop thrown back to interpreted code must get its compiled code again).
 *
 * <p>Only ever lowers: an unprivileged process cannot raise a thread's priority back, so a
 * process that hosts more than one run (the tests) must not call this. The JVM has no call for
 * a thread's nice value, so {@code renice} does it, once per run. Best effort: elsewhere than
 * Linux, or without {@code renice}, nothing changes.
 */
public final class HousekeepingPriority {
    /** The lowest priority a normal thread can have: it runs when the loops leave the CPU free. */
    static final int NICE = 19;
    /** How HotSpot names its compiler threads (Linux keeps the first 15 bytes) and its code sweeper. */
    private static final List<String> COMPILER_THREAD_NAMES = List.of("C1 CompilerThre", "C2 CompilerThre", "Sweeper thread");
    private static final Path TASKS = Path.of("/proc/self/task");
    /** HotSpot's interval of its clean-up safepoints, ms; 0 turns them off. */
    static final String CLEANUP_SAFEPOINT_OPTION = "GuaranteedSafepointInterval";

    private HousekeepingPriority() {
    }

    /**
     * Lowers the JIT compiler threads to nice 19, and the calling thread (the run's) with them when
     * the JVM makes no clean-up safepoint once a second ({@link #cleanupSafepointsOff}). Threads the
     * compilers start later inherit it.
     *
     * @return how many threads were lowered; 0 where the platform does not allow it
     */
    public static int lowerCompilersAndCurrentThread() {
        List<Integer> tids = toLower(compilerThreads(), LinuxThreads.currentTid(), cleanupSafepointsOff());
        return lower(tids) ? tids.size() : 0;
    }

    /**
     * The threads to lower. A safepoint waits for every thread in Java code, so a run's thread at
     * nice 19 that the loops keep from the CPU holds the JVM's once-a-second clean-up safepoint, and
     * with it the whole process; a compiler thread is in native code for most of its work, where a
     * safepoint does not wait for it. So the run's thread drops only where those safepoints are
     * off, as the launcher runs the JVM (docs/internals.md, "Safepoints").
     */
    static List<Integer> toLower(List<Integer> compilers, OptionalInt runThread, boolean cleanupSafepointsOff) {
        List<Integer> tids = new ArrayList<>(compilers);
        if (cleanupSafepointsOff) {
            runThread.ifPresent(tids::add);
        }
        return tids;
    }

    /** Whether this JVM runs with {@code -XX:GuaranteedSafepointInterval=0}; false where that cannot be told. */
    static boolean cleanupSafepointsOff() {
        try {
            HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            return hotspot != null && "0".equals(hotspot.getVMOption(CLEANUP_SAFEPOINT_OPTION).getValue());
        } catch (RuntimeException e) {
            return false; // not HotSpot, or diagnostic options locked, which hides the option and leaves it at its default
        }
    }


    /** The thread ids of this JVM's JIT compiler threads; empty elsewhere than Linux. */
    static List<Integer> compilerThreads() {
        List<Integer> tids = new ArrayList<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path task : tasks) {
                String name = LinuxThreads.threadName(task);
                if (name != null && COMPILER_THREAD_NAMES.contains(name)) {
                    tids.add(Integer.parseInt(task.getFileName().toString()));
                }
            }
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
        return tids;
    }

    /** Sets the threads' nice value to 19; false if that could not be done. */
    static boolean lower(List<Integer> tids) {
        if (tids.isEmpty()) {
            return false;
        }
        List<String> command = new ArrayList<>(List.of("renice", "-n", Integer.toString(NICE), "-p"));
        tids.forEach(t -> command.add(t.toString()));
        try {
            Process renice = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!renice.waitFor(5, TimeUnit.SECONDS)) {
                renice.destroyForcibly();
                return false;
            }
            return renice.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
