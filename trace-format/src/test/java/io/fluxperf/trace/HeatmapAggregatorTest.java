package io.fluxperf.trace;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HeatmapAggregatorTest {

    private static final long S = 1_000_000_000L;

    @Test
    void latencyRowsAreLogScaledAndContiguous() {
        assertEquals(0, LatencyBuckets.row(0));
        assertEquals(0, LatencyBuckets.row(-5));
        assertEquals(0, LatencyBuckets.row(1023));
        assertEquals(1, LatencyBuckets.row(1024));
        assertEquals(LatencyBuckets.ROWS - 1, LatencyBuckets.row(Long.MAX_VALUE));
        assertEquals(LatencyBuckets.ROWS - 1, LatencyBuckets.row(1L << 34));
        for (int r = 1; r < LatencyBuckets.ROWS - 1; r++) {
            assertEquals(LatencyBuckets.upperBound(r - 1), LatencyBuckets.lowerBound(r));
            assertEquals(r, LatencyBuckets.row(LatencyBuckets.lowerBound(r)));
            assertEquals(r, LatencyBuckets.row(LatencyBuckets.upperBound(r) - 1));
            long lo = LatencyBuckets.lowerBound(r);
            double width = (LatencyBuckets.upperBound(r) - lo) / (double) lo;
            assertTrue(width <= 1.0 / 16 + 1e-9, "row " + r + " is " + width + " wide");
        }
    }

    @Test
    void countsLandInTheirCellsAndPerBucketTotals() {
        HeatmapAggregator h = new HeatmapAggregator(S, Latency.INTENDED);
        for (int i = 0; i < 100; i++) {
            h.add(2 * S + i, 100_000, Outcome.OK);     // t = 2 s, 100 µs
        }
        for (int i = 0; i < 10; i++) {
            h.add(4 * S + i, 10_000_000, Outcome.TIMEOUT); // t = 4 s, 10 ms
        }
        h.add(S + 5, 100_000, Outcome.MISS);           // earlier than the first: the grid grows to the left
        assertEquals(111, h.totalCount());
        assertEquals(4, h.timeBuckets());              // 1 s .. 4 s
        assertEquals(S, h.bucketStartNanos(0));
        int r100us = LatencyBuckets.row(100_000);
        int r10ms = LatencyBuckets.row(10_000_000);
        assertEquals(1, h.count(0, r100us));
        assertEquals(100, h.count(1, r100us));
        assertEquals(0, h.total(2));
        assertEquals(10, h.count(3, r10ms));
        assertEquals(10, h.outcomeCount(3, Outcome.TIMEOUT));
        assertEquals(1, h.outcomeCount(0, Outcome.MISS));
        assertEquals(r100us, h.minRow());
        assertEquals(r10ms, h.maxRow());
        assertEquals(100, h.maxCellCount());
        assertEquals(-1, h.percentileNanos(2, 50));
        long p50 = h.percentileNanos(1, 50);
        assertTrue(Math.abs(p50 - 100_000) <= 100_000 * 0.035, "p50 " + p50);
    }

    @Test
    void aLongTraceMergesBucketsInsteadOfGrowing() {
        HeatmapAggregator h = new HeatmapAggregator(S, Latency.INTENDED, 8);
        long total = 0;
        for (int s = 0; s < 20; s++) {
            for (int k = 0; k <= s; k++) {
                h.add(s * S + k, 50_000, Outcome.OK);
                total++;
            }
        }
        assertEquals(4 * S, h.bucketNanos());          // 20 s in at most 8 buckets: 4 s each
        assertEquals(5, h.timeBuckets());
        long sum = 0;
        for (int t = 0; t < h.timeBuckets(); t++) {
            sum += h.total(t);
            assertEquals(h.total(t), h.count(t, LatencyBuckets.row(50_000)));
        }
        assertEquals(total, sum);
        assertEquals(0 + 1 + 2 + 3 + 4, h.total(0));    // seconds 0..3 hold 1+2+3+4 records
        assertEquals(17 + 18 + 19 + 20, h.total(4));

        // a million records spread over 12 days stay in 8 buckets
        for (int i = 0; i < 1_000_000; i++) {
            h.add((long) i * 1_000_000_000L, 1_000, Outcome.OK);
        }
        assertTrue(h.timeBuckets() <= 8);
        assertEquals(total + 1_000_000, h.totalCount());
    }

    @Test
    void recordsUseTheChosenLatency() {
        TraceRecord r = new TraceRecord().intendedSendNanos(0).actualSendNanos(900_000).completionNanos(1_000_000);
        HeatmapAggregator intended = new HeatmapAggregator(S, Latency.INTENDED);
        HeatmapAggregator service = new HeatmapAggregator(S, Latency.SERVICE);
        intended.add(r);
        service.add(r);
        assertEquals(1, intended.count(0, LatencyBuckets.row(1_000_000)));
        assertEquals(1, service.count(0, LatencyBuckets.row(100_000)));
    }

    /**
     * Issue 46, item 13: a steady 18,000/s that starts 0.57 s into a bucket and ends 0.87 s into
     * another drew its first bucket at 7.7k/s and its last at 15.7k/s, counted over whole buckets.
     * Over the time the trace covers of each bucket, every bucket reads 18,000/s.
     */
    @Test
    void partlyFilledBucketsAreRatesOverTheTimeTheyCover() {
        HeatmapAggregator h = new HeatmapAggregator(S, Latency.INTENDED);
        long gap = S / 18_000;
        long start = 570_000_000L;
        for (long t = start; t < start + 10_300_000_000L; t += gap) {
            h.add(t, 50_000, Outcome.OK);
        }
        assertEquals(11, h.timeBuckets());
        assertTrue(h.total(0) < 8_000, "the first bucket holds 0.43 s of requests: " + h.total(0));
        for (int t = 0; t < h.timeBuckets(); t++) {
            assertEquals(18_000, h.ratePerSecond(t), 18_000 * 0.001, "bucket " + t + ": " + h.total(t) + " requests over "
                    + h.coveredNanos(t) + " ns");
        }
        assertEquals(430_000_000L, h.coveredNanos(0), gap);
        assertEquals(S, h.coveredNanos(5));
        assertEquals(870_000_000L, h.coveredNanos(10), 2 * gap);
    }

    @Test
    void oneRequestAloneInTheLastBucketIsTheMeanRateNotAnInfiniteOne() {
        HeatmapAggregator h = new HeatmapAggregator(S, Latency.INTENDED);
        for (int i = 0; i < 100; i++) {
            h.add(i * 10_000_000L, 50_000, Outcome.OK); // 100/s from 0 to 0.99 s
        }
        h.add(S, 50_000, Outcome.OK);                   // and one more, alone at the start of the next bucket
        assertEquals(2, h.timeBuckets());
        assertEquals(1, h.total(1));
        assertEquals(100, h.ratePerSecond(1), 1);
        assertEquals(100, h.ratePerSecond(0), 1);
    }
}
