package io.fluxperf.engine.metrics;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;

/**
 * CPU time (user + system) this process has used, so that a report can say what a request cost
 * the client: the figure load generators are compared by. Includes an embedded target server
 * when one runs in the process.
 */
public final class ProcessCpu {
    private ProcessCpu() {
    }

    /** Process CPU time in ns, or -1 when the JVM does not tell. */
    public static long nanos() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            return sun.getProcessCpuTime();
        }
        return -1;
    }
}
