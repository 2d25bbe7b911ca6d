package io.fluxperf.replay.profile;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * How often each value occurred (a size, a TTL, a second): an open-addressing table of
 * {@code long → long}, allocation-free once it has grown to the distinct values of the log
 * (there are few: sizes and TTLs come in thousands, seconds in a week's 604,800).
 * Single-threaded.
 */
final class Counts {
    private long[] keys = new long[256];
    private long[] values = new long[256];
    private boolean[] used = new boolean[256];
    private int size;
    private long total;

    void add(long key) {
        add(key, 1);
    }

    void add(long key, long n) {
        int mask = keys.length - 1;
        int i = slot(key, mask);
        while (used[i] && keys[i] != key) {
            i = (i + 1) & mask;
        }
        if (!used[i]) {
            used[i] = true;
            keys[i] = key;
            if (++size * 2 > keys.length) {
                values[i] += n;
                total += n;
                grow();
                return;
            }
        }
        values[i] += n;
        total += n;
    }

    /** Occurrences in all. */
    long total() {
        return total;
    }

    /** Distinct values. */
    int size() {
        return size;
    }

    /** Value → occurrences, by value. */
    TreeMap<Long, Long> sorted() {
        TreeMap<Long, Long> out = new TreeMap<>();
        for (int i = 0; i < keys.length; i++) {
            if (used[i]) {
                out.put(keys[i], values[i]);
            }
        }
        return out;
    }

    /**
     * Mean, p50, p99 and max of the values, each occurring as often as counted; null when there
     * are none. A percentile is nearest-rank: pN is the smallest value v such that at least N % of
     * the occurrences are at most v.
     */
    SizeSummary summary() {
        if (total == 0) {
            return null;
        }
        double sum = 0;
        long p50 = -1;
        long p99 = -1;
        long max = 0;
        long seen = 0;
        long rank50 = rank(50);
        long rank99 = rank(99);
        for (Map.Entry<Long, Long> e : sorted().entrySet()) {
            sum += (double) e.getKey() * e.getValue();
            seen += e.getValue();
            if (p50 < 0 && seen >= rank50) {
                p50 = e.getKey();
            }
            if (p99 < 0 && seen >= rank99) {
                p99 = e.getKey();
            }
            max = e.getKey();
        }
        return new SizeSummary(sum / total, p50, p99, max);
    }

    /** The nearest rank of the {@code percent}-th percentile: ⌈percent · n / 100⌉, at least 1 (exact in integers). */
    private long rank(int percent) {
        return Math.max(1, (total * percent + 99) / 100);
    }

    private static int slot(long key, int mask) {
        long z = key * 0x9e3779b97f4a7c15L;
        return (int) (z ^ (z >>> 32)) & mask;
    }

    private void grow() {
        long[] oldKeys = keys;
        long[] oldValues = values;
        boolean[] oldUsed = used;
        keys = new long[oldKeys.length * 2];
        values = new long[oldKeys.length * 2];
        used = new boolean[oldKeys.length * 2];
        int mask = keys.length - 1;
        for (int j = 0; j < oldKeys.length; j++) {
            if (oldUsed[j]) {
                int i = slot(oldKeys[j], mask);
                while (used[i]) {
                    i = (i + 1) & mask;
                }
                used[i] = true;
                keys[i] = oldKeys[j];
                values[i] = oldValues[j];
            }
        }
    }

    @Override
    public String toString() {
        return "Counts" + Arrays.toString(sorted().entrySet().toArray());
    }
}
