package io.fluxperf.testkit;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.engine.metrics.WindowResult;

/**
 * The rate check of a paced run in a test. An open loop never skips a request it is late for, so
 * a window can only be off by what lateness moves across its edges: requests still owed when it
 * ends (short), or owed from before it and sent in it (over), at most the loop's largest send lag
 * in the window times the rate. On a machine the whole suite keeps busy that lag reached 100–170 ms
 * in 2-s runs (4,770/s for 5,000/s), and a cold JVM's paced loop was still 250 ms behind after a
 * 1-s warm-up: machine faults, not pacing ones, so they are allowed for, up to a quarter of the
 * window; anything more is a pacing fault.
 */
public final class PacedRate {
    /** The rate must be within this fraction, besides what the lag excuses. */
    private static final double TOLERANCE = 0.02;
    /** The most of a window that lateness may excuse. */
    private static final double MOST_LATE = 0.25;

    private PacedRate() {
    }

    /** Asserts that {@code measured}/s is {@code expected}/s within 2 %, give or take what the window's send lag moved. */
    public static void assertHeld(double expected, double measured, WindowResult window, String what) {
        double lateSeconds = Math.min(window.sendLag().getMaxValue() / 1e9, MOST_LATE * window.seconds());
        double moved = expected * lateSeconds / window.seconds();
        assertTrue(Math.abs(measured - expected) <= expected * TOLERANCE + moved,
                what + ": " + Math.round(measured) + "/s against " + Math.round(expected) + "/s, with the loop at most "
                        + Math.round(window.sendLag().getMaxValue() / 1e6) + " ms late");
    }
}
