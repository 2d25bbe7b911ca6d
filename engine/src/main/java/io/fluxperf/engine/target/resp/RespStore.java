package io.fluxperf.engine.target.resp;

/**
 * The keyspace of an embedded redis server: {@value #DATABASES} databases in one memory-bounded
 * LRU store, safe for several event loops. Keys (with their database) are spread over
 * lock-striped {@link RespSegment}s, each with an equal share of the bound, so eviction is exact
 * LRU within a segment and approximately LRU overall (exact with one event loop, which has one
 * segment), like redis' {@code allkeys-lru}.
 *
 * <p>A command on one key holds that key's segment monitor throughout; a command on several keys
 * (MGET, MSET, DEL, EXISTS) takes them one key at a time, so it is not atomic across keys as it is
 * in redis (no client of a load generator can tell). Times are wall-clock milliseconds passed in
 * by the caller, one clock read per read batch.
 */
final class RespStore {
    static final int DATABASES = 16;
    /** Segments are made no smaller than this when the limit allows, so that large values fit. */
    private static final long MIN_SEGMENT_BYTES = 4L << 20;
    private static final int MAX_SEGMENTS = 64;

    private final RespSegment[] segments;
    private final int mask;
    private final long limitBytes;

    RespStore(long limitBytes, int segmentCount) {
        if (Integer.bitCount(segmentCount) != 1) {
            throw new IllegalArgumentException("segment count must be a power of two: " + segmentCount);
        }
        this.limitBytes = limitBytes;
        this.segments = new RespSegment[segmentCount];
        this.mask = segmentCount - 1;
        for (int i = 0; i < segmentCount; i++) {
            segments[i] = new RespSegment(limitBytes / segmentCount);
        }
    }

    /** One segment for one event loop (exact LRU), else about four per loop, none below 4 MiB if the limit allows. */
    static int segmentsFor(long limitBytes, int threads) {
        if (threads <= 1) {
            return 1;
        }
        int wanted = Integer.highestOneBit(Math.min(MAX_SEGMENTS, threads * 4 - 1)) << 1;
        long bySize = Math.max(1, limitBytes / MIN_SEGMENT_BYTES);
        int allowed = Integer.highestOneBit((int) Math.min(MAX_SEGMENTS, bySize));
        return Math.max(1, Math.min(Math.min(wanted, MAX_SEGMENTS), allowed));
    }

    long limitBytes() {
        return limitBytes;
    }

    /** The largest value (key and overhead included) that fits: one segment's share. */
    long maxEntryBytes() {
        return segments[0].budget();
    }

    RespSegment segment(RespKey key) {
        return segments[key.spreadHash() & mask];
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
