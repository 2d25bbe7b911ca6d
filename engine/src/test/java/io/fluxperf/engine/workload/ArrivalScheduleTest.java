package io.fluxperf.engine.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.engine.config.Arrivals;
import java.lang.management.ManagementFactory;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The gaps between one thread's intended send times: their mean, spread and sum. */
class ArrivalScheduleTest {
    private static final int DRAWS = 200_000;
    private static final double RATE = 5_000;
    private static final int THREADS = 4;

    private static UniformRandomProvider rng(long seed) {
        return RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
    }

    /** Mean and standard deviation, in ns, of the gaps between {@link #DRAWS} + 1 successive times. */
    private static double[] gaps(Arrivals a, long seed) {
        ArrivalSchedule s = new ArrivalSchedule(a, RATE, 1, THREADS, rng(seed));
        long previous = s.take();
        double sum = 0;
        double squares = 0;
        for (int i = 0; i < DRAWS; i++) {
            long at = s.take();
            double gap = at - previous;
            assertTrue(gap >= 0, a + ": times never go back (" + gap + " ns)");
            sum += gap;
            squares += gap * gap;
            previous = at;
        }
        double mean = sum / DRAWS;
        return new double[] {mean, Math.sqrt(squares / DRAWS - mean * mean)};
    }

    @Test
    void smoothIsRequestNOverTheRateAsItAlwaysWas() {
        int threads = 3;
        double rate = 7_777.7;
        for (int thread = 0; thread < threads; thread++) {
            ArrivalSchedule s = new ArrivalSchedule(Arrivals.SMOOTH, rate, thread, threads, rng(1));
            for (long k = 0; k < 100_000; k++) {
                long n = k * threads + thread;
                assertEquals((double) n / rate, s.nextSeconds(), "the order key of request " + n);
                assertEquals((long) (n * 1e9 / rate), s.take(), "request " + n);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Arrivals.class)
    void everyDistributionKeepsTheMeanGapOfThreadsOverRate(Arrivals a) {
        double mean = THREADS * 1e9 / RATE;
        double[] g = gaps(a, 42);
        assertEquals(mean, g[0], mean * 0.01, a + ": mean gap");
        double expectedSd = switch (a) {
            case SMOOTH -> 0;
            case UNIFORM -> mean / Math.sqrt(3); // uniform on [0, 2m): sd 2m / √12
            case NORMAL -> mean / 4;
            case EXPONENTIAL -> mean;
        };
        assertEquals(expectedSd, g[1], Math.max(1, expectedSd * 0.02), a + ": standard deviation of the gaps");
    }

    @Test
    void exponentialGapsHaveACoefficientOfVariationOfOne() {
        for (long seed = 1; seed <= 3; seed++) {
            double[] g = gaps(Arrivals.EXPONENTIAL, seed);
            assertEquals(1.0, g[1] / g[0], 0.05, "CV, seed " + seed);
        }
    }

    @Test
    void normalGapsAreNeverNegativeAndRarelyFarOut() {
        ArrivalSchedule s = new ArrivalSchedule(Arrivals.NORMAL, RATE, 0, 1, rng(5));
        double mean = s.meanGapNanos();
        for (int i = 0; i < DRAWS; i++) {
            double gap = s.gapNanos();
            assertTrue(gap >= 0 && gap < mean * 3, "gap " + gap);
        }
    }

    @ParameterizedTest
    @EnumSource(Arrivals.class)
    void threadsTogetherKeepTheRateWithoutDrift(Arrivals a) {
        // an hour at 5,000/s over 4 threads: 18 million times; the last ones still sit where the
        // sum of the gaps puts them, within a whole-ns rounding of the start
        int threads = 4;
        long requests = 0;
        double seconds = 3600;
        for (int t = 0; t < threads; t++) {
            ArrivalSchedule s = new ArrivalSchedule(a, RATE, t, threads, rng(100 + t));
            while (s.nextSeconds() < seconds) {
                long at = s.take();
                assertTrue(at < seconds * 1e9 + 1, "no time is handed out past where nextSeconds put it");
                requests++;
            }
        }
        double expected = RATE * seconds;
        assertEquals(expected, requests, expected * 0.001, a + ": requests in an hour");
        if (a == Arrivals.SMOOTH) {
            assertEquals(expected, requests, 1, "smooth: exactly rate × time");
        }
    }

    @ParameterizedTest
    @EnumSource(Arrivals.class)
    void everyBlockEndsOnTheSmoothScheduleSoEachSecondHoldsTheRate(Arrivals a) {
        int threads = 2;
        ArrivalSchedule s = new ArrivalSchedule(a, RATE, 1, threads, rng(77));
        ArrivalSchedule smooth = new ArrivalSchedule(Arrivals.SMOOTH, RATE, 1, threads, rng(77));
        int[] perSecond = new int[60];
        for (int i = 0; i < RATE / threads * 60; i++) {
            long at = s.take();
            long expected = smooth.take();
            if (i % ArrivalSchedule.BLOCK == 0) {
                assertEquals(expected, at, 1, a + ": request " + i + " starts a block where the smooth schedule puts it");
            }
            if (at < 60e9) {
                perSecond[(int) (at / 1_000_000_000L)]++;
            }
        }
        for (int second = 0; second < 59; second++) {
            assertEquals(RATE / threads, perSecond[second], RATE / threads * 0.01, a + ": second " + second);
        }
    }

    @ParameterizedTest
    @EnumSource(Arrivals.class)
    void takingATimeAllocatesNothing(Arrivals a) {
        com.sun.management.ThreadMXBean bean = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        ArrivalSchedule s = new ArrivalSchedule(a, RATE, 0, 2, rng(9));
        long sink = 0;
        for (int i = 0; i < DRAWS; i++) { // compiled first
            sink += s.take() + (long) s.nextSeconds();
        }
        long before = bean.getThreadAllocatedBytes(Thread.currentThread().getId());
        for (int i = 0; i < DRAWS; i++) {
            sink += s.take() + (long) s.nextSeconds();
        }
        long allocated = bean.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
        assertTrue(allocated < DRAWS / 100, a + ": allocated " + allocated + " bytes for " + DRAWS + " times (" + sink + ")");
    }

    /**
     * Putting back the latest takes, newest first (a rate change gives back what was asked ahead),
     * and taking again gives the same times, also when the takes put back cross a block's end.
     */
    @ParameterizedTest
    @EnumSource(Arrivals.class)
    void takesPutBackComeAgainWithTheSameTimes(Arrivals a) {
        ArrivalSchedule s = new ArrivalSchedule(a, RATE, 1, THREADS, rng(21));
        int before = ArrivalSchedule.BLOCK - 10; // the takes put back span the first block's end
        for (int i = 0; i < before; i++) {
            s.take();
        }
        long[] first = new long[ArrivalSchedule.HISTORY];
        for (int i = 0; i < first.length; i++) {
            first[i] = s.take();
        }
        for (int i = 0; i < first.length; i++) {
            s.untake();
        }
        for (int i = 0; i < first.length; i++) {
            assertEquals(first[i], s.take(), a + ": take " + i + " after putting back " + first.length);
        }
        for (int i = 0; i < first.length; i++) {
            s.untake();
        }
        org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, s::untake,
                a + ": no more than " + ArrivalSchedule.HISTORY + " takes go back");
    }
}
