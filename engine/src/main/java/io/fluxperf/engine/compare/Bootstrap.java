package io.fluxperf.engine.compare;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The ratio B/A of a run's figures (requests/s and latency percentiles) with a confidence interval
 * by the percentile bootstrap over seconds: each resample draws as many seconds as each run has,
 * with replacement, adds their histograms up and reads the figures again; the interval is the
 * middle 95% of the resampled ratios. Resampling whole seconds (not single requests) keeps the
 * correlation of requests within a second, which is what makes two runs' seconds differ.
 *
 * <p>A percentile's interval is then widened to hold the one its runs' order statistics give
 * ({@link io.fluxperf.engine.trust.OrderStatistics}): B's interval over A's, [B low / A high, B high /
 * A low]. Resampling seconds cannot see how few samples stand behind a tail percentile (every
 * resample holds the same few), and the order statistics can; a percentile with fewer than
 * {@link io.fluxperf.engine.trust.OrderStatistics#MIN_BEYOND} samples beyond it in either run is
 * marked as having too few, and no change of it is claimed. With too few seconds for a bootstrap,
 * the order statistics alone give the interval.
 *
 * <p>Seeded: the same inputs and seed give the same interval, run after run.
 */
public final class Bootstrap {
    /** Resamples per comparison: enough for the 2.5% and 97.5% quantiles to settle to about 1%. */
    public static final int RESAMPLES = 1000;
    /** The interval's confidence. */
    public static final double CONFIDENCE = 0.95;
    /** Fewer seconds than this in a run leave no interval: a bootstrap of one or two points says nothing. */
    public static final int MIN_SECONDS = 3;
    /** Long runs are resampled in at most this many blocks of consecutive seconds. */
    public static final int MAX_BLOCKS = 300;

    private Bootstrap() {
    }

    /**
     * A run's figures from all its seconds: index 0 is requests/s, then one per percentile.
     * Percentiles are values (ns for latency); 0 when nothing was counted.
     */
    public static double[] figures(SecondSeries s, double[] percentiles) {
        long[] grid = SecondSeries.grid(s);
        long[] acc = new long[grid.length];
        int[][] pos = s.positions(grid);
        long count = 0;
        double seconds = 0;
        for (int i = 0; i < s.size(); i++) {
            add(s, i, pos[i], acc);
            count += s.total(i);
            seconds += s.seconds(i);
        }
        double[] out = new double[1 + percentiles.length];
        read(grid, acc, count, seconds, percentiles, out);
        return out;
    }

    /**
     * B/A for requests/s and each percentile, with their intervals.
     *
     * @return one interval per figure (requests/s first); null entries where a ratio has no meaning
     *         (A's figure is 0) and intervals of NaN bounds when a run has fewer than {@link #MIN_SECONDS}
     */
    public static Ratio[] compare(SecondSeries a, SecondSeries b, double[] percentiles, int resamples, long seed) {
        int f = 1 + percentiles.length;
        double[] pointA = figures(a, percentiles);
        double[] pointB = figures(b, percentiles);
        Ratio[] out = new Ratio[f];
        SecondSeries ra = a.blocks(MAX_BLOCKS);
        SecondSeries rb = b.blocks(MAX_BLOCKS);
        boolean enough = ra.size() >= MIN_SECONDS && rb.size() >= MIN_SECONDS;
        double[][] ratios = new double[f][];
        if (enough) {
            long[] grid = SecondSeries.grid(ra, rb);
            int[][] posA = ra.positions(grid);
            int[][] posB = rb.positions(grid);
            long[] acc = new long[grid.length];
            double[] figA = new double[f];
            double[] figB = new double[f];
            for (int k = 0; k < f; k++) {
                ratios[k] = new double[resamples];
            }
            int[] valid = new int[f];
            SplittableRandom rnd = new SplittableRandom(seed);
            for (int r = 0; r < resamples; r++) {
                resample(ra, posA, grid, acc, percentiles, figA, rnd);
                resample(rb, posB, grid, acc, percentiles, figB, rnd);
                for (int k = 0; k < f; k++) {
                    if (figA[k] > 0) {
                        ratios[k][valid[k]++] = figB[k] / figA[k];
                    }
                }
            }
            for (int k = 0; k < f; k++) {
                ratios[k] = Arrays.copyOf(ratios[k], valid[k]);
                Arrays.sort(ratios[k]);
            }
        }
        double[][] orderA = orderIntervals(a, percentiles);
        double[][] orderB = orderIntervals(b, percentiles);
        for (int k = 0; k < f; k++) {
            if (pointA[k] <= 0) {
                out[k] = null;
                continue;
            }
            double ratio = pointB[k] / pointA[k];
            double[] rs = ratios[k];
            double low = Double.NaN;
            double high = Double.NaN;
            if (enough && rs.length >= resamples / 2) {
                double tail = (1 - CONFIDENCE) / 2;
                low = rs[(int) Math.floor(tail * rs.length)];
                high = rs[Math.min(rs.length - 1, (int) Math.ceil((1 - tail) * rs.length) - 1)];
            }
            boolean few = false;
            if (k > 0) {
                double[] ia = orderA[k - 1];
                double[] ib = orderB[k - 1];
                few = ia[2] < io.fluxperf.engine.trust.OrderStatistics.MIN_BEYOND
                        || ib[2] < io.fluxperf.engine.trust.OrderStatistics.MIN_BEYOND;
                if (!few && ia[0] > 0) {
                    low = Double.isNaN(low) ? ib[0] / ia[1] : Math.min(low, ib[0] / ia[1]);
                    high = Double.isNaN(high) ? ib[1] / ia[0] : Math.max(high, ib[1] / ia[0]);
                }
            }
            out[k] = new Ratio(pointA[k], pointB[k], ratio, low, high, few);
        }
        return out;
    }

    private static void resample(SecondSeries s, int[][] pos, long[] grid, long[] acc, double[] percentiles,
                                 double[] out, SplittableRandom rnd) {
        Arrays.fill(acc, 0);
        long count = 0;
        double seconds = 0;
        int n = s.size();
        for (int j = 0; j < n; j++) {
            int i = rnd.nextInt(n);
            add(s, i, pos[i], acc);
            count += s.total(i);
            seconds += s.seconds(i);
        }
        read(grid, acc, count, seconds, percentiles, out);
    }

    private static void add(SecondSeries s, int i, int[] pos, long[] acc) {
        long[] c = s.counts(i);
        for (int j = 0; j < c.length; j++) {
            acc[pos[j]] += c[j];
        }
    }

    /**
     * A run's whole-run order-statistic intervals (its seconds added up), one {@code {low, high,
     * beyond}} per percentile: the bounds' values and the samples beyond the point; {0, 0, 0} without samples.
     */
    static double[][] orderIntervals(SecondSeries s, double[] percentiles) {
        long[] grid = SecondSeries.grid(s);
        long[] acc = new long[grid.length];
        int[][] pos = s.positions(grid);
        long n = 0;
        for (int i = 0; i < s.size(); i++) {
            add(s, i, pos[i], acc);
            n += s.total(i);
        }
        double[][] out = new double[percentiles.length][3];
        if (n == 0) {
            return out;
        }
        for (int k = 0; k < percentiles.length; k++) {
            io.fluxperf.engine.trust.OrderStatistics.Ranks r =
                    io.fluxperf.engine.trust.OrderStatistics.ranks(n, percentiles[k] / 100);
            out[k][0] = valueAtRank(grid, acc, Math.max(1, r.low()));
            out[k][1] = valueAtRank(grid, acc, Math.min(n, r.high()));
            out[k][2] = r.openAbove(n) ? 0 : io.fluxperf.engine.trust.OrderStatistics.beyond(n, percentiles[k]);
        }
        return out;
    }

    private static long valueAtRank(long[] grid, long[] acc, long rank) {
        long cumulative = 0;
        for (int g = 0; g < grid.length; g++) {
            cumulative += acc[g];
            if (cumulative >= rank) {
                return grid[g];
            }
        }
        return grid.length == 0 ? 0 : grid[grid.length - 1];
    }

    /** Requests/s and the percentiles of the counts in {@code acc}, as HdrHistogram reads them. */
    private static void read(long[] grid, long[] acc, long count, double seconds, double[] percentiles, double[] out) {
        out[0] = seconds > 0 ? count / seconds : 0;
        for (int k = 0; k < percentiles.length; k++) {
            out[1 + k] = 0;
        }
        if (count == 0) {
            return;
        }
        // percentiles ascend, so one walk up the cumulative counts reads them all
        long cumulative = 0;
        int k = 0;
        long need = countAt(percentiles[0], count);
        for (int g = 0; g < grid.length && k < percentiles.length; g++) {
            cumulative += acc[g];
            while (k < percentiles.length && cumulative >= need) {
                out[1 + k] = grid[g];
                k++;
                if (k < percentiles.length) {
                    need = countAt(percentiles[k], count);
                }
            }
        }
    }

    /** The rank HdrHistogram's getValueAtPercentile looks for. */
    private static long countAt(double percentile, long total) {
        // nextAfter and the order of the operations as in HdrHistogram 2.2, so that 99.9% of 20,000 is rank 19,980
        double p = Math.min(Math.max(Math.nextAfter(percentile, Double.NEGATIVE_INFINITY), 0.0), 100.0);
        return Math.max(1, (long) Math.ceil(p * total / 100.0));
    }

    /**
     * B's figure over A's.
     *
     * @param a     A's figure over the whole run
     * @param b     B's figure
     * @param ratio b / a
     * @param low   the interval's lower bound, NaN when there is none (too few seconds)
     * @param high  its upper bound
     * @param fewSamples a percentile with too few samples beyond it in A or B to claim a change of
     */
    public record Ratio(double a, double b, double ratio, double low, double high, boolean fewSamples) {
        public Ratio(double a, double b, double ratio, double low, double high) {
            this(a, b, ratio, low, high, false);
        }

        /** Whether an interval was computed. */
        public boolean hasInterval() {
            return !Double.isNaN(low);
        }
    }
}
