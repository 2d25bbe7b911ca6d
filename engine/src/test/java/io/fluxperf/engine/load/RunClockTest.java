package io.fluxperf.engine.load;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The run's clock ends every load thread's interval within {@link ThreadFigures#MAX_INTERVAL_NANOS}
 * even when no job is due (a run without live line or run directory, in a long window): the
 * threads count their histograms in ints, which such an interval could otherwise overflow.
 */
@Tag("timing")
class RunClockTest {

    /** A load thread that hands out its figures at once, stamped with the time it took them. */
    private static final class InstantThread implements RunClock.LoadThread {
        private ThreadFigures current = newFigures();

        @Override
        public CompletableFuture<ThreadFigures> swap(ThreadFigures spare, boolean endWarmup) {
            ThreadFigures out = current;
            current = spare;
            out.takenNanos = System.nanoTime();
            return CompletableFuture.completedFuture(out);
        }

        @Override
        public ThreadFigures newFigures() {
            return ThreadFigures.interval(1, null);
        }
    }

    @Test
    void noIntervalOutlastsItsBoundWhenNoJobIsDue() {
        RunClock clock = new RunClock(List.of(new InstantThread(), new InstantThread()), () -> { }, LockSupport::parkNanos);
        List<long[]> intervals = new ArrayList<>();
        clock.register(new IntervalConsumer() { // a window's sum: it adds every interval and is never due
            @Override
            public void add(Interval interval) {
                intervals.add(new long[] {interval.startNanos(), interval.endNanos()});
            }
        });
        long start = System.nanoTime();
        long runFor = ThreadFigures.MAX_INTERVAL_NANOS * 5 / 2;
        assertNull(clock.runUntil(start + runFor, now -> null));
        assertTrue(intervals.size() >= 2, intervals.size() + " intervals in " + runFor / 1e9 + " s");
        // the run's thread may wake late on a loaded machine: half a second of slack, not another bound's worth
        long slack = TimeUnit.MILLISECONDS.toNanos(500);
        for (long[] i : intervals) {
            assertTrue(i[1] - i[0] <= ThreadFigures.MAX_INTERVAL_NANOS + slack, "an interval of " + (i[1] - i[0]) / 1e9 + " s");
        }
    }
}
