package io.fluxperf.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.report.LatencySummary;
import io.fluxperf.trace.LatencyHistograms;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class CpuCourtesyTest {

    @AfterEach
    void stop() {
        CpuCourtesy.end();
    }

    private static void work(long nanos) {
        long until = System.nanoTime() + nanos;
        while (System.nanoTime() < until) {
            Thread.onSpinWait();
        }
    }

    @Test
    void theCourteousThreadYieldsOncePerSliceOfWork() {
        long start = System.nanoTime();
        CpuCourtesy.begin();
        CpuCourtesy.breathe();
        if (System.nanoTime() - start < CpuCourtesy.SLICE_NANOS) { // unless this thread lost its CPU meanwhile
            assertEquals(0, CpuCourtesy.yields(), "no yield before a slice of work");
        }
        for (int i = 0; i < 50; i++) {
            work(CpuCourtesy.SLICE_NANOS / 10);
            CpuCourtesy.breathe();
        }
        long slices = (System.nanoTime() - start) / CpuCourtesy.SLICE_NANOS;
        long yields = CpuCourtesy.yields();
        assertTrue(yields >= 1, "5 slices of work and no yield");
        assertTrue(yields <= slices, yields + " yields in " + slices + " slices");
    }

    @Test
    void otherThreadsNeverYieldAndEndStopsIt() throws Exception {
        CpuCourtesy.begin();
        Thread other = new Thread(() -> {
            work(3 * CpuCourtesy.SLICE_NANOS);
            CpuCourtesy.breathe();
            CpuCourtesy.end(); // not the courteous thread: changes nothing
        });
        other.start();
        other.join();
        assertEquals(0, CpuCourtesy.yields());
        work(2 * CpuCourtesy.SLICE_NANOS);
        CpuCourtesy.breathe();
        assertEquals(1, CpuCourtesy.yields(), "still the courteous thread after another's end()");
        CpuCourtesy.end();
        work(2 * CpuCourtesy.SLICE_NANOS);
        CpuCourtesy.breathe();
        assertEquals(1, CpuCourtesy.yields(), "yielded after end()");
    }

    @Test
    void aWindowsBookkeepingOffersTheCpuBetweenItsSteps() {
        Histogram h = LatencyHistograms.create();
        for (long v = 1_000; v < 10_000_000; v += 997) {
            h.recordValue(v);
        }
        CpuCourtesy.begin();
        work(2 * CpuCourtesy.SLICE_NANOS);
        LatencySummary.of(h);
        assertTrue(CpuCourtesy.yields() >= 1, "a summary after a slice of work did not yield");

        long before = CpuCourtesy.yields();
        work(2 * CpuCourtesy.SLICE_NANOS);
        WindowResult w = WindowResult.empty(1, 0, List.of());
        w.merge(0, w).compact();
        assertTrue(CpuCourtesy.yields() > before, "merging and keeping a window did not yield");
    }
}
