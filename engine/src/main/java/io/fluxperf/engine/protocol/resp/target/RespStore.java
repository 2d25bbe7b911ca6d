package io.fluxperf.engine.protocol.resp.target;

import io.fluxperf.engine.target.StripedStore;

/**
 * The keyspace of an embedded redis server: {@value #DATABASES} databases in one
 * {@link StripedStore} of {@link RespSegment}s (memory-bounded, safe for several event loops), so
 * eviction is exact LRU within a segment and approximately LRU overall (exact with one event loop,
 * which has one segment), like redis' {@code allkeys-lru}.
 *
 * <p>A command on one key holds that key's segment monitor throughout; a command on several keys
 * (MGET, MSET, DEL, EXISTS) takes them one key at a time, so it is not atomic across keys as it is
 * in redis (no client of a load generator can tell). Times are wall-clock milliseconds passed in
 * by the caller, one clock read per read batch.
 */
final class RespStore extends StripedStore<RespSegment> {
    static final int DATABASES = 16;

    /** @param segmentCount a power of two; {@link #segmentsFor} picks one */
    RespStore(long limitBytes, int segmentCount) {
        super(limitBytes, segmentCount, RespSegment[]::new, (budget, index, bits) -> new RespSegment(budget));
    }

    /** The largest value (key and overhead included) that fits: one segment's share. */
    long maxEntryBytes() {
        return segmentBudget();
    }

    /** FLUSHDB ({@code db} ≥ 0) or FLUSHALL (-1). */
    void flush(int db) {
        for (RespSegment s : segments) {
            s.clear(db);
        }
    }

    long dbSize(int db) {
        long n = 0;
        for (RespSegment s : segments) {
            synchronized (s) {
                n += s.keys(db);
            }
        }
        return n;
    }

    Totals totals() {
        Totals t = new Totals();
        for (RespSegment s : segments) {
            s.addTotals(t);
        }
        return t;
    }

    /** Keys and keys with an expiry, per database (INFO keyspace). */
    long[][] keyspace() {
        long[] keys = new long[DATABASES];
        long[] expires = new long[DATABASES];
        for (RespSegment s : segments) {
            s.addKeyspace(keys, expires);
        }
        return new long[][] {keys, expires};
    }

    /** Store-wide figures. */
    static final class Totals {
        long keys;
        long bytes;
        long evictions;
        long expired;
    }
}
