package io.fluxperf.engine.host;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
}
