package io.fluxperf.engine.compare;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The bootstrap's figures, intervals and verdicts on seconds of known latency. */
class BootstrapTest {
    private static final double[] PS = {50, 90, 99, 99.9, 99.99};

    /** {@code n} seconds of {@code perSecond} latencies around {@code medianNanos} (log-normal spread), seeded. */
    static List<Histogram> seconds(int n, int perSecond, long medianNanos, long seed) {
        Random rnd = new Random(seed);
        List<Histogram> out = new ArrayList<>();
        for (int s = 0; s < n; s++) {
            Histogram h = new Histogram(3);
            // each second has its own level too, as a real run's seconds do
            double level = Math.exp(rnd.nextGaussian() * 0.03);
            for (int i = 0; i < perSecond; i++) {
                h.recordValue(Math.max(1, (long) (medianNanos * level * Math.exp(rnd.nextGaussian() * 0.3))));
            }
            out.add(h);
        }
        return out;
    }

    static SecondSeries series(List<Histogram> hs) {
        double[] lengths = new double[hs.size()];
        Arrays.fill(lengths, 1.0);
        return SecondSeries.of(hs, lengths);
    }

    @Test
    void figuresEqualThoseOfTheMergedHdrHistogram() {
        List<Histogram> hs = seconds(10, 2000, 1_000_000, 1);
        Histogram all = new Histogram(3);
        hs.forEach(all::add);
        double[] f = Bootstrap.figures(series(hs), PS);
        assertEquals(all.getTotalCount() / 10.0, f[0], 1e-9);
        for (int i = 0; i < PS.length; i++) {
            assertEquals(all.getValueAtPercentile(PS[i]), (long) f[1 + i], "p" + PS[i]);
        }
    }

    @Test
    void threeTimesTheLatencyIsSlowerWithAnIntervalAroundThree() {
        SecondSeries a = series(seconds(10, 2000, 1_000_000, 1));
        SecondSeries b = series(seconds(10, 2000, 3_000_000, 2));
        Bootstrap.Ratio p50 = Bootstrap.compare(a, b, PS, 1000, 7)[1];
        assertTrue(p50.low() > 2.7 && p50.high() < 3.3 && p50.low() <= p50.ratio() && p50.ratio() <= p50.high(), p50.toString());
        assertEquals(Verdict.SLOWER, Figure.P50.verdict(p50));
        assertEquals(Verdict.FASTER, Figure.P50.verdict(Bootstrap.compare(b, a, PS, 1000, 7)[1]));
    }

    @Test
    void aRunAgainstItselfShowsNoDifferenceInAnyFigure() {
        SecondSeries a = series(seconds(10, 2000, 1_000_000, 1));
        Bootstrap.Ratio[] r = Bootstrap.compare(a, a, PS, 1000, 7);
        for (Bootstrap.Ratio x : r) {
            assertEquals(1.0, x.ratio());
            assertTrue(x.low() <= 1 && x.high() >= 1, x.toString());
        }
        assertEquals(Verdict.NO_SIGNIFICANT_DIFFERENCE, Figure.P99.verdict(r[3]));
    }

    @Test
    void twoRunsOfTheSameServerMostlyShowNoDifference() {
        // same distribution, different draws: a 95% interval should contain 1 in most of 20 pairs
        int contained = 0;
        for (int k = 0; k < 20; k++) {
            SecondSeries a = series(seconds(10, 500, 1_000_000, 100 + k));
            SecondSeries b = series(seconds(10, 500, 1_000_000, 200 + k));
            Bootstrap.Ratio p50 = Bootstrap.compare(a, b, PS, 500, k)[1];
            contained += p50.low() <= 1 && p50.high() >= 1 ? 1 : 0;
        }
        assertTrue(contained >= 16, contained + " of 20 intervals held 1");
    }

    @Test
    void theSameSeedGivesTheSameInterval() {
        SecondSeries a = series(seconds(8, 1000, 1_000_000, 1));
        SecondSeries b = series(seconds(8, 1000, 1_100_000, 2));
        Bootstrap.Ratio x = Bootstrap.compare(a, b, PS, 500, 42)[3];
        Bootstrap.Ratio y = Bootstrap.compare(a, b, PS, 500, 42)[3];
        assertEquals(x, y);
    }

    @Test
    void aMinimumChangeKeepsSmallSignificantChangesFromAVerdict() {
        Bootstrap.Ratio small = new Bootstrap.Ratio(1.0, 1.01, 1.01, 1.004, 1.016);
        assertEquals(Verdict.SLOWER, Figure.P50.verdict(small, 0));
        assertEquals(Verdict.NO_SIGNIFICANT_DIFFERENCE, Figure.P50.verdict(small, 0.02));
        Bootstrap.Ratio large = new Bootstrap.Ratio(1.0, 0.9, 0.9, 0.88, 0.92);
        assertEquals(Verdict.FASTER, Figure.P50.verdict(large, 0.02));
        assertEquals(Verdict.SLOWER, Figure.REQUESTS_PER_SECOND.verdict(large, 0.02));
        assertEquals(Verdict.NO_SIGNIFICANT_DIFFERENCE, Figure.P50.verdict(large, 0.1));
    }

    @Test
    void tooFewSecondsForABootstrapLeaveThePercentilesTheirOrderStatistics() {
        SecondSeries a = series(seconds(2, 1000, 1_000_000, 1));
        SecondSeries b = series(seconds(2, 1000, 3_000_000, 2));
        Bootstrap.Ratio[] r = Bootstrap.compare(a, b, PS, 500, 1);
        assertEquals(Verdict.NO_INTERVAL, Figure.REQUESTS_PER_SECOND.verdict(r[0]), "requests/s has no other interval");
        Bootstrap.Ratio p50 = r[1];
        assertEquals(3.0, p50.ratio(), 0.3);
        assertEquals(Verdict.SLOWER, Figure.P50.verdict(p50), "2,000 samples bound each median: " + p50);
        assertTrue(p50.low() > 2 && p50.high() < 4, p50.toString());
    }

    @Test
    void longRunsAreResampledInBlocksThatKeepEveryCount() {
        List<Histogram> hs = seconds(700, 20, 1_000_000, 3);
        SecondSeries s = series(hs);
        SecondSeries b = s.blocks(300);
        assertTrue(b.size() <= 300, "blocks: " + b.size());
        long total = 0;
        double secs = 0;
        for (int i = 0; i < b.size(); i++) {
            total += b.total(i);
            secs += b.seconds(i);
        }
        assertEquals(700 * 20, total);
        assertEquals(700.0, secs, 1e-9);
        assertArrayEquals(Bootstrap.figures(s, PS), Bootstrap.figures(b, PS), 1e-9);
    }

    @Test
    void requestsPerSecondFollowsTheCounts() {
        SecondSeries a = series(seconds(10, 1000, 1_000_000, 1));
        SecondSeries b = series(seconds(10, 1500, 1_000_000, 2));
        Bootstrap.Ratio rate = Bootstrap.compare(a, b, PS, 500, 1)[0];
        assertEquals(1.5, rate.ratio(), 1e-9);
        assertEquals(Verdict.FASTER, Figure.REQUESTS_PER_SECOND.verdict(rate));
    }

    @Test
    void comparisonListsDifferingConfigKeysAndEveryFigure() {
        SecondSeries a = series(seconds(10, 1000, 1_000_000, 1));
        SecondSeries b = series(seconds(10, 1000, 3_000_000, 2));
        RunFigures ra = new RunFigures("A", "a", Map.of("get", new WorkloadSeries(a, a)), 5000.0,
                Map.of("general.rate", "1000", "general.threads", "1"));
        RunFigures rb = new RunFigures("B", "b", Map.of("get", new WorkloadSeries(b, b)), 6000.0,
                Map.of("general.rate", "2000", "general.threads", "1"));
        RunComparison c = RunComparison.of(List.of(ra, rb), 300, 1, 0);
        assertEquals(1, c.configDifferences().size());
        assertEquals("general.rate", c.configDifferences().get(0).key());
        assertEquals(List.of("1000", "2000"), c.configDifferences().get(0).values());
        RunComparison.WorkloadComparison get = c.byName().get("get");
        assertEquals(Figure.values().length, get.rows().size());
        for (RunComparison.Row row : get.rows()) {
            Verdict v = row.versus().get(0).verdict();
            switch (row.figure()) {
                case REQUESTS_PER_SECOND -> assertEquals(Verdict.NO_SIGNIFICANT_DIFFERENCE, v, row.toString());
                case CPU_PER_REQUEST -> {
                    assertEquals(Verdict.NO_INTERVAL, v);
                    assertEquals(1.2, row.versus().get(0).ratio(), 1e-9);
                }
                // 10,000 requests leave 1 beyond p9999: too few to claim a change of it
                case P9999 -> assertEquals(Verdict.FEW_SAMPLES, v, row.toString());
                default -> assertEquals(Verdict.SLOWER, v, row.toString());
            }
        }
        assertEquals(2, get.spectra().size());
        List<double[]> spectrum = get.spectra().get(0);
        assertEquals(100.0, spectrum.get(spectrum.size() - 1)[0]);
        assertTrue(spectrum.size() > 30, "ten points per nine up to 99.99%: " + spectrum.size());
    }
}
