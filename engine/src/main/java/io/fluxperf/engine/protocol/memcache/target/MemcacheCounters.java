package io.fluxperf.engine.protocol.memcache.target;

import io.fluxperf.engine.target.LoopCounters;
import java.util.Locale;

/**
 * The memcache server's counters: commands by verb, then memcached's stats, in one
 * {@link LoopCounters} index space (see there for the threading guarantees).
 */
final class MemcacheCounters extends LoopCounters<MemcacheCounters.Cell> {

    /** Commands by verb, for {@link io.fluxperf.engine.target.TargetStats#commands()}. */
    enum Verb {
        GET, GETS, GAT, GATS, SET, ADD, REPLACE, APPEND, PREPEND, CAS, DELETE, INCR, DECR, TOUCH,
        FLUSH_ALL, STATS, VERSION, VERBOSITY, QUIT,
        /** The meta commands. */
        MG, MS, MD, MA, MN, ME,
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
    private static final int SIZE = VERBS + Stat.values().length;

    MemcacheCounters() {
        super(SIZE, Cell::new);
    }

    static int verbIndex(Verb v) {
        return v.ordinal();
    }

    static int statIndex(Stat s) {
        return VERBS + s.ordinal();
    }

    /** One event loop's counters; written only by that loop's thread. */
    static final class Cell extends LoopCounters.Cell {
        private Cell() {
            super(SIZE);
        }

        void count(Verb v) {
            add(v.ordinal(), 1);
        }

        void add(Stat s, long delta) {
            add(VERBS + s.ordinal(), delta);
        }

        void increment(Stat s) {
            add(VERBS + s.ordinal(), 1);
        }
    }
}
