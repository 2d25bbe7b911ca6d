package io.fluxperf.engine.protocol.memcache.target;

import io.fluxperf.engine.target.ByteKey;
import io.fluxperf.engine.target.StripedStore;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The items of an embedded memcache server: a {@link StripedStore} of {@link StoreSegment}s (a
 * memory-bounded LRU cache, safe for several event loops) with memcached's commands and a delayed
 * flush_all.
 *
 * <p>An item counts key + value + {@link #ITEM_OVERHEAD} bytes against the bound; the largest
 * item is one segment's share, larger ones are refused as memcached refuses items over its item
 * size limit. Times are wall-clock milliseconds, passed in by the caller (one clock read per read
 * batch rather than per command).
 */
final class MemcacheStore extends StripedStore<StoreSegment> {
    /**
     * Bytes an item counts beyond its key and value: about memcached's item header with cas, so
     * that a memory limit holds about as many items as memcached's {@code -m} would. (The JVM's
     * own cost per item is higher, about 150 bytes: size the heap for it.)
     */
    static final int ITEM_OVERHEAD = 56;
    /** memcached's KEY_MAX_LENGTH. */
    static final int MAX_KEY_LENGTH = 250;

    // storage modes
    static final int SET = 0;
    static final int ADD = 1;
    static final int REPLACE = 2;
    static final int APPEND = 3;
    static final int PREPEND = 4;
    static final int CAS = 5;

    // results
    static final int STORED = 0;
    static final int NOT_STORED = 1;
    static final int EXISTS = 2;
    static final int NOT_FOUND = 3;
    static final int OK = 4;
    static final int NON_NUMERIC = 5;

    private static final VarHandle FLUSH_AT;

    static {
        try {
            FLUSH_AT = MethodHandles.lookup().findVarHandle(MemcacheStore.class, "flushAtMillis", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** A delayed flush_all's deadline (wall-clock ms), 0 if none is pending. */
    private volatile long flushAtMillis;

    /** @param segmentCount a power of two; {@link #segmentsFor} picks one */
    MemcacheStore(long limitBytes, int segmentCount) {
        super(limitBytes, segmentCount, StoreSegment[]::new, StoreSegment::new);
    }

    /** The largest item (key + value + overhead) that can be stored: one segment's share of the limit. */
    long maxItemBytes() {
        return segmentBudget();
    }

    /** Whether an item with this key and value length can be stored at all. */
    boolean fits(int keyLength, long valueLength) {
        return keyLength + valueLength + ITEM_OVERHEAD <= segmentBudget();
    }

    Item get(ByteKey key, long now) {
        runDueFlush(now);
        return segment(key).get(key, now);
    }

    /** A look-up that does not count as a fetch (meta's me, a store reading back its cas). */
    Item peek(ByteKey key, long now) {
        runDueFlush(now);
        return segment(key).peek(key, now);
    }

    /** See {@link StoreSegment#metaGet}. */
    void metaGet(ByteKey key, boolean noUpdate, long newExpiry, boolean vivify, long vivifyExpiry, boolean binaryKey,
                 long now, MetaResult out) {
        runDueFlush(now);
        segment(key).metaGet(key, noUpdate, newExpiry, vivify, vivifyExpiry, binaryKey, now, out);
    }

    Item getAndTouch(ByteKey key, long expiresAtMillis, long now) {
        runDueFlush(now);
        return segment(key).getAndTouch(key, expiresAtMillis, now);
    }

    int store(int mode, ByteKey key, int flags, long expiresAtMillis, byte[] value, long casUnique, long now) {
        runDueFlush(now);
        return segment(key).store(mode, key, flags, expiresAtMillis, value, casUnique, now);
    }

    /** A meta set: see {@link StoreSegment#store(int, ByteKey, int, long, byte[], long, boolean, long, MetaResult)}. */
    int store(int mode, ByteKey key, int flags, long expiresAtMillis, byte[] value, long casUnique, boolean binaryKey,
              long now, MetaResult out) {
        runDueFlush(now);
        return segment(key).store(mode, key, flags, expiresAtMillis, value, casUnique, binaryKey, now, out);
    }

    boolean delete(ByteKey key, long now) {
        runDueFlush(now);
        return segment(key).delete(key, now);
    }

    int incrDecr(ByteKey key, boolean incr, long delta, long now, AsciiNumbers numbers) {
        runDueFlush(now);
        return segment(key).incrDecr(key, incr, delta, now, numbers);
    }

    /** A meta ma: see {@link StoreSegment#arithmetic}. */
    int arithmetic(ByteKey key, boolean incr, long delta, long requiredCas, long newExpiry, long now,
                   AsciiNumbers numbers, MetaResult out) {
        runDueFlush(now);
        return segment(key).arithmetic(key, incr, delta, requiredCas, newExpiry, now, numbers, out);
    }

    boolean touch(ByteKey key, long expiresAtMillis, long now) {
        return getAndTouch(key, expiresAtMillis, now) != null;
    }

    /**
     * flush_all: drops every item at {@code atMillis}, at once if that is not in the future. A new
     * flush_all replaces a pending one, as in memcached.
     */
    void flushAll(long atMillis, long now) {
        if (atMillis <= now) {
            flushAtMillis = 0;
            clearAll();
        } else {
            flushAtMillis = atMillis;
        }
    }

    /** Gauges and counters summed over the segments. */
    Totals totals() {
        Totals t = new Totals();
        for (StoreSegment s : segments) {
            s.addTotals(t);
        }
        return t;
    }

    /**
     * A delayed flush runs on the first command at or after its deadline, on whichever thread
     * brings it; the CAS makes exactly one thread run it. (An item stored concurrently by another
     * loop in that instant may be flushed too; memcached's own flush has one-second granularity.)
     */
    private void runDueFlush(long now) {
        long at = flushAtMillis;
        if (at != 0 && now >= at && FLUSH_AT.compareAndSet(this, at, 0L)) {
            clearAll();
        }
    }

    private void clearAll() {
        for (StoreSegment s : segments) {
            s.clear();
        }
    }

    /** Store-wide figures for stats. */
    static final class Totals {
        long items;
        long bytes;
        long evictions;
        long reclaimed;
        long expiredOnGet;
        long totalItems;
    }
}
