package io.fluxperf.engine.compare;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * One workload's latency of one kind as a run's per-second histograms, kept as sparse counts over
 * the histograms' own bucket values so that a bootstrap can add many resamples of them up quickly
 * (adding whole HdrHistograms would cost their full counts array each time).
 *
 * <p>Each entry's value is the highest value equivalent to its bucket, as HdrHistogram reports a
 * percentile, so that a percentile read here equals the one of the merged HdrHistogram.
 */
public final class SecondSeries {
    private final long[][] values;
    private final long[][] counts;
    private final long[] totals;
    private final double[] seconds;

    private SecondSeries(long[][] values, long[][] counts, long[] totals, double[] seconds) {
        this.values = values;
        this.counts = counts;
        this.totals = totals;
        this.seconds = seconds;
    }

    /**
     * The series of {@code histograms}, one per interval.
     *
     * @param intervalSeconds each interval's length, seconds (a requests/s figure is count / length)
     */
    public static SecondSeries of(List<? extends AbstractHistogram> histograms, double[] intervalSeconds) {
        if (histograms.size() != intervalSeconds.length) {
            throw new IllegalArgumentException(histograms.size() + " histograms, " + intervalSeconds.length + " lengths");
        }
        int n = histograms.size();
        long[][] values = new long[n][];
        long[][] counts = new long[n][];
        long[] totals = new long[n];
        for (int i = 0; i < n; i++) {
            List<long[]> pairs = new ArrayList<>();
            for (HistogramIterationValue v : histograms.get(i).recordedValues()) {
                pairs.add(new long[] {v.getValueIteratedTo(), v.getCountAtValueIteratedTo()});
            }
            values[i] = new long[pairs.size()];
            counts[i] = new long[pairs.size()];
            for (int j = 0; j < pairs.size(); j++) {
                values[i][j] = pairs.get(j)[0];
                counts[i][j] = pairs.get(j)[1];
                totals[i] += pairs.get(j)[1];
            }
        }
        return new SecondSeries(values, counts, totals, intervalSeconds.clone());
    }

    /**
     * The same data in at most {@code maxIntervals} intervals, consecutive ones added together: a
     * long run's bootstrap then resamples blocks of seconds, which costs less and keeps the
     * correlation between neighbouring seconds inside a block.
     */
    public SecondSeries blocks(int maxIntervals) {
        int n = size();
        if (n <= maxIntervals) {
            return this;
        }
        int per = (n + maxIntervals - 1) / maxIntervals;
        int m = (n + per - 1) / per;
        long[][] v = new long[m][];
        long[][] c = new long[m][];
        long[] t = new long[m];
        double[] s = new double[m];
        for (int b = 0; b < m; b++) {
            java.util.TreeMap<Long, Long> merged = new java.util.TreeMap<>();
            for (int i = b * per; i < Math.min(n, (b + 1) * per); i++) {
                for (int j = 0; j < values[i].length; j++) {
                    merged.merge(values[i][j], counts[i][j], Long::sum);
                }
                t[b] += totals[i];
                s[b] += seconds[i];
            }
            v[b] = merged.keySet().stream().mapToLong(Long::longValue).toArray();
            c[b] = merged.values().stream().mapToLong(Long::longValue).toArray();
        }
        return new SecondSeries(v, c, t, s);
    }

    /** Number of intervals. */
    public int size() {
        return totals.length;
    }

    /** Values counted in interval {@code i}. */
    public long total(int i) {
        return totals[i];
    }

    /** Length of interval {@code i}, seconds. */
    public double seconds(int i) {
        return seconds[i];
    }

    long[] values(int i) {
        return values[i];
    }

    long[] counts(int i) {
        return counts[i];
    }

    /** Every distinct value of this series and of {@code others}, ascending. */
    static long[] grid(SecondSeries... series) {
        long[] all = Arrays.stream(series).flatMap(s -> Arrays.stream(s.values)).flatMapToLong(Arrays::stream)
                .sorted().distinct().toArray();
        return all;
    }

    /** For each interval's entries, their positions in {@code grid}. */
    int[][] positions(long[] grid) {
        int[][] p = new int[values.length][];
        for (int i = 0; i < values.length; i++) {
            p[i] = new int[values[i].length];
            for (int j = 0; j < values[i].length; j++) {
                p[i][j] = Arrays.binarySearch(grid, values[i][j]);
            }
        }
        return p;
    }
}
