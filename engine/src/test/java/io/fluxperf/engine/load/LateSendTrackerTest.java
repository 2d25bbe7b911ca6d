package io.fluxperf.engine.load;

import io.fluxperf.engine.metrics.SendLateness;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The schedule's account of one load thread, fed made-up sends at made-up times (ns on an
 * arbitrary clock) and a made-up CPU clock: counts, stretches, the largest lag and its CPU share
 * follow from the definitions exactly.
 */
class LateSendTrackerTest {
    private static final long MS = 1_000_000L;
    /** The schedule's zero, far from 0 so that offsets are really taken from it. */
    private static final long T0 = 5_000_000_000L;

    /** A CPU clock the test sets. */
    private long cpu;

    private LateSendTracker tracker() {
        LateSendTracker t = new LateSendTracker(() -> cpu);
        t.begin(T0, T0);
        return t;
    }

    @Test
    void onTimeSendsAreCountedAndNothingElse() {
        LateSendTracker t = tracker();
        for (int i = 0; i < 100; i++) {
            long due = T0 + i * MS;
            t.sent(due, i * MS, due + (i % 2 == 0 ? 0 : MS)); // exactly 1 ms late is not late
        }
        SendLateness l = t.snapshot();
        assertEquals(100, l.paced());
        assertEquals(0, l.late());
        assertEquals(0, l.longestBehindNanos());
        assertEquals(0, l.maxLagNanos());
        assertEquals(-1, l.maxLagCpuShare(), 0);
    }

    @Test
    void aStretchRunsFromTheFirstLateOnesDueTimeUntilTheLastLateOneLeft() {
        LateSendTracker t = tracker();
        t.sent(T0, 0, T0); // on time
        // a stall: the commands due at 10, 11, 12 ms leave at 40, 40.1, 40.2 ms
        t.sent(T0 + 10 * MS, 30 * MS, T0 + 40 * MS);
        t.sent(T0 + 11 * MS, 31 * MS, T0 + 40 * MS + 100_000);
        t.sent(T0 + 12 * MS, 32 * MS, T0 + 40 * MS + 200_000);
        t.sent(T0 + 50 * MS, 70 * MS, T0 + 50 * MS); // on time again: the stretch is over
        // a shorter one later
        t.sent(T0 + 60 * MS, 80 * MS, T0 + 65 * MS);
        t.sent(T0 + 70 * MS, 90 * MS, T0 + 70 * MS);
        SendLateness l = t.snapshot();
        assertEquals(7, l.paced());
        assertEquals(4, l.late());
        assertEquals(30 * MS + 200_000, l.longestBehindNanos(), "from 10 ms (due) to 40.2 ms (sent)");
        assertEquals(10 * MS, l.longestBehindStartNanos());
        assertEquals(30 * MS, l.longestBehindSourceNanos(), "the first late command's own time in its source");
        assertEquals(30 * MS, l.maxLagNanos());
        assertEquals(10 * MS, l.maxLagAtNanos());
        assertEquals(30 * MS, l.maxLagSourceNanos());
    }

    @Test
    void aStretchStillGoingOnAtTheEndCountsUpToItsLastLateSend() {
        LateSendTracker t = tracker();
        t.sent(T0 + MS, -1, T0 + 3 * MS);
        t.sent(T0 + 2 * MS, -1, T0 + 3 * MS);
        t.sent(T0 + 5 * MS, -1, T0 + 5 * MS); // ends a 2 ms stretch
        for (int i = 0; i < 10; i++) {
            t.sent(T0 + (10 + i) * MS, -1, T0 + (20 + 2 * i) * MS); // falling behind ever more, to the end
        }
        SendLateness l = t.snapshot();
        assertEquals(38 * MS - 10 * MS, l.longestBehindNanos(), "due at 10 ms, the last sent at 38 ms");
        assertEquals(10 * MS, l.longestBehindStartNanos());
        assertEquals(-1, l.longestBehindSourceNanos(), "a source without times of its own");
        assertEquals(19 * MS, l.maxLagNanos(), "the last one: due at 19 ms, sent at 38 ms");
        assertEquals(11, l.late(), "the one exactly 1 ms late is not");
    }

    @Test
    void theLargestLagsCpuShareIsMeasuredFromTheSampleBeforeItWasDue() {
        LateSendTracker t = tracker(); // sample at T0, CPU 0
        cpu = 25 * MS;
        t.tick(T0 + 25 * MS); // sample: 25 ms of CPU in 25 ms
        cpu = 35 * MS;
        t.tick(T0 + 40 * MS); // too soon after the last: no sample
        cpu = 50 * MS;
        t.tick(T0 + 50 * MS); // sample
        cpu = 55 * MS;
        // due at 30 ms (after the sample at 25 ms), sent at 75 ms: from 25 ms on, 30 of 50 ms on CPU
        t.sent(T0 + 30 * MS, -1, T0 + 75 * MS);
        assertEquals(0.6, t.snapshot().maxLagCpuShare(), 1e-9);
        // a larger lag within the next millisecond does not read the clock again: the share stays
        cpu = 56 * MS;
        t.sent(T0 + 30 * MS, -1, T0 + 75 * MS + 500_000);
        assertEquals(0.6, t.snapshot().maxLagCpuShare(), 1e-9);
        assertEquals(45 * MS + 500_000, t.snapshot().maxLagNanos());
        // one more than a millisecond later does: from the sample at 25 ms, 40 of 52 ms on CPU
        cpu = 65 * MS;
        t.sent(T0 + 30 * MS, -1, T0 + 77 * MS);
        assertEquals(40.0 / 52, t.snapshot().maxLagCpuShare(), 1e-9);
    }

    @Test
    void aLagLongerThanTheRingMeasuresFromTheOldestSampleKept() {
        LateSendTracker t = tracker();
        for (int i = 1; i <= LateSendTracker.SAMPLES + 10; i++) {
            cpu = i * 10 * MS; // on CPU 40 % of each 25 ms
            t.tick(T0 + i * LateSendTracker.SAMPLE_EVERY_NANOS);
        }
        long now = T0 + (LateSendTracker.SAMPLES + 10) * LateSendTracker.SAMPLE_EVERY_NANOS;
        t.sent(T0, -1, now); // due at the start, long before the oldest sample kept
        assertEquals(0.4, t.snapshot().maxLagCpuShare(), 1e-9);
    }

    @Test
    void theWarmUpsEndStartsTheCountAgain() {
        LateSendTracker t = tracker();
        t.sent(T0, -1, T0 + 5 * MS);
        t.clear(T0 + 6 * MS);
        t.sent(T0 + 10 * MS, -1, T0 + 10 * MS);
        SendLateness l = t.snapshot();
        assertEquals(1, l.paced());
        assertEquals(0, l.late());
        assertEquals(0, l.longestBehindNanos());
    }

    @Test
    void anUnknownCpuClockGivesAnUnknownShare() {
        LateSendTracker t = new LateSendTracker(() -> -1);
        t.begin(T0, T0);
        t.sent(T0, -1, T0 + 20 * MS);
        assertEquals(-1, t.snapshot().maxLagCpuShare(), 0);
        assertEquals(20 * MS, t.snapshot().maxLagNanos());
    }
}
