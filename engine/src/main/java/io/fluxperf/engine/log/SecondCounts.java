package io.fluxperf.engine.log;

import java.util.Arrays;

/**
 * How many commands each whole second of a log holds, counted by a first pass over it, so that a
 * reader can spread a second's commands evenly over it (klog, Twitter's cache traces: their times
 * are whole seconds). Read-only once built and shared by every
 * pass and copy of a replay; a reader keeps its own place in each second ({@link #newCursor()}).
 * The seconds are kept sorted, so memory is proportional to the seconds the log holds (12 bytes
 * each), and a reader of a log in time order finds the next second without a search.
 */
public final class SecondCounts {
    private final long[] seconds;
    private final int[] counts;

    private SecondCounts(long[] seconds, int[] counts) {
        this.seconds = seconds;
        this.counts = counts;
    }

    /** Collects counts, one command at a time, in any order. */
    public static final class Builder {
        private long[] keys = new long[1024];
        private int[] values = new int[1024];
        private boolean[] used = new boolean[1024];
        private int size;
        private long last = Long.MIN_VALUE;
        private int lastSlot = -1;

        public void add(long second) {
            if (second == last) {
                values[lastSlot]++;
                return;
            }
            int mask = keys.length - 1;
            int i = (int) mix(second) & mask;
            while (used[i] && keys[i] != second) {
                i = (i + 1) & mask;
            }
            if (!used[i]) {
                used[i] = true;
                keys[i] = second;
                size++;
            }
            values[i]++;
            last = second;
            lastSlot = i;
            if (size * 2 > keys.length) {
                grow();
            }
        }

        public SecondCounts build() {
            long[] s = new long[size];
            int n = 0;
            for (int i = 0; i < keys.length; i++) {
                if (used[i]) {
                    s[n++] = keys[i];
                }
            }
            Arrays.sort(s);
            int[] c = new int[size];
            int mask = keys.length - 1;
            for (int k = 0; k < size; k++) {
                int i = (int) mix(s[k]) & mask;
                while (keys[i] != s[k] || !used[i]) {
                    i = (i + 1) & mask;
                }
                c[k] = values[i];
            }
            return new SecondCounts(s, c);
        }

        private void grow() {
            long[] oldKeys = keys;
            int[] oldValues = values;
            boolean[] oldUsed = used;
            keys = new long[oldKeys.length * 2];
            values = new int[oldKeys.length * 2];
            used = new boolean[oldKeys.length * 2];
            int mask = keys.length - 1;
            for (int j = 0; j < oldKeys.length; j++) {
                if (oldUsed[j]) {
                    int i = (int) mix(oldKeys[j]) & mask;
                    while (used[i]) {
                        i = (i + 1) & mask;
                    }
                    used[i] = true;
                    keys[i] = oldKeys[j];
                    values[i] = oldValues[j];
                }
            }
            last = Long.MIN_VALUE;
            lastSlot = -1;
        }

        private static long mix(long z) {
            z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
            return z ^ (z >>> 33);
        }
    }

    /**
     * The step that spreads each second's commands evenly over it in the log's order, the k-th of
     * n at k/n s, on a command whose time is its whole second: one pass's (its own place in each
     * second). A reader of the whole log applies it as it reads; a log read in parts applies it as
     * the parts are put back in order.
     */
    public InOrderStep spreading() {
        Cursor cursor = newCursor();
        return e -> {
            long t = e.timeNanos + cursor.next(Math.floorDiv(e.timeNanos, 1_000_000_000L));
            e.timeNanos = t;
            e.sortKey = t;
        };
    }

    /** Seconds that hold at least one command. */
    public int seconds() {
        return seconds.length;
    }

    /** A reader's own place in each second. */
    Cursor newCursor() {
        return new Cursor();
    }

    /**
     * Where in their second a reader's commands go: the k-th of n commands of a second at k/n of
     * it, in the order the reader meets them. Allocation-free; single-threaded (one reader's).
     */
    final class Cursor {
        private final int[] seen = new int[seconds.length];
        private long current = Long.MIN_VALUE;
        private int index = -1;

        /**
         * The offset into {@code second} of the next command of it, ns: 0 for the first, and for a
         * second the first pass did not count (the file changed between the passes).
         */
        long next(long second) {
            if (second != current) {
                current = second;
                index = find(second);
            }
            if (index < 0) {
                return 0;
            }
            int total = counts[index];
            int k = seen[index]++;
            if (total <= 1) {
                return 0;
            }
            return 1_000_000_000L * Math.min(k, total - 1) / total;
        }

        /** The second's index: the one after the current first (a log in time order), else a search. */
        private int find(long second) {
            int next = index + 1;
            if (next > 0 && next < seconds.length && seconds[next] == second) {
                return next;
            }
            int i = Arrays.binarySearch(seconds, second);
            return i >= 0 ? i : -1;
        }
    }
}
