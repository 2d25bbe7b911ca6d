package io.fluxperf.engine.target.memcache;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One lock stripe of the {@link MemcacheStore}: an access-ordered map (least recently used first)
 * with its share of the memory bound. Every method holds the segment's monitor, so the event loops
 * that share the store only contend when their keys fall in the same segment.
 *
 * <p>Invariant: {@link #bytes} ≤ {@link #budget} after every method, where an item counts
 * key length + value length + {@link MemcacheStore#ITEM_OVERHEAD}. Room is made by dropping the
 * least recently used items; a live one counts as an eviction, an expired one as reclaimed.
 * Expired items are otherwise removed lazily, when a command finds them.
 */
final class StoreSegment {
    private final LinkedHashMap<Key, Item> items = new LinkedHashMap<>(256, 0.75f, true);
    private final long budget;
    private final int index;
    private final int indexBits;

    private long bytes;
    private long casCounter;
    private long evictions;
    private long reclaimed;
    private long expiredOnGet;
    private long totalItems;

    StoreSegment(long budget, int index, int indexBits) {
        this.budget = budget;
        this.index = index;
        this.indexBits = indexBits;
    }

    long budget() {
        return budget;
    }

    /** The live item under {@code key} (now the most recently used), or null. */
    synchronized Item get(Key key, long now) {
        Item it = items.get(key);
        if (it != null && it.isExpired(now)) {
            unlink(key, it);
            reclaimed++;
            expiredOnGet++;
            return null;
        }
        return it;
    }

    /** Like {@link #get}, and gives the live item a new expiry time (touch, gat). */
    synchronized Item getAndTouch(Key key, long expiresAtMillis, long now) {
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
    synchronized int store(int mode, Key key, int flags, long expiresAtMillis, byte[] value, long casUnique, long now) {
        Item old = items.get(key);
        if (old != null && old.isExpired(now)) {
            unlink(key, old);
            reclaimed++;
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
                if (size(key, value) > budget) {
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
            bytes -= size(key, old);
        }
        items.put(key, fresh);
        bytes += size(key, fresh);
        makeRoom(now);
        return MemcacheStore.STORED;
    }

    /** Removes a live item; false if there was none (or only an expired one). */
    synchronized boolean delete(Key key, long now) {
        Item it = items.remove(key);
        if (it == null) {
            return false;
        }
        bytes -= size(key, it);
        if (it.isExpired(now)) {
            reclaimed++;
            return false;
        }
        return true;
    }

    /**
     * incr/decr with memcached's rules: the value must read as an unsigned 64-bit decimal, incr
     * wraps at 2^64, decr stops at 0, a shorter result is padded with spaces to the old length.
     * On {@link MemcacheStore#OK} the new value is in {@code numbers.value}.
     */
    synchronized int incrDecr(Key key, boolean incr, long delta, long now, AsciiNumbers numbers) {
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
        items.clear();
        bytes = 0;
    }

    /** Adds this segment's gauges and counters to {@code into}. */
    synchronized void addTotals(MemcacheStore.Totals into) {
        into.items += items.size();
        into.bytes += bytes;
        into.evictions += evictions;
        into.reclaimed += reclaimed;
        into.expiredOnGet += expiredOnGet;
        into.totalItems += totalItems;
    }

    private void makeRoom(long now) {
        if (bytes <= budget) {
            return;
        }
        Iterator<Map.Entry<Key, Item>> lru = items.entrySet().iterator();
        while (bytes > budget && lru.hasNext()) {
            Map.Entry<Key, Item> eldest = lru.next();
            lru.remove();
            bytes -= size(eldest.getKey(), eldest.getValue());
            if (eldest.getValue().isExpired(now)) {
                reclaimed++;
            } else {
                evictions++;
            }
        }
    }

    private void unlink(Key key, Item it) {
        items.remove(key);
        bytes -= size(key, it);
    }

    private long nextCas() {
        return (++casCounter << indexBits) | index;
    }

    private static long size(Key key, Item it) {
        return size(key, it.value);
    }

    private static long size(Key key, byte[] value) {
        return (long) key.length() + value.length + MemcacheStore.ITEM_OVERHEAD;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] joined = new byte[a.length + b.length];
        System.arraycopy(a, 0, joined, 0, a.length);
        System.arraycopy(b, 0, joined, a.length, b.length);
        return joined;
    }
}
