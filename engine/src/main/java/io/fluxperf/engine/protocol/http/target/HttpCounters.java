package io.fluxperf.engine.protocol.http.target;

import io.fluxperf.engine.target.LoopCounters;
import java.util.Locale;

/**
 * The HTTP target's counters: requests by method, then the stats below, in one
 * {@link LoopCounters} index space (see there for the threading guarantees).
 */
final class HttpCounters extends LoopCounters<HttpCounters.Cell> {

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
    private static final int SIZE = VERBS + Stat.values().length;

    HttpCounters() {
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

        /** Counts a response of this status code in its class. */
        void status(int code) {
            int c = code / 100;
            if (c >= 1 && c <= 5) {
                add(VERBS + Stat.STATUS_1XX.ordinal() + c - 1, 1);
            }
        }
    }
}
