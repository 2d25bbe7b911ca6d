package io.fluxperf.engine.trust;

/**
 * The distribution-free confidence interval of a quantile from order statistics: of {@code n}
 * samples sorted, the interval of the {@code q}-quantile runs from the {@code l}-th to the
 * {@code u}-th smallest, where the number of samples at or below the true quantile, a
 * Binomial(n, q) count, falls below {@code l} or at or above {@code u} with a chance of at most
 * 2.5 % each (Hahn and Meeker, <i>Statistical Intervals</i>, 1991, ch. 5; Lancet, ATC'19, uses the
 * same). It assumes nothing of the latencies' distribution, only that the samples are independent.
 *
 * <p>The binomial tails are summed exactly where the rarer side of the count has a small mean
 * (the tail percentiles of a short run, where the normal approximation is poor); otherwise the
 * normal approximation with a continuity correction is used.
 */
public final class OrderStatistics {
    /** The interval's confidence. */
    public static final double CONFIDENCE = 0.95;
    /** Fewer samples than this beyond a percentile, and its interval is not printed as if exact. */
    public static final long MIN_BEYOND = 10;
    private static final double TAIL = (1 - CONFIDENCE) / 2;
    private static final double Z = 1.959963984540054;
    /** Up to this mean of the rarer count, the tails are summed exactly. */
    private static final double EXACT_MEAN = 50;

    private OrderStatistics() {
    }

    /**
     * The 1-based ranks of the interval's bounds among {@code n} sorted samples.
     *
     * @param low  the lower bound's rank; 0 when the interval has no lower bound among the samples
     * @param high the upper bound's rank; {@code n + 1} when it has no upper bound among them
     */
    public record Ranks(long low, long high) {
        /** Whether the interval's lower end lies below the smallest sample. */
        public boolean openBelow() {
            return low < 1;
        }

        /** Whether the interval's upper end lies above the largest sample. */
        public boolean openAbove(long n) {
            return high > n;
        }
    }

    /** The ranks of the 95 % interval of the {@code q}-quantile (0 < q < 1) of {@code n} samples. */
    public static Ranks ranks(long n, double q) {
        if (n <= 0) {
            return new Ranks(0, 1);
        }
        if (q <= 0 || q >= 1) {
            throw new IllegalArgumentException("a quantile between 0 and 1, not " + q);
        }
        // F(k) = P(B <= k) for B ~ Binomial(n, q): l - 1 is the largest k with F(k) <= 2.5 %, u - 1
        // the smallest with F(k) >= 97.5 %
        boolean exact = Math.min(q, 1 - q) * n <= EXACT_MEAN;
        if (exact) {
            return exactRanks(n, q);
        }
        double mean = n * q;
        double sd = Math.sqrt(n * q * (1 - q));
        long low = (long) Math.floor(mean - Z * sd - 0.5) + 1;
        long high = (long) Math.ceil(mean + Z * sd + 0.5);
        return new Ranks(Math.max(0, low), Math.min(n + 1, high));
    }

    /**
     * The rank HdrHistogram's {@code getValueAtPercentile} reads for {@code percentile} of {@code n}
     * samples (its arithmetic, so that 99.9 % of 20,000 is rank 19,980).
     */
    public static long pointRank(long n, double percentile) {
        double p = Math.min(Math.max(Math.nextAfter(percentile, Double.NEGATIVE_INFINITY), 0.0), 100.0);
        return Math.max(1, (long) Math.ceil(p * n / 100.0));
    }

    /** The samples beyond the point estimate of {@code percentile}: {@code n} less its rank. */
    public static long beyond(long n, double percentile) {
        return n <= 0 ? 0 : n - pointRank(n, percentile);
    }

    /** The ranks from exact binomial tails, summed over the rarer count (at most a few hundred terms). */
    private static Ranks exactRanks(long n, double q) {
        boolean upperRare = q > 0.5;
        double p = upperRare ? 1 - q : q; // X ~ Binomial(n, p): the rarer count
        // the rarer count's distribution, as far as its mass goes
        double mean = n * p;
        int limit = (int) Math.min(n, Math.ceil(mean + 12 * Math.sqrt(mean) + 40));
        double[] cdf = new double[limit + 1];
        double logPmf = n * Math.log1p(-p); // P(X = 0)
        double sum = 0;
        double ratio = p / (1 - p);
        for (int k = 0; k <= limit; k++) {
            sum += Math.exp(logPmf);
            cdf[k] = Math.min(1, sum);
            logPmf += Math.log((double) (n - k) / (k + 1) * ratio);
        }
        // P(X <= k) for k beyond the table is 1 (to within 1e-12)
        if (!upperRare) {
            // B = X: l - 1 = largest k with P(X <= k) <= 2.5 %; u - 1 = smallest with P(X <= k) >= 97.5 %
            long lowK = -1;
            while (lowK + 1 <= limit && cdf[(int) (lowK + 1)] <= TAIL) {
                lowK++;
            }
            long highK = 0;
            while (highK <= limit && cdf[(int) highK] < 1 - TAIL) {
                highK++;
            }
            return new Ranks(lowK + 1, Math.min(n + 1, highK + 1));
        }
        // B = n - X: P(B <= k) = P(X >= n - k) = 1 - P(X <= n - k - 1)
        // l - 1 = largest k with P(X >= n - k) <= 2.5 %, i.e. the smallest j = n - k with P(X >= j) <= 2.5 %
        long j = 0;
        while (j <= limit && 1 - (j == 0 ? 0 : cdf[(int) (j - 1)]) > TAIL) {
            j++;
        }
        long low = n - j + 1;
        // u - 1 = smallest k with P(X >= n - k) >= 97.5 %: the largest j = n - k with P(X >= j) >= 97.5 %
        long jj = 0;
        while (jj + 1 <= limit && 1 - cdf[(int) jj] >= 1 - TAIL) {
            jj++;
        }
        long high = n - jj + 1;
        return new Ranks(Math.max(0, low), Math.min(n + 1, high));
    }
}
