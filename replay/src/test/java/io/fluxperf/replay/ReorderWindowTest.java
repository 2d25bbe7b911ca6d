package io.fluxperf.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fluxperf.engine.log.LogEntry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The read-ahead lets out what a full sort of its contents would, whatever order entries come in. */
class ReorderWindowTest {
    private static final Comparator<LogEntry> ORDER =
            Comparator.<LogEntry>comparingLong(e -> e.sortKey).thenComparingLong(e -> e.sequence);

    /** Adds {@code keys} in turn, letting one out whenever {@code bound} are held, then drains; both ways. */
    private static void assertSameOrderAsASort(long[] keys, int bound) {
        LogEntry[] entries = new LogEntry[keys.length];
        ReorderWindow window = new ReorderWindow(entries);
        PriorityQueue<LogEntry> reference = new PriorityQueue<>(ORDER);
        List<Long> got = new ArrayList<>();
        List<Long> expected = new ArrayList<>();
        for (int i = 0; i < keys.length; i++) {
            LogEntry e = new LogEntry();
            e.sortKey = keys[i];
            e.sequence = i;
            entries[i] = e;
            window.add(i);
            reference.add(e);
            while (window.size() >= bound) {
                got.add(entries[window.poll()].sequence);
                expected.add(reference.poll().sequence);
            }
        }
        int i;
        while ((i = window.poll()) != ReorderWindow.NONE) {
            got.add(entries[i].sequence);
        }
        LogEntry e;
        while ((e = reference.poll()) != null) {
            expected.add(e.sequence);
        }
        assertEquals(expected, got);
        assertEquals(0, window.size());
        assertEquals(ReorderWindow.NONE, window.poll());
    }

    @Test
    void inOrderOutOfOrderAndTiedEntriesComeOutSorted() {
        SplittableRandom random = new SplittableRandom(3);
        int n = 20_000;
        long[] sorted = new long[n];
        long[] reversed = new long[n];
        long[] jittered = new long[n];
        long[] ties = new long[n];
        long[] shuffled = new long[n];
        for (int i = 0; i < n; i++) {
            sorted[i] = i * 10L;
            reversed[i] = (n - i) * 10L;
            jittered[i] = i * 10L + random.nextInt(-400, 400); // a few dozen places out of order
            ties[i] = i / 7;
            shuffled[i] = random.nextLong(1_000);
        }
        for (int bound : new int[] {1, 2, 100, 16_384, Integer.MAX_VALUE}) {
            for (long[] keys : new long[][] {sorted, reversed, jittered, ties, shuffled}) {
                assertSameOrderAsASort(keys, bound);
            }
        }
    }

    @Test
    void heldBytesFollowTheEntriesInTheWindow() {
        LogEntry[] entries = new LogEntry[2];
        ReorderWindow window = new ReorderWindow(entries);
        LogEntry a = new LogEntry();
        a.sortKey = 2;
        a.valueLogged = true;
        a.valueLength = 10;
        LogEntry b = new LogEntry();
        b.sortKey = 1;
        b.valueLogged = true;
        b.valueLength = 5; // out of order: held in the heap
        entries[0] = a;
        entries[1] = b;
        window.add(0);
        window.add(1);
        assertEquals(15, window.heldBytes());
        assertEquals(1, window.poll());
        assertEquals(10, window.heldBytes());
        assertEquals(0, window.poll());
        assertEquals(0, window.heldBytes());
    }
}
