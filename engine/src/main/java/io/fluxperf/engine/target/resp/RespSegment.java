package io.fluxperf.engine.target.resp;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One lock stripe of the {@link RespStore}: an access-ordered map (least recently used first) of
 * every database's keys that hash here, with its share of the memory bound.
 *
 * <p>Assumptions and guarantees: every method except {@link #clear}, {@link #addTotals} and
 * {@link #addKeyspace} must be called with this segment's monitor held (a command holds it for
 * its whole work on one key, replies included, because containers change in place). After a
 * command {@link #makeRoom} brings {@link #bytes} back under {@link #budget} by dropping the least
 * recently used keys: a live one counts as an eviction, an expired one as expired. Expired keys
 * are otherwise removed lazily, when a command finds them, as redis does without its active cycle.
 */
final class RespSegment {
    private final LinkedHashMap<RespKey, RespEntry> items = new LinkedHashMap<>(256, 0.75f, true);
    private final long budget;
    private final int[] keysPerDb = new int[RespStore.DATABASES];

    private long bytes;
    private long evictions;
    private long expired;

    RespSegment(long budget) {
        this.budget = budget;
    }

    long budget() {
        return budget;
    }

    /** The live entry under {@code key} (now the most recently used), or null; an expired one is removed. */
    RespEntry lookup(RespKey key, long now) {
        RespEntry e = items.get(key);
        if (e != null && e.isExpired(now)) {
            unlink(key, e);
            expired++;
            return null;
        }
        return e;
    }

    /**
     * Stores a new entry under {@code key}, replacing any other.
     *
     * @param key     the key (a probe is copied)
     * @param isProbe whether {@code key} is a connection's probe
     * @param size    bytes of the value (the key's own bytes and overhead are added here)
     */
    RespEntry create(RespKey key, boolean isProbe, byte type, Object value, long size) {
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
    void remove(RespKey key, RespEntry e) {
        unlink(key, e);
    }

    /** The entry's value grew (or shrank, negative) by {@code delta} bytes. */
    void resize(RespEntry e, long delta) {
        e.size += delta;
        bytes += delta;
    }

    /** Drops least recently used keys until the segment is within its budget. */
    void makeRoom(long now) {
        if (bytes <= budget) {
            return;
        }
        Iterator<Map.Entry<RespKey, RespEntry>> lru = items.entrySet().iterator();
        while (bytes > budget && lru.hasNext()) {
            Map.Entry<RespKey, RespEntry> eldest = lru.next();
            lru.remove();
            RespEntry e = eldest.getValue();
            bytes -= e.size;
            keysPerDb[eldest.getKey().db()]--;
            if (e.isExpired(now)) {
                expired++;
            } else {
                evictions++;
            }
        }
    }

    /** Keys of database {@code db} here (expired ones not yet removed included, as redis' DBSIZE). */
    int keys(int db) {
        return keysPerDb[db];
    }

    /** Removes every key of {@code db}, or of every database when {@code db} is -1. */
    synchronized void clear(int db) {
        if (db < 0) {
            items.clear();
            bytes = 0;
            java.util.Arrays.fill(keysPerDb, 0);
            return;
        }
        Iterator<Map.Entry<RespKey, RespEntry>> it = items.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<RespKey, RespEntry> entry = it.next();
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
        for (Map.Entry<RespKey, RespEntry> entry : items.entrySet()) {
            int db = entry.getKey().db();
            keys[db]++;
            if (entry.getValue().expiresAtMillis != RespEntry.NEVER) {
                expires[db]++;
            }
        }
    }

    private void unlink(RespKey key, RespEntry e) {
        items.remove(key);
        bytes -= e.size;
        keysPerDb[key.db()]--;
    }
}
