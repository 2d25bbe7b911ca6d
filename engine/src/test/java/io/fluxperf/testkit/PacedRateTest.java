package io.fluxperf.testkit;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.fluxperf.engine.metrics.ConnectionCounts;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.metrics.WorkloadStats;
import io.fluxperf.trace.LatencyHistograms;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The paced-rate check excuses only what the loop's lateness moved across the window's edges. */
class PacedRateTest {
    private static WindowResult twoSecondsLate(long lagMillis) {
        Histogram lag = LatencyHistograms.create();
        lag.recordValue(lagMillis * 1_000_000L);
        return new WindowResult(1, 0, 2_000_000_000L, List.of(), List.of(), new WorkloadStats(), new ConnectionCounts(),
                lag, LatencyHistograms.create(), 0, new long[0]);
    }

    @Test
    void withinTwoPercentHolds() {
        assertDoesNotThrow(() -> PacedRate.assertHeld(5000, 4910, twoSecondsLate(0), "rate"));
        assertDoesNotThrow(() -> PacedRate.assertHeld(5000, 5090, twoSecondsLate(0), "rate"));
    }

    @Test
    void aShortfallIsExcusedOnlyByAsMuchLateness() {
        // 100 ms late at the end of 2 s: 5 % of the requests still owed
        assertDoesNotThrow(() -> PacedRate.assertHeld(5000, 4660, twoSecondsLate(100), "rate"));
        assertThrows(AssertionError.class, () -> PacedRate.assertHeld(5000, 4600, twoSecondsLate(100), "rate"));
        assertThrows(AssertionError.class, () -> PacedRate.assertHeld(5000, 4660, twoSecondsLate(1), "rate"));
    }

    @Test
    void latenessExcusesAtMostAQuarterOfTheWindow() {
        assertThrows(AssertionError.class, () -> PacedRate.assertHeld(5000, 3500, twoSecondsLate(1500), "rate"));
    }

    @Test
    void anExcessIsExcusedOnlyByAsMuchLateness() {
        // 100 ms of requests owed from before the window, sent in it
        assertDoesNotThrow(() -> PacedRate.assertHeld(5000, 5340, twoSecondsLate(100), "rate"));
        assertThrows(AssertionError.class, () -> PacedRate.assertHeld(5000, 5340, twoSecondsLate(1), "rate"));
        assertThrows(AssertionError.class, () -> PacedRate.assertHeld(5000, 6500, twoSecondsLate(1500), "rate"));
    }
}
