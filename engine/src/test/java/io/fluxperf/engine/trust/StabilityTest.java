package io.fluxperf.engine.trust;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The stability checks on per-second figures: an outlying start, trends across the run, drifts within a window. */
class StabilityTest {
    /** A whole second of {@code requests} with this p99 (µs), its interval about ±3 % as 20,000 requests give it. */
    static SecondSummary second(int window, int index, double p99Micros, long requests, long compileMillis) {
        long p99 = Math.round(p99Micros * 1000);
        return new SecondSummary(window, index * 1_000_000_000L, 1.0, requests,
                new long[] {p99 / 8, p99 / 3, p99, p99 * 2, p99 * 3}, Math.round(p99 * 0.97), Math.round(p99 * 1.03),
                compileMillis, List.of());
    }

    static List<SecondSummary> seconds(double... p99Micros) {
        List<SecondSummary> out = new ArrayList<>();
        for (int i = 0; i < p99Micros.length; i++) {
            out.add(second(1, i, p99Micros[i], 20_000, i == 0 ? 180 : 5));
        }
        return out;
    }

    @Test
    void aColdFirstSecondIsNamedWithWhatLeavesItOut() {
        Finding f = Stability.firstSeconds(seconds(1350, 430, 445, 420, 438), 0);
        assertEquals("the first second's p99 was 3.1x the rest's (the client was still compiling: --warmup 2 leaves it out)",
                f.text());
        assertEquals(1, Stability.outlyingStart(seconds(1350, 430, 445, 420, 438)));
        Finding after = Stability.firstSeconds(seconds(1350, 430, 445, 420, 438), 3);
        assertTrue(after.text().endsWith("--warmup 5 leaves it out)"), after.text());
    }

    @Test
    void aStartThatIsNotCompilingSaysSo() {
        List<SecondSummary> s = new ArrayList<>();
        double[] p99 = {2000, 1800, 430, 440, 420, 435, 428};
        for (int i = 0; i < p99.length; i++) {
            s.add(second(1, i, p99[i], 20_000, 2));
        }
        Finding f = Stability.firstSeconds(s, 0);
        assertEquals("the first 2 seconds' p99 was 4.4x the rest's (the client's compiler was quiet, so a cold server,"
                + " cache or connections: --warmup 3 leaves them out)", f.text());
    }

    @Test
    void aSteadyNoisyStartIsNotAnOutlier() {
        assertNull(Stability.firstSeconds(seconds(520, 430, 445, 420, 438), 0), "1.2x: within what seconds vary by");
        assertNull(Stability.firstSeconds(seconds(900, 400, 1200, 380, 1100), 0), "as bad as later seconds");
        assertNull(Stability.firstSeconds(seconds(2000, 400, 1200, 380, 3000, 500, 1900), 0), "the rest as noisy");
    }

    @Test
    void aStartWithTooFewSamplesIsNotJudged() {
        List<SecondSummary> s = new ArrayList<>();
        s.add(second(1, 0, 5000, 500, 100)); // p99 of 500 requests has 5 beyond it
        for (int i = 1; i < 5; i++) {
            s.add(second(1, i, 400, 500, 0));
        }
        assertNull(Stability.firstSeconds(s, 0));
    }

    @Test
    void aStallInOneSecondIsNeitherATrendNorAnOutlyingStart() {
        List<SecondSummary> s = seconds(430, 440, 425, 150_000, 435, 428, 431, 439, 426, 433, 437, 429);
        assertNull(Stability.firstSeconds(s, 0));
        assertTrue(Stability.trends(s, 0).isEmpty());
        assertTrue(Stability.windowDrift(1, s, interval(2_500_000, 2_400_000, 2_600_000), 240_000, 12).isEmpty());
    }

    @Test
    void aRisingP99IsATrend() {
        double[] p99 = new double[12];
        for (int i = 0; i < p99.length; i++) {
            p99[i] = 400 * Math.pow(1.06, i) * (i % 2 == 0 ? 1.02 : 0.98);
        }
        List<Finding> found = Stability.trends(seconds(p99), 0);
        assertEquals(1, found.size(), found.toString());
        assertEquals(Finding.Kind.P99_TREND, found.get(0).kind());
        assertTrue(found.get(0).text().startsWith("p99 rose from "), found.get(0).text());
        assertTrue(found.get(0).text().contains("over the run's 12 seconds (a trend: Mann-Kendall p < 0.0001)"), found.get(0).text());
    }

    @Test
    void aFallingRateIsATrend() {
        List<SecondSummary> s = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            s.add(second(1, i, 400, 50_000 - 1_000L * i, 0));
        }
        List<Finding> found = Stability.trends(s, 0);
        assertEquals(List.of(Finding.Kind.RATE_TREND), found.stream().map(Finding::kind).toList());
        assertEquals("the rate fell from 50,000/s to 41,000/s over the run's 10 seconds (a trend: Mann-Kendall p < 0.0001)",
                found.get(0).text());
    }

    @Test
    void aWindowWhoseP99DriftsBeyondItsIntervalIsFlagged() {
        List<SecondSummary> s = seconds(400, 430, 470, 510, 560, 600, 650);
        LatencyInterval window = interval(520_000, 510_000, 530_000);
        List<Finding> found = Stability.windowDrift(3, s, window, 140_000, 7);
        assertEquals(1, found.size(), found.toString());
        assertEquals(3, found.get(0).window());
        assertTrue(found.get(0).text().startsWith("p99 rose from "), found.get(0).text());
        assertTrue(found.get(0).text().contains("within the window, beyond its interval [510, 530]"), found.get(0).text());
        assertTrue(Stability.windowDrift(3, s.subList(0, 5), window, 100_000, 5).isEmpty(), "5 seconds are too few to tell");
    }

    static LatencyInterval interval(long value, long low, long high) {
        return new LatencyInterval(99, value, low, high, false, 1_000, 100_000);
    }
}
