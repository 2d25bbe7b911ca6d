package io.fluxperf.engine.trust;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.trace.LatencyHistograms;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The order-statistic intervals: known ranks, their coverage on samples drawn with a seed, and their values in a histogram. */
class OrderStatisticsTest {
    @Test
    void theMedianOfAHundredLiesBetweenThe40thAndThe61st() {
        // the textbook case (Hahn and Meeker, table A.15): P(B <= 39) = 1.8 %, P(B <= 60) = 98.2 %
        assertEquals(new OrderStatistics.Ranks(40, 61), OrderStatistics.ranks(100, 0.5));
    }

    @Test
    void theNormalApproximationAgreesWithTheExactTailsWhereTheyMeet() {
        // 5,000 samples: p99 has 50 above it on average, the last case summed exactly; 5,100 goes normal
        OrderStatistics.Ranks exact = OrderStatistics.ranks(5_000, 0.99);
        OrderStatistics.Ranks normal = OrderStatistics.ranks(5_100, 0.99);
        assertEquals(exact.low() + 99, normal.low(), 2);
        assertEquals(exact.high() + 99, normal.high(), 2);
    }

    @Test
    void tooFewSamplesLeaveTheUpperEndOpen() {
        assertTrue(OrderStatistics.ranks(1_000, 0.9999).openAbove(1_000), "0.1 samples expected above p9999");
        assertFalse(OrderStatistics.ranks(1_000_000, 0.9999).openAbove(1_000_000));
        assertEquals(10, OrderStatistics.beyond(10_000, 99.9), "p999 of 10,000 is rank 9,990, as HdrHistogram reads it");
        assertEquals(5, OrderStatistics.beyond(5_000, 99.9));
    }

    /** Drawn with a seed, so the same counts every time: the intervals hold the true quantile about 95 % of the time. */
    @Test
    void theIntervalsHoldTheTrueQuantileAbout95PercentOfTheTime() {
        SplittableRandom random = new SplittableRandom(51);
        for (int n : new int[] {200, 2_000, 10_000}) {
            for (double q : new double[] {0.5, 0.9, 0.99}) {
                double truth = -Math.log(1 - q); // the exponential distribution's quantile
                int trials = 400;
                int held = 0;
                double[] x = new double[n];
                OrderStatistics.Ranks r = OrderStatistics.ranks(n, q);
                for (int t = 0; t < trials; t++) {
                    for (int i = 0; i < n; i++) {
                        x[i] = -Math.log(1 - random.nextDouble());
                    }
                    Arrays.sort(x);
                    double low = r.openBelow() ? Double.NEGATIVE_INFINITY : x[(int) r.low() - 1];
                    double high = r.openAbove(n) ? Double.POSITIVE_INFINITY : x[(int) r.high() - 1];
                    if (low <= truth && truth <= high) {
                        held++;
                    }
                }
                double coverage = (double) held / trials;
                assertTrue(coverage >= 0.92 && coverage <= 0.995, "n " + n + " q " + q + ": held " + coverage);
            }
        }
    }

    @Test
    void aHistogramsIntervalsAreItsSamplesAtTheRanksToItsPrecision() {
        SplittableRandom random = new SplittableRandom(7);
        int n = 20_000;
        long[] samples = new long[n];
        Histogram h = LatencyHistograms.create();
        for (int i = 0; i < n; i++) {
            samples[i] = 20_000 + (long) (-Math.log(1 - random.nextDouble()) * 100_000);
            h.recordValue(samples[i]);
        }
        Arrays.sort(samples);
        List<LatencyInterval> intervals = PercentileIntervals.reported(h);
        assertEquals(5, intervals.size());
        for (LatencyInterval i : intervals) {
            OrderStatistics.Ranks r = OrderStatistics.ranks(n, i.percentile() / 100);
            assertEquals(h.getValueAtPercentile(i.percentile()), i.value());
            assertEquals(samples[(int) r.low() - 1], i.low(), samples[(int) r.low() - 1] * 0.001);
            assertEquals(samples[(int) Math.min(n, r.high()) - 1], i.high(), samples[(int) Math.min(n, r.high()) - 1] * 0.001);
            assertTrue(i.low() <= i.value() && i.value() <= i.high(), i.toString());
        }
        assertFalse(intervals.get(3).fewSamples(), "p999: 20 beyond");
        assertTrue(intervals.get(4).fewSamples(), "p9999: 2 beyond");
        assertTrue(PercentileIntervals.reported(LatencyHistograms.create()).isEmpty());
    }
}
