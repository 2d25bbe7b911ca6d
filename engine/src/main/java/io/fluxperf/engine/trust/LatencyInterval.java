package io.fluxperf.engine.trust;

/**
 * A latency percentile with its 95 % interval, ns.
 *
 * @param percentile  0 < p < 100
 * @param value       the point estimate, as HdrHistogram reads it (the report's figure)
 * @param low         the interval's lower bound; the smallest sample when the interval reaches below it
 * @param high        the interval's upper bound; the largest sample when it reaches above it
 * @param openAbove   the interval reaches above the largest sample: too few samples to bound it
 * @param beyond      samples beyond the point estimate (the count less its rank)
 * @param requests    the samples it was read from
 */
public record LatencyInterval(double percentile, long value, long low, long high, boolean openAbove, long beyond,
                              long requests) {
    /**
     * Fewer than {@link OrderStatistics#MIN_BEYOND} samples beyond the percentile: its value is
     * marked, not printed as if exact.
     */
    public boolean fewSamples() {
        return beyond < OrderStatistics.MIN_BEYOND;
    }

    /** This interval widened to cover {@code lowNanos}..{@code highNanos} too. */
    public LatencyInterval widenedTo(long lowNanos, long highNanos) {
        return new LatencyInterval(percentile, value, Math.min(low, lowNanos), Math.max(high, highNanos), openAbove, beyond,
                requests);
    }

    /** Whether the whole interval lies below {@code ns} ({@code inclusive}: at or below). */
    public boolean below(double ns, boolean inclusive) {
        return !openAbove && (inclusive ? high <= ns : high < ns);
    }

    /** Whether the whole interval lies above {@code ns} ({@code inclusive}: at or above). */
    public boolean above(double ns, boolean inclusive) {
        return inclusive ? low >= ns : low > ns;
    }
}
