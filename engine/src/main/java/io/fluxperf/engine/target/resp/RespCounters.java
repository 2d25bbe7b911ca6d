package io.fluxperf.engine.target.resp;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The embedded redis server's counters, kept per event loop so that counting costs a plain store:
 * each {@link Cell} is written by one thread only (the loop whose connections use it) and read by
 * any thread with opaque reads; a snapshot sums the cells.
 *
 * <p>Assumptions and guarantees: a connection uses the cell of its own event loop for its whole
 * life, from that loop's thread. Each counter read is a value the counter really had; a snapshot
 * of several counters is not atomic.
 */
final class RespCounters {
    /** Server-wide counters, named as in redis' INFO where redis has them. */
    enum Stat {
        CONNECTED_CLIENTS, TOTAL_CONNECTIONS_RECEIVED, TOTAL_COMMANDS_PROCESSED,
        TOTAL_NET_INPUT_BYTES, TOTAL_NET_OUTPUT_BYTES, KEYSPACE_HITS, KEYSPACE_MISSES,
        TOTAL_ERROR_REPLIES, UNKNOWN_COMMANDS
    }

    private static final int VERBS = RespVerb.VALUES.length;
    private static final int CALLS = 0;
    private static final int FAILED = VERBS;
    private static final int REJECTED = 2 * VERBS;
    private static final int STATS = 3 * VERBS;
    private static final int COUNTERS = STATS + Stat.values().length;
    /** Longs of padding on each side, so that two loops' cells never share a cache line. */
    private static final int PAD = 8;
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(long[].class);

    private final Map<Object, Cell> cells = new ConcurrentHashMap<>();

    /** The cell for one event loop (any object that identifies it). */
    Cell cellFor(Object eventLoop) {
        return cells.computeIfAbsent(eventLoop, k -> new Cell());
    }

    /** Sums over all cells. */
    Snapshot snapshot() {
        long[] sum = new long[COUNTERS];
        for (Cell c : cells.values()) {
            for (int i = 0; i < COUNTERS; i++) {
                sum[i] += (long) SLOT.getOpaque(c.slots, PAD + i);
            }
        }
        return new Snapshot(sum);
    }

    /** Summed counters at one moment. */
    record Snapshot(long[] values) {
        long calls(RespVerb v) {
            return values[CALLS + v.ordinal()];
        }

        long failed(RespVerb v) {
            return values[FAILED + v.ordinal()];
        }

        long rejected(RespVerb v) {
            return values[REJECTED + v.ordinal()];
        }

        long stat(Stat s) {
            return values[STATS + s.ordinal()];
        }

        /** This minus {@code base}, counter by counter (CONFIG RESETSTAT baselines). */
        Snapshot minus(Snapshot base) {
            long[] d = values.clone();
            for (int i = 0; i < d.length; i++) {
                d[i] -= base.values[i];
            }
            return new Snapshot(d);
        }
    }

    /** One event loop's counters; written only by that loop's thread. */
    static final class Cell {
        private final long[] slots = new long[PAD + COUNTERS + PAD];

        private Cell() {
        }

        void call(RespVerb v) {
            add(CALLS + v.ordinal(), 1);
        }

        void failed(RespVerb v) {
            add(FAILED + v.ordinal(), 1);
        }

        void rejected(RespVerb v) {
            add(REJECTED + v.ordinal(), 1);
        }

        void increment(Stat s) {
            add(STATS + s.ordinal(), 1);
        }

        void add(Stat s, long delta) {
            add(STATS + s.ordinal(), delta);
        }

        private void add(int i, long delta) {
            int slot = PAD + i;
            SLOT.setOpaque(slots, slot, (long) SLOT.getOpaque(slots, slot) + delta);
        }
    }
}
