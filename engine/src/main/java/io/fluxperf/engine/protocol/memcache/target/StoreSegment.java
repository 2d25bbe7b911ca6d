package io.fluxperf.engine.protocol.memcache.target;

import io.fluxperf.engine.target.ByteKey;
import io.fluxperf.engine.target.LruSegment;

/**
 * One lock stripe of the {@link MemcacheStore}: an {@link LruSegment} of items with memcached's
 * storage rules. Every method holds the segment's monitor, so the event loops that share the
 * store only contend when their keys fall in the same segment.
 *
 * <p>An item counts key length + value length + {@link MemcacheStore#ITEM_OVERHEAD} against the
 * budget. Removed expired items count as memcached's {@code reclaimed} ({@link #expired}), those
 * a get found also in {@code expiredOnGet}.
 */
final class StoreSegment extends LruSegment<Item> {
    private final int index;
    private final int indexBits;

    private long casCounter;
    private long totalItems;

    StoreSegment(long budget, int index, int indexBits) {
        super(budget);
        this.index = index;
        this.indexBits = indexBits;
    }

    /** The live item under {@code key} (now the most recently used), or null. */
    synchronized Item get(ByteKey key, long now) {
        return lookup(key, now);
    }

    /** Like {@link #get}, and gives the live item a new expiry time (touch, gat). */
    synchronized Item getAndTouch(ByteKey key, long expiresAtMillis, long now) {
        Item it = get(key, now);
        if (it != null) {
            it.expiresAtMillis = expiresAtMillis;
        }
        return it;
    }

    /**
     * A storage command (set, add, replace, append, prepend, cas) with memcached's rules.
     *
     * @param key owned key (stored if the item is new)
     * @return one of {@link MemcacheStore#STORED}, {@code NOT_STORED}, {@code EXISTS}, {@code NOT_FOUND}
     */
    synchronized int store(int mode, ByteKey key, int flags, long expiresAtMillis, byte[] value, long casUnique, long now) {
        Item old = items.get(key);
        if (old != null && old.isExpired(now)) {
            unlink(key, old);
            expired++;
            old = null;
        }
        switch (mode) {
            case MemcacheStore.ADD -> {
                if (old != null) {
                    return MemcacheStore.NOT_STORED; // the lookup above moved it up the LRU, as memcached's failed add does
                }
            }
            case MemcacheStore.REPLACE -> {
                if (old == null) {
                    return MemcacheStore.NOT_STORED;
                }
            }
            case MemcacheStore.APPEND, MemcacheStore.PREPEND -> {
                if (old == null) {
                    return MemcacheStore.NOT_STORED;
                }
                value = mode == MemcacheStore.APPEND ? concat(old.value, value) : concat(value, old.value);
                flags = old.flags; // append and prepend ignore the command's flags and exptime
                expiresAtMillis = old.expiresAtMillis;
                if (size(key, value) > budget()) {
                    return MemcacheStore.NOT_STORED;
                }
            }
            case MemcacheStore.CAS -> {
                if (old == null) {
                    return MemcacheStore.NOT_FOUND;
                }
                if (old.cas != casUnique) {
                    return MemcacheStore.EXISTS;
                }
            }
            default -> {
                // SET stores unconditionally
            }
        }
        totalItems++;
        if (expiresAtMillis != Item.NEVER && now >= expiresAtMillis) {
            // a negative or past exptime: the client sees STORED and then a miss; keep no memory for it
            if (old != null) {
                unlink(key, old);
            }
            return MemcacheStore.STORED;
        }
        Item fresh = new Item(value, flags, nextCas(), expiresAtMillis);
        if (old != null) {
            bytes -= sizeOf(key, old);
        }
        items.put(key, fresh);
        bytes += sizeOf(key, fresh);
        makeRoom(now);
        return MemcacheStore.STORED;
    }

    /** Removes a live item; false if there was none (or only an expired one). */
    synchronized boolean delete(ByteKey key, long now) {
        Item it = items.remove(key);
        if (it == null) {
            return false;
        }
        bytes -= sizeOf(key, it);
        if (it.isExpired(now)) {
            expired++;
            return false;
        }
        return true;
    }

    /**
     * incr/decr with memcached's rules: the value must read as an unsigned 64-bit decimal, incr
     * wraps at 2^64, decr stops at 0, a shorter result is padded with spaces to the old length.
     * On {@link MemcacheStore#OK} the new value is in {@code numbers.value}.
     */
    synchronized int incrDecr(ByteKey key, boolean incr, long delta, long now, AsciiNumbers numbers) {
        Item old = get(key, now);
        if (old == null) {
            return MemcacheStore.NOT_FOUND;
        }
        if (old.value.length == 0 || !numbers.parseUnsigned64(old.value, 0, old.value.length)) {
            return MemcacheStore.NON_NUMERIC;
        }
        long current = numbers.value;
        long next = incr ? current + delta : (Long.compareUnsigned(delta, current) > 0 ? 0 : current - delta);
        byte[] value = AsciiNumbers.unsignedValue(next, old.value.length);
        if (value.length != old.value.length) {
            totalItems++; // memcached links a new, longer item here; an in-place rewrite is not a new item
        }
        Item fresh = new Item(value, old.flags, nextCas(), old.expiresAtMillis);
        items.replace(key, fresh); // keeps the stored key object; key may be a probe
        bytes += value.length - old.value.length;
        makeRoom(now);
        numbers.value = next;
        return MemcacheStore.OK;
    }

    synchronized void clear() {
        clearAll();
    }

    /** Adds this segment's gauges and counters to {@code into}. */
    synchronized void addTotals(MemcacheStore.Totals into) {
        into.items += items.size();
        into.bytes += bytes;
        into.evictions += evictions;
        into.reclaimed += expired;
        into.expiredOnGet += expiredOnLookup;
        into.totalItems += totalItems;
    }

    private long nextCas() {
        return (++casCounter << indexBits) | index;
    }

    @Override
    protected long sizeOf(ByteKey key, Item it) {
        return size(key, it.value);
    }

    private static long size(ByteKey key, byte[] value) {
        return (long) key.length() + value.length + MemcacheStore.ITEM_OVERHEAD;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] joined = new byte[a.length + b.length];
        System.arraycopy(a, 0, joined, 0, a.length);
        System.arraycopy(b, 0, joined, a.length, b.length);
        return joined;
    }
}
