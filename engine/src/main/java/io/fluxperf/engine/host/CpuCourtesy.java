package io.fluxperf.engine.host;

import java.util.concurrent.TimeUnit;

/**
 * Lets the run's thread hand the client's CPU back to a paced load loop while it does a window's
 * bookkeeping (merging, encoding and summing histograms: 3–5 ms of CPU per window end, in steps of
 * 10–250 µs each).
 *
 * <p>Linux gives a runnable thread the CPU at a scheduler tick and lets it keep it until it blocks
 * or the next tick (4 ms at HZ=250), whatever its nice value; a loop that polls never blocks, so
 * it got the CPU back only at that next tick, and every request due meanwhile left late. A thread
 * that yields after each 100 µs of its work gives the CPU back at once (a C check on one CPU:
 * 8 ms of work at nice 19 took it from a spinning thread for 1–2 ms at a time without yields and
 * for 0.17 ms at most with them).
 *
 * <p>Only the thread that called {@link #begin()} ever yields; {@link #breathe()} costs any other
 * thread (a load loop calling the same histogram code) one volatile read.
 */
public final class CpuCourtesy {
    /** How long the courteous thread works before it offers the CPU back. */
    static final long SLICE_NANOS = TimeUnit.MICROSECONDS.toNanos(100);

    private static volatile Thread courteous;
    /** When the courteous thread last yielded; written by that thread only. */
    private static long sliceStart;
    private static long yields;

    private CpuCourtesy() {
    }

    /** From now on the calling thread yields in {@link #breathe()}; it replaces any earlier one. */
    public static void begin() {
        sliceStart = System.nanoTime();
        yields = 0;
        courteous = Thread.currentThread();
    }

    /** The calling thread stops yielding, if it was the courteous one. */
    public static void end() {
        if (courteous == Thread.currentThread()) {
            courteous = null;
        }
    }

    /**
     * Called between steps of bookkeeping that could run on the run's thread: yields once the
     * courteous thread has worked {@link #SLICE_NANOS} since its last yield; otherwise nothing.
     */
    public static void breathe() {
        if (Thread.currentThread() != courteous) {
            return;
        }
        long now = System.nanoTime();
        if (now - sliceStart >= SLICE_NANOS) {
            Thread.yield();
            yields++;
            sliceStart = System.nanoTime();
        }
    }

    /** Yields the courteous thread made since {@link #begin()} (for tests; read on that thread). */
    static long yields() {
        return yields;
    }
}
