package io.fluxperf.engine.pause;

import java.util.List;

/**
 * The CPU time this JVM's JIT compiler threads have used ({@code C1 CompilerThre},
 * {@code C2 CompilerThre} in {@code /proc/self/task/TID/comm}, summed from their
 * {@code schedstat}): how much a second of the run spent compiling. The JVM's own
 * compilation-time counter is wall time, which a busy machine or a lowered priority stretches.
 * Read once a second during a measurement, so it keeps the threads' files open and allocates
 * nothing while the compiler threads stay the same. Not thread-safe.
 */
public final class CompilerThreads implements AutoCloseable {
    private static final List<String> NAMES = List.of("C1 CompilerThre", "C2 CompilerThre");

    private final ProcessThreads threads = new ProcessThreads(NAMES::contains);

    /** Their CPU time so far, ns, over the compiler threads alive now; -1 where it cannot be read. */
    public synchronized long cpuNanos() {
        threads.refresh(System.nanoTime());
        long sum = 0;
        boolean any = false;
        for (SchedStat s : threads.stats()) {
            long cpu = s.cpuNanos();
            if (cpu >= 0) {
                sum += cpu;
                any = true;
            }
        }
        return any ? sum : -1;
    }

    @Override
    public synchronized void close() {
        threads.close();
    }
}
