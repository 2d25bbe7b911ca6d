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
    private static final byte[] EMPTY = new byte[0];

    private final int index;
    private final int indexBits;

    private long casCounter;
    private long totalItems;

    StoreSegment(long budget, int index, int indexBits) {
        super(budget);
        this.index = index;
        this.indexBits = indexBits;
    }

    /** The live item under {@code key} (now the most recently used, and fetched), or null. */
    synchronized Item get(ByteKey key, long now) {
        Item it = lookup(key, now);
        if (it != null && !it.fetched) {
            it.fetched = true;
        }
        return it;
    }

    /** The live item under {@code key}, not marked as fetched (meta's me, a store reading back its cas), or null. */
    synchronized Item peek(ByteKey key, long now) {
        return lookup(key, now);
    }

    /**
     * A meta get: the live item under {@code key} into {@code out}, with whether a get had fetched it
     * before; it is marked fetched unless {@code noUpdate}, and gets {@code newExpiry} unless that is
     * {@link MetaResult#KEEP}. With {@code vivify} (mg's N) a missing item is created empty, expiring at
     * {@code vivifyExpiry}, and {@code out.created} says so.
     *
     * @param key a probe; copied if the item is created
     */
    synchronized void metaGet(ByteKey key, boolean noUpdate, long newExpiry, boolean vivify, long vivifyExpiry,
                              boolean binaryKey, long now, MetaResult out) {
        out.created = false;
        Item it = lookup(key, now);
        if (it == null && vivify) {
            it = new Item(EMPTY, 0, nextCas(), vivifyExpiry, binaryKey);
            ByteKey owned = key.stored(true);
            items.put(owned, it);
            bytes += sizeOf(owned, it);
            totalItems++;
            makeRoom(now);
            out.created = true;
        } else if (it != null && newExpiry != MetaResult.KEEP) {
            it.expiresAtMillis = newExpiry;
        }
        out.item = it;
        if (it != null) {
            out.fetchedBefore = it.fetched;
            out.tokenSentBefore = it.tokenSent;
            if (!noUpdate) {
                it.fetched = true;
            }
            if (out.created) {
                it.tokenSent = true; // the vivifying get wins the token (W)
            }
        }
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
    int store(int mode, ByteKey key, int flags, long expiresAtMillis, byte[] value, long casUnique, long now) {
        return store(mode, key, flags, expiresAtMillis, value, casUnique, false, now, null);
    }

    /**
     * {@link #store(int, ByteKey, int, long, byte[], long, long)} for a meta set: {@code binaryKey} is
     * kept with the item, an append or prepend with a cas checks it as memcached does, and the item
     * stored is left in {@code out} (null when none was, or when it expired on arrival).
     */
    synchronized int store(int mode, ByteKey key, int flags, long expiresAtMillis, byte[] value, long casUnique,
                           boolean binaryKey, long now, MetaResult out) {
        if (out != null) {
            out.item = null;
        }
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
                if (casUnique != 0 && old.cas != casUnique) {
                    return MemcacheStore.EXISTS;
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
        Item fresh = new Item(value, flags, nextCas(), expiresAtMillis, binaryKey);
        if (out != null) {
            out.item = fresh;
        }
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
    int incrDecr(ByteKey key, boolean incr, long delta, long now, AsciiNumbers numbers) {
        return arithmetic(key, incr, delta, 0, MetaResult.KEEP, now, numbers, null);
    }

    /**
     * {@link #incrDecr} for a meta {@code ma}: only when {@code requiredCas} is 0 or the item's cas
     * ({@link MemcacheStore#EXISTS} otherwise); the item then expires at {@code newExpiry} unless that
     * is {@link MetaResult#KEEP}, and is left in {@code out}.
     */
    synchronized int arithmetic(ByteKey key, boolean incr, long delta, long requiredCas, long newExpiry, long now,
                                AsciiNumbers numbers, MetaResult out) {
        Item old = lookup(key, now); // memcached's incr does not mark the item fetched
        if (old == null) {
            return MemcacheStore.NOT_FOUND;
        }
        if (old.value.length == 0) {
            return MemcacheStore.NON_NUMERIC;
        }
        if (requiredCas != 0 && old.cas != requiredCas) {
            return MemcacheStore.EXISTS;
        }
        if (!numbers.parseUnsigned64(old.value, 0, old.value.length)) {
            return MemcacheStore.NON_NUMERIC;
        }
        long current = numbers.value;
        long next = incr ? current + delta : (Long.compareUnsigned(delta, current) > 0 ? 0 : current - delta);
        byte[] value = AsciiNumbers.unsignedValue(next, old.value.length);
        if (value.length != old.value.length) {
            totalItems++; // memcached links a new, longer item here; an in-place rewrite is not a new item
        }
        Item fresh = new Item(value, old.flags, nextCas(), newExpiry == MetaResult.KEEP ? old.expiresAtMillis : newExpiry,
                old.binaryKey);
        fresh.fetched = old.fetched;
        items.replace(key, fresh); // keeps the stored key object; key may be a probe
        if (out != null) {
            out.item = fresh;
        }
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
