package io.fluxperf.engine.metrics;

import org.HdrHistogram.AbstractHistogram;

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

    public static LatencySummary of(AbstractHistogram h) {
        if (h == null || h.getTotalCount() == 0) {
            return EMPTY;
        }
        return of(h, h.getMean(), h.getStdDeviation());
    }

    /**
     * The summary of {@code h} whose mean and standard deviation, each a pass over its counts, the
     * caller has read already (a caller that does other work between the passes).
     */
    public static LatencySummary of(AbstractHistogram h, double mean, double stddev) {
        if (h == null || h.getTotalCount() == 0) {
            return EMPTY;
        }
        return new LatencySummary(h.getTotalCount(), h.getMinValue(), h.getMaxValue(), Math.round(mean),
                Math.round(stddev), h.getValueAtPercentile(50.0), h.getValueAtPercentile(90.0),
                h.getValueAtPercentile(99.0), h.getValueAtPercentile(99.9), h.getValueAtPercentile(99.99));
    }
}
