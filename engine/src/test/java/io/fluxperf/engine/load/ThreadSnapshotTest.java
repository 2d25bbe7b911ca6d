package io.fluxperf.engine.load;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fluxperf.engine.metrics.ConnectionCounts;
import io.fluxperf.engine.metrics.WorkloadStats;
import java.util.List;
import org.junit.jupiter.api.Test;

class ThreadSnapshotTest {

    private static ThreadSnapshot takenAt(long nanos) {
        return new ThreadSnapshot(new WorkloadStats[0], new ConnectionCounts(), null, null, -1, nanos);
    }

    @Test
    void oneThreadsWindowEndsWhenItsLoopTookTheFigures() {
        assertEquals(5_000_000_123L, ThreadSnapshot.takenNanos(List.of(takenAt(5_000_000_123L))));
    }

    @Test
    void severalThreadsEndAtTheMeanOfTheirTimes() {
        assertEquals(1_000_200L, ThreadSnapshot.takenNanos(List.of(takenAt(1_000_000L), takenAt(1_000_600L), takenAt(1_000_000L))));
    }

    @Test
    void timesNearTheEndOfTheClocksRangeDoNotOverflow() {
        long late = Long.MAX_VALUE - 1_000;
        assertEquals(late + 300, ThreadSnapshot.takenNanos(List.of(takenAt(late), takenAt(late + 600))));
        // nanoTime may wrap: a later time can be a smaller long
        assertEquals(Long.MIN_VALUE + 99, ThreadSnapshot.takenNanos(List.of(takenAt(Long.MAX_VALUE - 100), takenAt(Long.MIN_VALUE + 299))));
    }
}
