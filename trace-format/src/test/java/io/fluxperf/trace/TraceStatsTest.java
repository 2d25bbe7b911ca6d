package io.fluxperf.trace;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TraceStatsTest {

    @TempDir
    Path tmp;

    @Test
    void aMillionRecordsGiveTheSameCountsAndPercentilesAsAHistogramBuiltDirectly() {
        Path dir = tmp.resolve("million");
        int n = 1_000_000;
        TestTraces.write(dir, n);

        Histogram expected = LatencyHistograms.create();
        Histogram expectedService = LatencyHistograms.create();
        long[] outcomes = new long[Outcome.COUNT];
        long[] commands = new long[TestTraces.COMMANDS.size()];
        long counted = 0;
        TraceRecord r = new TraceRecord();
        for (long i = 0; i < n; i++) {
            TestTraces.fill(r, i);
            if (r.warmup()) {
                continue;
            }
            counted++;
            expected.recordValue(r.completionNanos() - r.intendedSendNanos());
            expectedService.recordValue(r.completionNanos() - r.actualSendNanos());
            outcomes[r.outcome()]++;
            commands[r.command()]++;
        }

        TraceStats stats;
        try (TraceReader reader = TraceReader.open(dir)) {
            stats = TraceStats.compute(reader, Latency.INTENDED, false);
        }
        assertEquals(counted, stats.requests());
        assertEquals(10, stats.warmupSkipped());
        assertEquals(expected, stats.histogram());
        assertEquals(expected.getTotalCount(), stats.requests(), "every counted request is in the histogram");
        for (double p : LatencyHistograms.PERCENTILES) {
            assertEquals(expected.getValueAtPercentile(p), stats.histogram().getValueAtPercentile(p));
        }
        assertEquals(expected.getMaxValue(), stats.histogram().getMaxValue());
        assertEquals(expected.getMean(), stats.histogram().getMean());
        long sum = 0;
        for (int o = 0; o < Outcome.COUNT; o++) {
            assertEquals(outcomes[o], stats.outcomeCount(o));
            sum += stats.outcomeCount(o);
        }
        assertEquals(stats.requests(), sum, "requests = sum of outcomes");
        for (int c = 0; c < commands.length; c++) {
            assertEquals(commands[c], stats.commandCount(c));
        }
        assertEquals((counted + 1) / 2, stats.workloadCount(0));
        assertEquals(10_000_000L, stats.firstSendNanos());
        assertTrue(stats.durationNanos() > 999_000_000_000L - 10_000_000L);
        assertEquals(stats.requests() * 1e9 / stats.durationNanos(), stats.ratePerSecond(), 1e-6);

        List<String> lines = stats.reportLines();
        String text = String.join("\n", lines);
        assertTrue(lines.contains("Requests: " + counted + " Ok: " + outcomes[0] + " Miss: " + outcomes[1] + " Error: "
                + outcomes[2] + " Timeout: " + outcomes[3] + " Closed: " + outcomes[4]), text);
        assertTrue(lines.contains("Percentiles: p50: " + expected.getValueAtPercentile(50) + " ns p90: "
                + expected.getValueAtPercentile(90) + " ns p99: " + expected.getValueAtPercentile(99) + " ns p999: "
                + expected.getValueAtPercentile(99.9) + " ns p9999: " + expected.getValueAtPercentile(99.99) + " ns"),
                text);
        assertTrue(lines.stream().anyMatch(l -> l.matches(
                "Latency: min: \\d+ ns max: \\d+ ns avg: \\d+ ns stddev: \\d+ ns")), text);
        assertTrue(lines.stream().anyMatch(l -> l.matches("Rate: \\d+ rps Success: \\d+\\.\\d\\d % Hitrate: \\d+\\.\\d\\d %")),
                text);
        assertTrue(lines.contains("Command get: Requests: " + commands[0] + " Ok: " + stats.commandCount(0, Outcome.OK)
                + " Miss: " + stats.commandCount(0, Outcome.MISS) + " Error: " + stats.commandCount(0, Outcome.ERROR)
                + " Timeout: " + stats.commandCount(0, Outcome.TIMEOUT) + " Closed: "
                + stats.commandCount(0, Outcome.CLOSED)), text);
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("Command mget: Requests: " + commands[3] + " ")), text);
        String writes = "Workload 1 (writes): Requests: " + stats.workloadCount(1) + " ";
        assertEquals(counted / 2, stats.workloadCount(1));
        assertTrue(lines.stream().anyMatch(l -> l.startsWith(writes)), text);
        assertTrue(lines.get(0).startsWith("Trace: " + dir + " format " + TraceHeader.FORMAT_VERSION + ", fluxperf 0.1.0-test, started 2023-11-14T22:13:20Z"),
                lines.get(0));

        try (TraceReader reader = TraceReader.open(dir)) {
            TraceStats service = TraceStats.compute(reader, Latency.SERVICE, false);
            assertEquals(expectedService, service.histogram());
        }
    }

    @Test
    void warmupCanBeIncludedAndOutOfRangeLatenciesAreClampedNotThrown() {
        TraceStats s = new TraceStats(TestTraces.header(), Latency.INTENDED, true);
        s.add(new TraceRecord().warmup(true).intendedSendNanos(0).actualSendNanos(0).completionNanos(5));
        s.add(new TraceRecord().intendedSendNanos(100).actualSendNanos(100).completionNanos(50)); // negative
        s.add(new TraceRecord().intendedSendNanos(0).actualSendNanos(0).completionNanos(7_200_000_000_000L));
        assertEquals(3, s.requests());
        assertEquals(0, s.warmupSkipped());
        assertEquals(2, s.clampedLatencies());
        assertEquals(0, s.histogram().getMinValue());
        assertTrue(s.histogram().valuesAreEquivalent(LatencyHistograms.HIGHEST_TRACKABLE_NANOS,
                s.histogram().getMaxValue()), "clamped to one hour");
    }
}
