package io.fluxperf.engine.metrics;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.trace.LatencyHistograms;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The busiest load loop's share of a window, kept through compacting and summed over a run. */
class WindowResultLoopCpuTest {
    private static final long SECOND = 1_000_000_000L;

    private static WindowResult window(long start, long end, long... loopCpu) {
        return new WindowResult(1, start, end, List.of(), List.of(), new WorkloadStats(), new ConnectionCounts(),
                LatencyHistograms.create(), LatencyHistograms.create(), -1, loopCpu);
    }

    @Test
    void theBusiestLoopDecides() {
        WindowResult w = window(0, 2 * SECOND, SECOND / 2, 19 * SECOND / 10);
        assertEquals(0.95, w.busiestLoopShare(), 1e-9);
        assertTrue(w.loopSaturated());
        assertFalse(window(0, 2 * SECOND, SECOND / 2, 17 * SECOND / 10).loopSaturated(), "0.85 of the window");
        assertTrue(window(0, SECOND, 9 * SECOND / 10).loopSaturated(), "0.90 is saturated");
    }

    @Test
    void unknownIsNeverSaturated() {
        assertEquals(-1, window(0, SECOND).busiestLoopShare());
        assertEquals(-1, window(0, SECOND, SECOND, -1).busiestLoopShare(), "one loop's time unknown");
        assertFalse(window(0, SECOND, SECOND, -1).loopSaturated());
    }

    @Test
    void aRunSumsEachLoopOverItsWindows() {
        WindowResult first = window(0, SECOND, SECOND, SECOND / 10);
        WindowResult second = window(SECOND, 2 * SECOND, SECOND / 10, SECOND / 5);
        WindowResult run = WindowResult.empty(0, 0, List.of()).merge(0, first).merge(0, second);
        assertArrayEquals(new long[] {11 * SECOND / 10, 3 * SECOND / 10}, run.loopCpuNanos());
        assertEquals(0.55, run.busiestLoopShare(), 1e-9, "loop 0 busy all of window 1 and a tenth of window 2");
        assertArrayEquals(first.loopCpuNanos(), first.compact().loopCpuNanos());
    }

    @Test
    void theRecordKeepsItsOwnCopy() {
        long[] given = {SECOND};
        WindowResult w = window(0, SECOND, given);
        given[0] = 0;
        w.loopCpuNanos()[0] = 0;
        assertEquals(1.0, w.busiestLoopShare(), 1e-9);
    }
}
