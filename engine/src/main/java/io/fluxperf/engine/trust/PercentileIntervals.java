package io.fluxperf.engine.trust;

import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * Reads percentiles and their order-statistic intervals ({@link OrderStatistics}) from an
 * HdrHistogram in one walk over its counts: the point estimate as {@code getValueAtPercentile}
 * gives it, and each bound as the value of its rank, to the histogram's precision (0.1 %).
 */
public final class PercentileIntervals {
    /** The percentiles every report prints. */
    public static final double[] REPORTED = {50, 90, 99, 99.9, 99.99};

    private PercentileIntervals() {
    }

    /** The intervals of {@link #REPORTED} in {@code h}; empty when it holds no samples. */
    public static List<LatencyInterval> reported(AbstractHistogram h) {
        return of(h, REPORTED);
    }

    /**
     * The intervals of {@code percentiles} (ascending, each 0 < p < 100) in {@code h}, in their
     * order; empty when it holds no samples.
     */
    public static List<LatencyInterval> of(AbstractHistogram h, double... percentiles) {
        long n = h == null ? 0 : h.getTotalCount();
        if (n == 0) {
            return List.of();
        }
        int k = percentiles.length;
        long[] wanted = new long[2 * k];
        OrderStatistics.Ranks[] ranks = new OrderStatistics.Ranks[k];
        for (int i = 0; i < k; i++) {
            ranks[i] = OrderStatistics.ranks(n, percentiles[i] / 100);
            wanted[2 * i] = Math.max(1, ranks[i].low());
            wanted[2 * i + 1] = Math.min(n, ranks[i].high());
        }
        long[] values = valuesAtRanks(h, wanted);
        List<LatencyInterval> out = new ArrayList<>(k);
        for (int i = 0; i < k; i++) {
            // the point as the report prints it
            out.add(new LatencyInterval(percentiles[i], h.getValueAtPercentile(percentiles[i]), values[2 * i], values[2 * i + 1],
                    ranks[i].openAbove(n), OrderStatistics.beyond(n, percentiles[i]), n));
        }
        return out;
    }

    /** The interval of one percentile; null when {@code h} holds no samples. */
    public static LatencyInterval of(AbstractHistogram h, double percentile) {
        List<LatencyInterval> one = of(h, new double[] {percentile});
        return one.isEmpty() ? null : one.get(0);
    }

    /** The value of each 1-based rank (in any order), as HdrHistogram reports a bucket: its highest equivalent value. */
    static long[] valuesAtRanks(AbstractHistogram h, long[] ranks) {
        Integer[] order = new Integer[ranks.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, (a, b) -> Long.compare(ranks[a], ranks[b]));
        long[] out = new long[ranks.length];
        int next = 0;
        long cumulative = 0;
        for (HistogramIterationValue v : h.recordedValues()) {
            cumulative += v.getCountAddedInThisIterationStep();
            while (next < order.length && cumulative >= ranks[order[next]]) {
                out[order[next]] = h.highestEquivalentValue(v.getValueIteratedTo());
                next++;
            }
            if (next == order.length) {
                break;
            }
        }
        long max = h.getMaxValue();
        for (; next < order.length; next++) {
            out[order[next]] = max;
        }
        return out;
    }
}
