package io.fluxperf.engine.metrics;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * CPU time (user + system) the calling thread has used. A load loop reads it once per window, so
 * that a report can say when a loop was busy nearly all the time: then the client, not the server,
 * set the window's rate, and requests waited in the client (its send lag and latency show it).
 */
public final class ThreadCpu {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final boolean SUPPORTED = THREADS.isCurrentThreadCpuTimeSupported();

    private ThreadCpu() {
    }

    /** The calling thread's CPU time in ns, or -1 when the JVM does not tell. */
    public static long currentThreadNanos() {
        if (!SUPPORTED) {
            return -1;
        }
        try {
            return THREADS.getCurrentThreadCpuTime();
        } catch (UnsupportedOperationException e) {
            return -1; // measurement switched off (ThreadMXBean.setThreadCpuTimeEnabled(false))
        }
    }
}
