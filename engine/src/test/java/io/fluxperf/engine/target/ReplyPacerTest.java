package io.fluxperf.engine.target;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The release-time arithmetic behind the test knobs, on a synthetic clock. */
class ReplyPacerTest {
    private static final long MS = 1_000_000L;

    @Test
    void noKnobsMeansNoPacer() {
        assertNull(ReplyPacer.of(TargetOptions.defaults(), 0));
    }

    @Test
    void aDelayIsCountedFromArrivalNotFromWhenTheReplyIsReady() {
        ReplyPacer p = new ReplyPacer(2 * MS, 0, 0, 0);
        assertEquals(12 * MS, p.releaseTime(10 * MS, 10 * MS + 300_000));
        assertEquals(15 * MS, p.releaseTime(10 * MS, 15 * MS), "a reply ready after its due time goes at once");
    }

    @Test
    void aStallHoldsRepliesDueInsideItUntilItEnds() {
        // stalls of 100 ms at 300, 600, 900 ms after the origin (1000 ms)
        ReplyPacer p = new ReplyPacer(0, 300 * MS, 100 * MS, 1000 * MS);
        assertEquals(1100 * MS, p.releaseTime(1100 * MS, 1100 * MS), "no stall in the first period");
        assertEquals(1299 * MS, p.releaseTime(1299 * MS, 1299 * MS));
        assertEquals(1400 * MS, p.releaseTime(1300 * MS, 1300 * MS), "held from the stall's start");
        assertEquals(1400 * MS, p.releaseTime(1399 * MS, 1399 * MS));
        assertEquals(1400 * MS, p.releaseTime(1400 * MS, 1400 * MS), "free at its end");
        assertEquals(1700 * MS, p.releaseTime(1650 * MS, 1650 * MS), "every period");
    }

    @Test
    void releaseTimesNeverGoBackwardsSoAConnectionKeepsItsOrder() {
        ReplyPacer p = ReplyPacer.of(TargetOptions.builder().responseDelay(Duration.ofMillis(3))
                .stall(Duration.ofMillis(7), Duration.ofMillis(2)).build(), 0);
        long previous = Long.MIN_VALUE;
        for (long t = 0; t < 100 * MS; t += 37_000) {
            long r = p.releaseTime(t, t);
            assertTrue(r >= previous, "release at " + r + " after " + previous);
            assertTrue(r >= t + 3 * MS);
            previous = r;
        }
    }
}
