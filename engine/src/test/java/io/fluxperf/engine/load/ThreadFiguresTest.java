package io.fluxperf.engine.load;

import java.util.List;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;

class ThreadFiguresTest {

    private static ThreadFigures takenAt(long nanos) {
        ThreadFigures f = ThreadFigures.interval(0, null);
        f.takenNanos = nanos;
        return f;
    }

    @Test
    void oneThreadsWindowEndsWhenItsLoopTookTheFigures() {
        assertEquals(5_000_000_123L, ThreadFigures.takenNanos(List.of(takenAt(5_000_000_123L))));
    }

    @Test
    void severalThreadsEndAtTheMeanOfTheirTimes() {
        assertEquals(1_000_200L, ThreadFigures.takenNanos(List.of(takenAt(1_000_000L), takenAt(1_000_600L), takenAt(1_000_000L))));
    }

    @Test
    void timesNearTheEndOfTheClocksRangeDoNotOverflow() {
        long late = Long.MAX_VALUE - 1_000;
        assertEquals(late + 300, ThreadFigures.takenNanos(List.of(takenAt(late), takenAt(late + 600))));
        // nanoTime may wrap: a later time can be a smaller long
        assertEquals(Long.MIN_VALUE + 99, ThreadFigures.takenNanos(List.of(takenAt(Long.MAX_VALUE - 100), takenAt(Long.MIN_VALUE + 299))));
    }
}
