package io.fluxperf.engine.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Outcome;
import io.fluxperf.trace.LatencyHistograms;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Random;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** A kept window is small, and reports exactly what the window it was made from reports. */
class WindowResultCompactTest {
    private static WindowResult filledWindow() {
        List<WorkloadConfig> configs = List.of(WorkloadConfig.of(Command.GET), WorkloadConfig.of(Command.SET));
        WindowResult w = WindowResult.empty(3, 1_000, configs);
        Random random = new Random(7);
        Outcome[] outcomes = Outcome.values();
        for (int i = 0; i < 200_000; i++) {
            WorkloadStats s = w.workloads().get(i % 2);
            long latency = (long) Math.exp(random.nextGaussian() * 1.5 + 12); // tens of µs to tens of ms
            Outcome o = outcomes[random.nextInt(outcomes.length)];
            s.recordSent(30);
            s.record(o, latency + 500, latency, 70);
            s.recordReplyClass(2);
            w.total().recordSent(30);
            w.total().record(o, latency + 500, latency, 70);
            LatencyHistograms.record(w.sendLag(), latency / 100);
        }
        LatencyHistograms.record(w.connectLatency(), 123_456);
        w.connections().attempt();
        w.connections().opened();
        return w;
    }

    private static void assertSameDistribution(AbstractHistogram expected, AbstractHistogram actual, String what) {
        assertEquals(expected.getTotalCount(), actual.getTotalCount(), what + " count");
        for (double p : new double[] {0, 50, 90, 99, 99.9, 99.99, 100}) {
            assertEquals(expected.getValueAtPercentile(p), actual.getValueAtPercentile(p), what + " p" + p);
        }
        assertEquals(expected.getMean(), actual.getMean(), 1e-6, what + " mean");
        assertEquals(expected.getMaxValue(), actual.getMaxValue(), what + " max");
    }

    private static void assertSameStats(WorkloadStats expected, WorkloadStats actual, String what) {
        for (Outcome o : Outcome.values()) {
            assertEquals(expected.outcomes().get(o), actual.outcomes().get(o), what + " " + o);
        }
        assertSameDistribution(expected.latency(), actual.latency(), what + " latency");
        assertSameDistribution(expected.service(), actual.service(), what + " service");
        assertEquals(expected.sent(), actual.sent(), what + " sent");
        assertEquals(expected.bytesSent(), actual.bytesSent(), what + " bytes sent");
        assertEquals(expected.bytesReceived(), actual.bytesReceived(), what + " bytes received");
        assertEquals(expected.replyClass(2), actual.replyClass(2), what + " 2xx");
    }

    @Test
    void aCompactWindowReportsTheSameFigures() {
        WindowResult w = filledWindow();
        WindowResult c = w.compact();
        assertEquals(w.number(), c.number());
        assertEquals(w.seconds(), c.seconds());
        assertEquals(w.rate(), c.rate());
        for (int i = 0; i < 2; i++) {
            assertSameStats(w.workloads().get(i), c.workloads().get(i), "workload " + i);
        }
        assertSameStats(w.total(), c.total(), "total");
        assertSameDistribution(w.sendLag(), c.sendLag(), "send lag");
        assertSameDistribution(w.connectLatency(), c.connectLatency(), "connect");
        assertEquals(w.connections().openedCount(), c.connections().openedCount());
        WindowResult mergedFull = w.merge(0, w);
        WindowResult mergedCompact = c.merge(0, c);
        assertSameStats(mergedFull.total(), mergedCompact.total(), "merged");
    }

    @Test
    void aCompactWindowTakesAFractionOfTheMemory() {
        WindowResult w = filledWindow();
        WindowResult c = w.compact();
        long full = w.histogramBytes();
        long compact = c.histogramBytes();
        assertTrue(full > 8 * 270_000, "full " + full + " B"); // 8 histograms of the whole range
        assertTrue(compact * 10 < full, "compact " + compact + " B, full " + full + " B");
    }

    @Test
    void compactingAWindowOfTwentyWorkloadsMakesOneEncodingBuffer() {
        List<WorkloadConfig> configs = java.util.Collections.nCopies(20, WorkloadConfig.of(Command.GET));
        WindowResult w = WindowResult.empty(1, 1_000, configs);
        for (int i = 0; i < 20_000; i++) {
            w.workloads().get(i % 20).record(Outcome.OK, 10_000 + i, 9_000 + i, 70);
            w.total().record(Outcome.OK, 10_000 + i, 9_000 + i, 70);
            LatencyHistograms.record(w.sendLag(), i);
        }
        w.compact();
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = mx.getThreadAllocatedBytes(Thread.currentThread().getId());
        WindowResult c = w.compact();
        long allocated = mx.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
        // a buffer of the worst case per histogram (2W + 4 of them) was 12 MB of garbage per window end
        long histogram = w.sendLag().getEstimatedFootprintInBytes();
        assertTrue(allocated < 2 * histogram, allocated + " B allocated, against a histogram of " + histogram + " B");
        assertSameStats(w.workloads().get(19), c.workloads().get(19), "workload 19");
        assertSameStats(w.total(), c.total(), "total");
    }

    @Test
    void aCompactWindowIsReadOnlyAndKeepsNoLinkToTheOriginal() {
        WindowResult w = filledWindow();
        WindowResult c = w.compact();
        long lagCount = w.sendLag().getTotalCount();
        w.sendLag().recordValue(5);
        w.total().record(Outcome.OK, 1_000, 1_000, 1);
        assertEquals(lagCount, c.sendLag().getTotalCount());
        assertEquals(200_000, c.total().latency().getTotalCount());
        assertTrue(c.total().isKept());
        assertThrows(IllegalStateException.class, () -> c.total().add(w.total()));
        assertThrows(IllegalStateException.class, () -> c.total().reset());
        assertEquals(w.connectRate(), c.connectRate());
        WindowResult again = c.compact();
        assertSameDistribution(c.sendLag(), again.sendLag(), "kept twice");
    }

    @Test
    void aKeptHistogramKeepsItsTimesAndTag() {
        Histogram h = LatencyHistograms.create();
        h.recordValue(1);
        h.recordValue(LatencyHistograms.HIGHEST_TRACKABLE_NANOS);
        h.setStartTimeStamp(1_000);
        h.setEndTimeStamp(2_000);
        h.setTag("w3");
        KeptHistogram k = KeptHistogram.of(h);
        Histogram back = k.histogram();
        assertSameDistribution(h, back, "kept");
        assertEquals(1_000, back.getStartTimeStamp());
        assertEquals(2_000, back.getEndTimeStamp());
        assertEquals("w3", back.getTag());
        assertEquals(2, k.totalCount());
        assertEquals(h.getHighestTrackableValue(), back.getHighestTrackableValue());
        assertTrue(k.encodedBytes() < 1_000, k.encodedBytes() + " B");
    }
}
