package io.fluxperf.engine.trust;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The whole run's interval from the spread between seconds (batch means of the seconds' logarithms). */
class SecondsSpreadTest {
    private static final int P99 = 2;

    @Test
    void oneSlowSecondWidensTheIntervalByFactorsAndNeverToZero() {
        // a cold first second twelve times the rest, as a cold run shows it: an interval of amounts went to [0, …]
        long point = 111_000;
        long[] b = SecondsSpread.bounds(StabilityTest.seconds(1_200, 100, 100, 100, 100), -1, P99, point);
        assertTrue(b[0] > 0, "a latency interval above 0: [" + b[0] + ", " + b[1] + "]");
        assertTrue(b[0] < point && b[1] > point, b[0] + ", " + b[1]);
        // symmetric in factors: point / low = high / point
        assertEquals((double) point / b[0], (double) b[1] / point, 0.01);
    }

    @Test
    void steadySecondsLeaveThePointAndTooFewGiveNone() {
        assertArrayEquals(new long[] {400_000, 400_000},
                SecondsSpread.bounds(StabilityTest.seconds(400, 400, 400, 400), -1, P99, 400_000));
        assertNull(SecondsSpread.bounds(StabilityTest.seconds(400, 410), -1, P99, 400_000), "two seconds: no interval");
    }
}
