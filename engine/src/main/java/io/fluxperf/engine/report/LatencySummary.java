package io.fluxperf.engine.report;

import io.fluxperf.engine.CpuCourtesy;
import org.HdrHistogram.Histogram;

/**
 * The latency figures every report prints, read once from a histogram so that the text, the JSON
 * and any other view show the same numbers. Values are nanoseconds; an empty histogram gives 0s
 * (rather than HdrHistogram's sentinels) so that a window without replies still prints cleanly.
 *
 * @param count requests timed (the engine times every request at its end, whatever its outcome)
 */
public record LatencySummary(long count, long min, long max, long mean, long stddev,
                             long p50, long p90, long p99, long p999, long p9999) {

    public static final LatencySummary EMPTY = new LatencySummary(0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

    public static LatencySummary of(Histogram h) {
        if (h == null || h.getTotalCount() == 0) {
            return EMPTY;
        }
        // each pass over the counts takes up to 0.2 ms: a paced loop may want the CPU in between
        CpuCourtesy.breathe();
        long mean = Math.round(h.getMean());
        CpuCourtesy.breathe();
        long stddev = Math.round(h.getStdDeviation());
        CpuCourtesy.breathe();
        return new LatencySummary(h.getTotalCount(), h.getMinValue(), h.getMaxValue(), mean, stddev,
                h.getValueAtPercentile(50.0), h.getValueAtPercentile(90.0), h.getValueAtPercentile(99.0),
                h.getValueAtPercentile(99.9), h.getValueAtPercentile(99.99));
    }
}
