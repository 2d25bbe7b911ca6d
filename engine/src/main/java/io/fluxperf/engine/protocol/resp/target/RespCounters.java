package io.fluxperf.engine.protocol.resp.target;

import io.fluxperf.engine.target.LoopCounters;

/**
 * The embedded redis server's counters: calls, failed calls and rejected calls by verb, then the
 * server-wide stats, in one {@link LoopCounters} index space (see there for the threading
 * guarantees).
 */
final class RespCounters extends LoopCounters<RespCounters.Cell> {
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

    RespCounters() {
        super(COUNTERS, Cell::new);
    }

    /** Sums over all cells. */
    Snapshot sum() {
        return new Snapshot(snapshot());
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
    static final class Cell extends LoopCounters.Cell {
        private Cell() {
            super(COUNTERS);
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
    }
}
