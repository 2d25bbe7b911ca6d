package io.fluxperf.engine.host;

import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Whether C2, the JIT's final tier, is compiling, seen from outside it. On Linux: from the CPU time
 * of its threads ({@code /proc/self/task/TID/schedstat}) and whether one is on a CPU or waits for
 * one (state {@code R}, which a compiler thread is in only while it compiles, even when others keep
 * the CPU busy). Elsewhere: whether the JVM's total compilation time grew, which it does only as
 * each compile ends. C1's quick compiles, and C2's of small methods of other threads (a few
 * milliseconds now and then), do not count as busy; the compiles of a load's hot path (tens to
 * hundreds of milliseconds each) do.
 */
final class CompilerWork {
    /** How HotSpot names its C2 threads (Linux keeps the first 15 bytes). */
    private static final String C2_THREAD_NAME = "C2 CompilerThre";
    /** A look at which C2 took this share of the time since the last look or more is busy. */
    private static final double BUSY_SHARE = 0.25;
    /** The C2 threads are looked up again this often: HotSpot starts and stops them as its queue grows. */
    private static final int RESCAN_LOOKS = 80;

    private final CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    private List<Integer> compilers = List.of();
    private long[] lastCpu = new long[0];
    private boolean[] wasRunning = new boolean[0];
    private long lastLook;
    private long lastCompileMillis = -1;
    private int looks;

    /**
     * Looks once: whether C2 has been compiling since the last look, or is at it now. The first
     * look says busy; where nothing can tell, every later one says idle.
     */
    boolean busy() {
        long now = System.nanoTime();
        long since = now - lastLook;
        lastLook = now;
        if (looks++ % RESCAN_LOOKS == 0) {
            List<Integer> found = c2Threads();
            if (!found.equals(compilers)) {
                compilers = found;
                lastCpu = new long[found.size()];
                Arrays.fill(lastCpu, -1);
                wasRunning = new boolean[found.size()];
            }
        }
        if (compilers.isEmpty()) {
            return compiledSinceLastLook();
        }
        boolean busy = false;
        for (int i = 0; i < compilers.size(); i++) {
            Path task = Path.of("/proc/self/task", compilers.get(i).toString());
            long cpu = cpuNanos(task);
            if (cpu < 0) {
                looks = 0; // the thread ended: look the threads up again next time
                busy = true;
                continue;
            }
            boolean running = running(task);
            // a compile that goes on from one look to the next, or took a good share of the time between
            busy |= lastCpu[i] < 0 || cpu - lastCpu[i] >= BUSY_SHARE * since || running && wasRunning[i];
            lastCpu[i] = cpu;
            wasRunning[i] = running;
        }
        return busy;
    }

    /** Whether the JVM's total compilation time grew since the last look (false where it does not tell). */
    private boolean compiledSinceLastLook() {
        if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
            return false;
        }
        long total = jit.getTotalCompilationTime();
        boolean grew = total != lastCompileMillis;
        lastCompileMillis = total;
        return grew;
    }

    /** The ids of this JVM's C2 threads; empty elsewhere than Linux. */
    private static List<Integer> c2Threads() {
        return HousekeepingPriority.compilerThreads().stream()
                .filter(tid -> C2_THREAD_NAME.equals(LinuxThreads.threadName(Path.of("/proc/self/task", tid.toString()))))
                .toList();
    }

    /** The thread's time on a CPU so far, in ns (the first field of schedstat); -1 if it cannot be read. */
    private static long cpuNanos(Path task) {
        try {
            String s = Files.readString(task.resolve("schedstat"));
            return Long.parseLong(s.substring(0, s.indexOf(' ')));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** Whether the thread runs or waits for a CPU (state R): a compiler thread does so only while it compiles. */
    private static boolean running(Path task) {
        try {
            String stat = Files.readString(task.resolve("stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2) == 'R';
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
