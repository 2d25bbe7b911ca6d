package io.fluxperf.engine.target.http;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The HTTP target's counters, kept per event loop so that counting costs a plain store: each
 * {@link Cell} is written by one thread only (the loop whose connections use it) and read by any
 * thread with opaque reads; a snapshot sums the cells.
 *
 * <p>Assumptions and guarantees: a connection uses the cell of its own event loop for its whole
 * life, from that loop's thread. Each counter read is a value the counter really had; a snapshot
 * of several counters is not atomic.
 */
final class HttpCounters {

    /** Requests by method, for {@link io.fluxperf.engine.target.TargetStats#commands()}. */
    enum Verb {
        GET, HEAD, POST, PUT, DELETE,
        /** Other methods (answered 405) and requests that could not be parsed (400). */
        ERROR;

        final String label = name().toLowerCase(Locale.ROOT);
    }

    enum Stat {
        CURR_CONNECTIONS, TOTAL_CONNECTIONS,
        /** GETs of a path something was stored at. */
        GET_HITS,
        /** GETs answered with the generated body because nothing was stored there. */
        GET_MISSES,
        BYTES_READ, BYTES_WRITTEN,
        /** Responses by status class. */
        STATUS_1XX, STATUS_2XX, STATUS_3XX, STATUS_4XX, STATUS_5XX
    }

    private static final int VERBS = Verb.values().length;
    private static final int STATS = Stat.values().length;
    /** Longs of padding on each side of a cell's counters, so that two loops' cells never share a cache line. */
    private static final int PAD = 8;
    private static final int SIZE = PAD + VERBS + STATS + PAD;
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(long[].class);

    private final Map<Object, Cell> cells = new ConcurrentHashMap<>();

    Cell cellFor(Object eventLoop) {
        return cells.computeIfAbsent(eventLoop, k -> new Cell());
    }

    /** Sums over all cells: verbs first, then stats, indexed by {@link #verbIndex} and {@link #statIndex}. */
    long[] snapshot() {
        long[] sum = new long[VERBS + STATS];
        for (Cell c : cells.values()) {
            for (int i = 0; i < sum.length; i++) {
                sum[i] += (long) SLOT.getOpaque(c.slots, PAD + i);
            }
        }
        return sum;
    }

    static int verbIndex(Verb v) {
        return v.ordinal();
    }

    static int statIndex(Stat s) {
        return VERBS + s.ordinal();
    }

    /** One event loop's counters; written only by that loop's thread. */
    static final class Cell {
        private final long[] slots = new long[SIZE];

        private Cell() {
        }

        void count(Verb v) {
            add(PAD + v.ordinal(), 1);
        }

        void add(Stat s, long delta) {
            add(PAD + VERBS + s.ordinal(), delta);
        }

        void increment(Stat s) {
            add(PAD + VERBS + s.ordinal(), 1);
        }

        /** Counts a response of this status code in its class. */
        void status(int code) {
            int c = code / 100;
            if (c >= 1 && c <= 5) {
                add(PAD + VERBS + Stat.STATUS_1XX.ordinal() + c - 1, 1);
            }
        }

        private void add(int slot, long delta) {
            SLOT.setOpaque(slots, slot, (long) SLOT.getOpaque(slots, slot) + delta);
        }
    }
}
