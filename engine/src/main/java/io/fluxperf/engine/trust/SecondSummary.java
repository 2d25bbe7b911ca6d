package io.fluxperf.engine.trust;

import java.util.List;

/**
 * One second of the measured run as the trust checks read it: its request count and latency
 * percentiles (every workload together, and each workload's when there are several), the 95 %
 * interval of its p99, and how long the JIT compiled in it.
 *
 * @param window        the window it belongs to, from 1
 * @param startNanos    its start, ns after the first window's start
 * @param seconds       its length (a window's last second is cut short at the window's end)
 * @param requests      requests that ended in it
 * @param percentiles   latency at {@link PercentileIntervals#REPORTED}, ns; zeros without requests
 * @param p99Low        the lower bound of its p99's interval, ns
 * @param p99High       the upper bound
 * @param compileMillis CPU time the JIT's compiler threads used in it, ms (summed over them); -1 unknown
 * @param workloads     each workload's requests and percentiles when the run has several; empty with one
 */
public record SecondSummary(int window, long startNanos, double seconds, long requests, long[] percentiles,
                            long p99Low, long p99High, long compileMillis, List<Workload> workloads) {
    /** Seconds shorter than this (a window's cut-off end) are left out of the checks. */
    public static final double MIN_SECONDS = 0.5;

    public SecondSummary {
        percentiles = percentiles.clone();
        workloads = List.copyOf(workloads);
    }

    /** One workload's part of a second. */
    public record Workload(long requests, long[] percentiles) {
        public Workload {
            percentiles = percentiles.clone();
        }
    }

    /** The latency at {@link PercentileIntervals#REPORTED}[{@code index}], ns. */
    public long percentile(int index) {
        return percentiles[index];
    }

    /** The p99, ns. */
    public long p99() {
        return percentiles[2];
    }

    /** Requests per second in it. */
    public double rate() {
        return seconds > 0 ? requests / seconds : 0;
    }

    /** Long enough to be compared with the others. */
    public boolean whole() {
        return seconds >= MIN_SECONDS;
    }

    /** Enough requests in it that its p99 has {@link OrderStatistics#MIN_BEYOND} samples beyond it. */
    public boolean p99Sound() {
        return OrderStatistics.beyond(requests, 99) >= OrderStatistics.MIN_BEYOND;
    }
}
