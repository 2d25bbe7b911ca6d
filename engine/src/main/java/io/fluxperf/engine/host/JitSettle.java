package io.fluxperf.engine.host;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Waits for the JIT to go quiet: its total compilation time has not grown for a while. The
 * warm-up's last requests leave compiles in the queue (the hot path's final tier among them);
 * waiting a moment for them costs less than running the first measured seconds beside them.
 */
final class JitSettle {
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    private JitSettle() {
    }

    /**
     * @param quietNanos how long the compilation time must stand still
     * @param maxNanos   the longest wait, quiet or not
     * @return whether the JIT went quiet within {@code maxNanos}; false also where the JVM does not tell its compilation time
     */
    static boolean await(long quietNanos, long maxNanos) {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
            return false;
        }
        long start = System.nanoTime();
        long last = jit.getTotalCompilationTime();
        long quietSince = start;
        while (true) {
            long now = System.nanoTime();
            if (now - quietSince >= quietNanos) {
                return true;
            }
            if (now - start >= maxNanos) {
                return false;
            }
            LockSupport.parkNanos(POLL_NANOS);
            long total = jit.getTotalCompilationTime();
            if (total != last) {
                last = total;
                quietSince = System.nanoTime();
            }
        }
    }
}
