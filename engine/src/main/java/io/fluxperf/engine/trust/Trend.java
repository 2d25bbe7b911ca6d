package io.fluxperf.engine.trust;

import java.util.Arrays;

/**
 * A monotone trend in a series of per-second figures: the Mann-Kendall test (Kendall, <i>Rank
 * Correlation Methods</i>, 1975) says whether there is one, the Theil-Sen line (Sen, JASA 1968)
 * how large it is. Both use ranks and medians only, so a single outlying second moves neither
 * much: a stall of the server in one second is not a trend.
 *
 * @param n       the number of points
 * @param s       Kendall's S: concordant less discordant pairs
 * @param p       the two-sided p-value of "no trend": exact for up to {@link #EXACT_N} points without ties,
 *                else from the normal approximation with the ties' correction and a continuity correction
 * @param slope   the Theil-Sen slope, per point
 * @param first   the line's value at the first point
 * @param last    its value at the last point
 */
public record Trend(int n, long s, double p, double slope, double first, double last) {
    /** Up to this many points without ties, p is exact (the permutation distribution of S). */
    static final int EXACT_N = 10;

    /** The trend of {@code y} against its index; null for fewer than 3 points. */
    public static Trend of(double[] y) {
        int n = y.length;
        if (n < 3) {
            return null;
        }
        long s = 0;
        double[] slopes = new double[n * (n - 1) / 2];
        int k = 0;
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                s += Double.compare(y[j], y[i]) > 0 ? 1 : Double.compare(y[j], y[i]) < 0 ? -1 : 0;
                slopes[k++] = (y[j] - y[i]) / (j - i);
            }
        }
        double slope = median(slopes);
        double[] intercepts = new double[n];
        for (int i = 0; i < n; i++) {
            intercepts[i] = y[i] - slope * i;
        }
        double intercept = median(intercepts);
        return new Trend(n, s, pValue(y, s), slope, intercept, intercept + slope * (n - 1));
    }

    private static double pValue(double[] y, long s) {
        int n = y.length;
        double[] sorted = y.clone();
        Arrays.sort(sorted);
        double tieTerm = 0;
        boolean ties = false;
        for (int i = 0; i < n; ) {
            int j = i;
            while (j < n && sorted[j] == sorted[i]) {
                j++;
            }
            int t = j - i;
            if (t > 1) {
                ties = true;
                tieTerm += t * (t - 1.0) * (2.0 * t + 5);
            }
            i = j;
        }
        if (!ties && n <= EXACT_N) {
            return exactP(n, s);
        }
        double variance = (n * (n - 1.0) * (2.0 * n + 5) - tieTerm) / 18;
        if (variance <= 0) {
            return 1;
        }
        double z = (Math.abs(s) - 1) / Math.sqrt(variance);
        return Math.min(1, 2 * (1 - Normal.cdf(Math.max(0, z))));
    }

    /**
     * P(|S| >= |s|) when every order is as likely: S = pairs - 2 × inversions, and the number of
     * permutations of n with k inversions is a Mahonian number, counted here by the usual recurrence.
     */
    static double exactP(int n, long s) {
        int pairs = n * (n - 1) / 2;
        double[] count = {1};
        for (int m = 2; m <= n; m++) {
            double[] next = new double[count.length + m - 1];
            for (int k = 0; k < next.length; k++) {
                double sum = 0;
                for (int d = 0; d < m && d <= k; d++) {
                    if (k - d < count.length) {
                        sum += count[k - d];
                    }
                }
                next[k] = sum;
            }
            count = next;
        }
        double total = 0;
        double extreme = 0;
        for (int inversions = 0; inversions <= pairs; inversions++) {
            long sk = pairs - 2L * inversions;
            total += count[inversions];
            if (Math.abs(sk) >= Math.abs(s)) {
                extreme += count[inversions];
            }
        }
        return extreme / total;
    }

    /** The median of {@code v} (sorted in place). */
    static double median(double[] v) {
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }
}
