package io.fluxperf.engine.metrics;

import java.util.List;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The threads' accounts of their schedule make the run's: counts add, stretches join where they overlap. */
class SendLatenessTest {
    private static final long MS = 1_000_000L;

    /** A thread's account: its longest stretch [start, start + length] ms, its largest lag (ms) due at {@code at} ms. */
    private static SendLateness thread(long paced, long late, long startMs, long lengthMs, long lagMs, long atMs, double cpu) {
        return new SendLateness(paced, late, lengthMs * MS, startMs * MS, startMs * MS + 7, lagMs * MS, atMs * MS,
                atMs * MS + 7, cpu);
    }

    @Test
    void countsAddAndTheLargestLagIsTheWorstThreads() {
        SendLateness run = SendLateness.merge(List.of(thread(100, 10, 0, 5, 4, 1, 0.3), thread(200, 30, 50, 5, 9, 52, 0.95),
                thread(50, 0, 0, 0, 0, 0, -1)));
        assertEquals(350, run.paced());
        assertEquals(40, run.late());
        assertEquals(40.0 / 350, run.lateShare(), 1e-12);
        assertEquals(9 * MS, run.maxLagNanos());
        assertEquals(52 * MS, run.maxLagAtNanos());
        assertEquals(52 * MS + 7, run.maxLagSourceNanos());
        assertEquals(0.95, run.maxLagCpuShare(), 0);
    }

    @Test
    void overlappingStretchesOfSeveralThreadsAreOneStretch() {
        // 10-40 ms on one thread, 30-70 ms on another: behind from 10 to 70 ms; a later 100-150 ms is shorter
        SendLateness run = SendLateness.merge(List.of(thread(10, 5, 30, 40, 2, 30, -1), thread(10, 5, 10, 30, 2, 10, -1),
                thread(10, 5, 100, 50, 2, 100, -1)));
        assertEquals(60 * MS, run.longestBehindNanos());
        assertEquals(10 * MS, run.longestBehindStartNanos());
        assertEquals(10 * MS + 7, run.longestBehindSourceNanos(), "where the joined stretch began in the source");
    }

    @Test
    void disjointStretchesStayApart() {
        SendLateness run = SendLateness.merge(List.of(thread(10, 5, 0, 20, 2, 0, -1), thread(10, 5, 21, 25, 2, 21, -1)));
        assertEquals(25 * MS, run.longestBehindNanos());
        assertEquals(21 * MS, run.longestBehindStartNanos());
    }

    @Test
    void nothingLateIsNothingBehind() {
        SendLateness run = SendLateness.merge(List.of(thread(10, 0, 0, 0, 0, 0, -1)));
        assertEquals(0, run.late());
        assertEquals(0, run.longestBehindNanos());
        assertEquals(-1, run.longestBehindSourceNanos());
        assertEquals(-1, run.maxLagCpuShare(), 0);
        assertEquals(0, SendLateness.merge(List.of()).lateShare(), 0);
    }
}
