package io.fluxperf.trace;

import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.IntCountsHistogram;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The one HdrHistogram setting for latencies, shared by the run's report and by {@code trace stats},
 * so that both print the same percentiles for the same requests.
 *
 * <ul>
 *   <li>Unit: nanoseconds. Range 1 ns .. 1 hour, 3 significant digits (values are kept within 0.1%).</li>
 *   <li>Which latency: {@link Latency#INTENDED} (completion − intended send) is the default — in
 *       open-loop runs it does not hide a stalled server (no coordinated omission);
 *       {@link Latency#SERVICE} (completion − actual send) on request. Never combine the intended
 *       send time with HdrHistogram's {@code recordValueWithExpectedInterval}: they correct twice.</li>
 *   <li>Which requests: every request of the measured part of the run, whatever its outcome
 *       (so the histogram's total count equals the request count); warm-up requests are left out.</li>
 *   <li>Out-of-range values are clamped by {@link #record(Histogram, long)} (negative → 0, above one
 *       hour → one hour) rather than thrown.</li>
 * </ul>
 */
public final class LatencyHistograms {

    /** Highest latency the histogram tells apart, ns; longer ones are recorded as this. */
    public static final long HIGHEST_TRACKABLE_NANOS = TimeUnit.HOURS.toNanos(1);
    /** HdrHistogram precision. */
    public static final int SIGNIFICANT_DIGITS = 3;

    /** The percentiles a report prints, with {@link #PERCENTILE_LABELS} as their names. */
    public static final List<Double> PERCENTILES = List.of(50.0, 90.0, 99.0, 99.9, 99.99);
    public static final List<String> PERCENTILE_LABELS = List.of("p50", "p90", "p99", "p999", "p9999");

    private LatencyHistograms() {
    }

    /** A new, empty latency histogram: ns, 1 ns .. 1 hour, 3 significant digits. */
    public static Histogram create() {
        return new Histogram(1, HIGHEST_TRACKABLE_NANOS, SIGNIFICANT_DIGITS);
    }

    /**
     * A new, empty latency histogram of the same range and precision whose counts are ints: half the
     * memory (132 KB of counts instead of 264 KB), for an interval that can never count 2^31 values
     * in one bucket. Sums that grow without a bound (a window, a whole run) use {@link #create()}.
     */
    public static IntCountsHistogram createInterval() {
        return new IntCountsHistogram(1, HIGHEST_TRACKABLE_NANOS, SIGNIFICANT_DIGITS);
    }

    /**
     * Records one latency, clamped into the histogram's range.
     *
     * @param latencyNanos latency, ns
     * @return false when the value had to be clamped
     */
    public static boolean record(AbstractHistogram histogram, long latencyNanos) {
        if (latencyNanos < 0) {
            histogram.recordValue(0);
            return false;
        }
        if (latencyNanos > HIGHEST_TRACKABLE_NANOS) {
            histogram.recordValue(HIGHEST_TRACKABLE_NANOS);
            return false;
        }
        histogram.recordValue(latencyNanos);
        return true;
    }
}
