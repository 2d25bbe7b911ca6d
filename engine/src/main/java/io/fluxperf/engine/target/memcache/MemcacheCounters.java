package io.fluxperf.engine.target.memcache;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The server's counters, kept per event loop so that counting costs a plain store: each
 * {@link Cell} is written by one thread only (the loop whose connections use it) and read by any
 * thread with opaque reads; a snapshot sums the cells.
 *
 * <p>Assumptions and guarantees: a connection uses the cell of its own event loop for its whole
 * life, from that loop's thread (Netty runs a channel's handlers and timers on its loop). Each
 * counter read is a value the counter really had; a snapshot of several counters is not atomic.
 */
final class MemcacheCounters {

    /** Commands by verb, for {@link io.fluxperf.engine.target.TargetStats#commands()}. */
    enum Verb {
        GET, GETS, GAT, GATS, SET, ADD, REPLACE, APPEND, PREPEND, CAS, DELETE, INCR, DECR, TOUCH,
        FLUSH_ALL, STATS, VERSION, VERBOSITY, QUIT,
        /** Unknown commands and lines memcached answers with ERROR. */
        ERROR;

        final String label = name().toLowerCase(Locale.ROOT);
    }

    /** memcached's stats counters (names as in its {@code stats} output). */
    enum Stat {
        CURR_CONNECTIONS, TOTAL_CONNECTIONS,
        CMD_GET, CMD_SET, CMD_FLUSH, CMD_TOUCH,
        GET_HITS, GET_MISSES,
        DELETE_MISSES, DELETE_HITS, INCR_MISSES, INCR_HITS, DECR_MISSES, DECR_HITS,
        CAS_MISSES, CAS_HITS, CAS_BADVAL, TOUCH_HITS, TOUCH_MISSES,
        STORE_TOO_LARGE,
        BYTES_READ, BYTES_WRITTEN;

        final String label = name().toLowerCase(Locale.ROOT);
    }

    private static final int VERBS = Verb.values().length;
    /** Longs of padding on each side of a cell's counters, so that two loops' cells never share a cache line. */
    private static final int PAD = 8;
    private static final int SIZE = PAD + VERBS + Stat.values().length + PAD;
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(long[].class);

    private final Map<Object, Cell> cells = new ConcurrentHashMap<>();

    /** The cell for one event loop (any object that identifies it). */
    Cell cellFor(Object eventLoop) {
        return cells.computeIfAbsent(eventLoop, k -> new Cell());
    }

    /** Sums over all cells: verb counts first, then stats, indexed by {@link #verbIndex} and {@link #statIndex}. */
    long[] snapshot() {
        long[] sum = new long[VERBS + Stat.values().length];
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

        private void add(int slot, long delta) {
            SLOT.setOpaque(slots, slot, (long) SLOT.getOpaque(slots, slot) + delta);
        }
    }
}
