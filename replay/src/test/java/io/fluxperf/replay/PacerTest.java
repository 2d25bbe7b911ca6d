package io.fluxperf.replay;

import io.fluxperf.engine.log.LogEntry;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Send times from log times: speed, --max-wait, --rate-cap, --loop, late lines. */
class PacerTest {
    private static final long S = 1_000_000_000L;
    private static final long BASE = 1_700_000_000L * S;

    private static long at(Pacer p, long logNanos) {
        LogEntry e = new LogEntry();
        e.timeNanos = logNanos;
        p.schedule(e);
        assertTrue(e.scheduled);
        return e.offsetNanos;
    }

    @Test
    void originalTimingDividedBySpeed() {
        Pacer p = new Pacer(1, 0, 0);
        assertEquals(0, at(p, BASE + 5));
        assertEquals(S / 2, at(p, BASE + 5 + S / 2));
        assertEquals(3 * S, at(p, BASE + 5 + 3 * S));
        Pacer twice = new Pacer(2, 0, 0);
        assertEquals(0, at(twice, BASE));
        assertEquals(S, at(twice, BASE + 2 * S));
    }

    @Test
    void longGapsCutToMaxWait() {
        Pacer p = new Pacer(2, S, 0); // at 2x, a 10 s log gap is 5 s: cut to 1 s
        assertEquals(0, at(p, BASE));
        assertEquals(S / 2, at(p, BASE + S));
        assertEquals(S / 2 + S, at(p, BASE + 11 * S));
        assertEquals(S / 2 + S + S / 4, at(p, BASE + 11 * S + S / 2));
    }

    @Test
    void lateLinesGoAtOnceAndTimesNeverDecrease() {
        Pacer p = new Pacer(1, 0, 0);
        at(p, BASE);
        assertEquals(2 * S, at(p, BASE + 2 * S));
        assertEquals(2 * S, at(p, BASE + S));
        assertEquals(3 * S, at(p, BASE + 3 * S));
    }

    @Test
    void rateCapSpacesCommands() {
        Pacer p = new Pacer(1, 0, 1000);
        assertEquals(0, at(p, BASE));
        assertEquals(1_000_000, at(p, BASE), "capped: 1 ms after the previous");
        assertEquals(2_000_000, at(p, BASE + 1000));
        assertEquals(S, at(p, BASE + S));
        Pacer max = new Pacer(0, 0, 500);
        LogEntry e = new LogEntry();
        max.schedule(e);
        assertEquals(0, e.offsetNanos);
        max.schedule(e);
        assertEquals(2_000_000, e.offsetNanos);
    }

    @Test
    void maxSpeedHasNoSchedule() {
        Pacer p = new Pacer(0, 0, 0);
        LogEntry e = new LogEntry();
        e.timeNanos = BASE;
        p.schedule(e);
        assertFalse(e.scheduled);
        Pacer timed = new Pacer(1, 0, 0);
        LogEntry untimed = new LogEntry();
        timed.schedule(untimed);
        assertFalse(untimed.scheduled, "a stream without times goes as fast as allowed");
    }

    @Test
    void eachLoopStartsWhereThePreviousEnded() {
        Pacer p = new Pacer(1, 0, 0);
        p.newLoop();
        at(p, BASE);
        assertEquals(2 * S, at(p, BASE + 2 * S));
        p.newLoop();
        assertEquals(2 * S, at(p, BASE));
        assertEquals(4 * S, at(p, BASE + 2 * S));
    }
}
