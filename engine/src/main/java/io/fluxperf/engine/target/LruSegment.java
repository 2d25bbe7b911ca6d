package io.fluxperf.engine.target;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One lock stripe of a {@link StripedStore}: an access-ordered map (least recently used first)
 * with its share of the memory bound. A protocol's segment extends it with its commands and says
 * what an entry costs ({@link #sizeOf}).
 *
 * <p>Assumptions and guarantees: every method is called with this segment's monitor held (the
 * subclass either synchronizes its methods or documents that its callers hold the monitor).
 * {@link #bytes} is the sum of {@link #sizeOf} over the entries; after {@link #makeRoom} it is at
 * most {@link #budget}. Room is made by dropping the least recently used entries: a live one
 * counts in {@link #evictions}, an expired one in {@link #expired}. Expired entries are otherwise
 * removed lazily, when a look-up finds them.
 *
 * @param <E> the protocol's entry
 */
public abstract class LruSegment<E extends LruEntry> {
    protected final LinkedHashMap<ByteKey, E> items = new LinkedHashMap<>(256, 0.75f, true);
    private final long budget;

    /** Bytes the entries count against the budget. */
    protected long bytes;
    /** Live entries dropped to make room. */
    protected long evictions;
    /** Expired entries removed, by a look-up, by making room, or by a command that replaced them. */
    protected long expired;
    /** Expired entries that a look-up found (and removed). */
    protected long expiredOnLookup;

    protected LruSegment(long budget) {
        this.budget = budget;
    }

    /** This segment's share of the memory bound, in bytes. */
    public final long budget() {
        return budget;
    }

    /** Bytes {@code e}, stored under {@code key}, counts against the budget. */
    protected abstract long sizeOf(ByteKey key, E e);

    /** Called after {@code key} left the map (bytes already subtracted); for per-key bookkeeping. */
    protected void unlinked(ByteKey key) {
    }

    /** The live entry under {@code key} (now the most recently used), or null; an expired one is removed. */
    public final E lookup(ByteKey key, long now) {
        E e = items.get(key);
        if (e != null && e.isExpired(now)) {
            unlink(key, e);
            expired++;
            expiredOnLookup++;
            return null;
        }
        return e;
    }

    /** Removes {@code e}, found under {@code key}. */
    protected final void unlink(ByteKey key, E e) {
        items.remove(key);
        bytes -= sizeOf(key, e);
        unlinked(key);
    }

    /** Drops least recently used entries until the segment is within its budget. */
    public final void makeRoom(long now) {
        if (bytes <= budget) {
            return;
        }
        Iterator<Map.Entry<ByteKey, E>> lru = items.entrySet().iterator();
        while (bytes > budget && lru.hasNext()) {
            Map.Entry<ByteKey, E> eldest = lru.next();
            lru.remove();
            E e = eldest.getValue();
            bytes -= sizeOf(eldest.getKey(), e);
            unlinked(eldest.getKey());
            if (e.isExpired(now)) {
                expired++;
            } else {
                evictions++;
            }
        }
    }

    /** Removes every entry. */
    protected final void clearAll() {
        items.clear();
        bytes = 0;
    }
}
