package io.fluxperf.engine.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.trace.LatencyHistograms;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run directory writes an interval a second while it measures: each must cost little garbage. */
class IntervalLogTest {
    @Test
    void intervalsReadBackAsWrittenAndAnIntervalAllocatesFarLessThanAHistogram(@TempDir Path dir) throws Exception {
        Histogram h = LatencyHistograms.create();
        for (long v = 1_000; v < 5_000_000_000L; v = v * 11 / 10) {
            h.recordValue(v);
        }
        long base = 1_796_000_000_000L;
        Path file = dir.resolve("seconds.hlog");
        int intervals = 200;
        long allocated;
        try (IntervalLog log = IntervalLog.create(file, base, "test")) {
            for (int i = 0; i < 20; i++) { // the scratch copy and buffers made, the code compiled
                log.interval((base + i * 1000L) * 1_000_000L, (base + i * 1000L + 1000) * 1_000_000L, i % 2 == 0 ? "a" : "b", h);
            }
            com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            long before = mx.getThreadAllocatedBytes(Thread.currentThread().getId());
            for (int i = 20; i < intervals; i++) {
                log.interval((base + i * 1000L) * 1_000_000L, (base + i * 1000L + 1000) * 1_000_000L, i % 2 == 0 ? "a" : "b", h);
            }
            allocated = (mx.getThreadAllocatedBytes(Thread.currentThread().getId()) - before) / (intervals - 20);
        }
        // a copy of the histogram each time (its counts and its encoding buffer) was twice its size
        long histogramBytes = h.getEstimatedFootprintInBytes();
        assertTrue(allocated < histogramBytes / 4, allocated + " bytes an interval, against a histogram of " + histogramBytes);

        List<EncodableHistogram> read = new ArrayList<>();
        try (HistogramLogReader reader = new HistogramLogReader(Files.newInputStream(file))) {
            for (EncodableHistogram e; (e = reader.nextIntervalHistogram()) != null; ) {
                read.add(e);
            }
        }
        assertEquals(intervals, read.size());
        Histogram last = (Histogram) read.get(intervals - 1);
        assertEquals("b", last.getTag());
        assertEquals(h.getTotalCount(), last.getTotalCount());
        assertEquals(h.getValueAtPercentile(99), last.getValueAtPercentile(99));
        assertEquals(base + (intervals - 1) * 1000L, last.getStartTimeStamp());
    }
}
