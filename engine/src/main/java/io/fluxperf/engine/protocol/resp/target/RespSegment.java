package io.fluxperf.engine.protocol.resp.target;

import io.fluxperf.engine.target.ByteKey;
import io.fluxperf.engine.target.LruSegment;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;

/**
 * One lock stripe of the {@link RespStore}: an {@link LruSegment} of every database's keys that
 * hash here, with a key count per database.
 *
 * <p>Assumptions and guarantees: every method except {@link #clear}, {@link #addTotals} and
 * {@link #addKeyspace} must be called with this segment's monitor held (a command holds it for
 * its whole work on one key, replies included, because containers change in place). After a
 * command {@link #makeRoom} brings {@link #bytes} back under {@link #budget} by dropping the least
 * recently used keys: a live one counts as an eviction, an expired one as expired. Expired keys
 * are otherwise removed lazily, when a command finds them, as redis does without its active cycle.
 */
final class RespSegment extends LruSegment<RespEntry> {
    private final int[] keysPerDb = new int[RespStore.DATABASES];

    RespSegment(long budget) {
        super(budget);
    }

    /**
     * Stores a new entry under {@code key}, replacing any other.
     *
     * @param key     the key (a probe is copied)
     * @param isProbe whether {@code key} is a connection's probe
     * @param size    bytes of the value (the key's own bytes and overhead are added here)
     */
    RespEntry create(ByteKey key, boolean isProbe, byte type, Object value, long size) {
        RespEntry old = items.get(key);
        if (old != null) {
            unlink(key, old);
        }
        RespEntry e = new RespEntry(type, value);
        e.size = key.length() + RespEntry.KEY_OVERHEAD + size;
        items.put(key.stored(isProbe), e);
        bytes += e.size;
        keysPerDb[key.db()]++;
        return e;
    }

    /** Removes the entry found under {@code key}. */
    void remove(ByteKey key, RespEntry e) {
        unlink(key, e);
    }

    /** The entry's value grew (or shrank, negative) by {@code delta} bytes. */
    void resize(RespEntry e, long delta) {
        e.size += delta;
        bytes += delta;
    }

    /** Keys of database {@code db} here (expired ones not yet removed included, as redis' DBSIZE). */
    int keys(int db) {
        return keysPerDb[db];
    }

    /** Removes every key of {@code db}, or of every database when {@code db} is -1. */
    synchronized void clear(int db) {
        if (db < 0) {
            clearAll();
            Arrays.fill(keysPerDb, 0);
            return;
        }
        Iterator<Map.Entry<ByteKey, RespEntry>> it = items.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<ByteKey, RespEntry> entry = it.next();
            if (entry.getKey().db() == db) {
                it.remove();
                bytes -= entry.getValue().size;
            }
        }
        keysPerDb[db] = 0;
    }

    synchronized void addTotals(RespStore.Totals into) {
        into.keys += items.size();
        into.bytes += bytes;
        into.evictions += evictions;
        into.expired += expired;
    }

    /** Adds keys and keys with an expiry per database to {@code keys} and {@code expires}. */
    synchronized void addKeyspace(long[] keys, long[] expires) {
        for (Map.Entry<ByteKey, RespEntry> entry : items.entrySet()) {
            int db = entry.getKey().db();
            keys[db]++;
            if (entry.getValue().expiresAtMillis != RespEntry.NEVER) {
                expires[db]++;
            }
        }
    }

    @Override
    protected long sizeOf(ByteKey key, RespEntry e) {
        return e.size;
    }

    @Override
    protected void unlinked(ByteKey key) {
        keysPerDb[key.db()]--;
    }
}
