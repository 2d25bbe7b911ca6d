package io.fluxperf.engine.protocol.http.target;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bodies stored by PUT and POST, by path (without the query), bounded in memory. Unlike the
 * memcache target it does not evict: a store that would pass the bound is refused (507), so that
 * a GET never silently loses what a PUT was told was stored. Shared by every connection.
 */
final class HttpStore {
    /** What a stored item costs beyond its path and body: map entry, array headers. */
    static final int ITEM_OVERHEAD = 64;

    enum Put { CREATED, REPLACED, FULL }

    private final ConcurrentHashMap<String, byte[]> items = new ConcurrentHashMap<>();
    private final AtomicLong bytes = new AtomicLong();
    private final long limitBytes;

    HttpStore(long limitBytes) {
        this.limitBytes = limitBytes;
    }

    byte[] get(String path) {
        return items.get(path);
    }

    Put put(String path, byte[] body) {
        Put[] result = new Put[1];
        items.compute(path, (k, old) -> {
            long delta = cost(k, body) - (old == null ? 0 : cost(k, old));
            if (delta > 0 && bytes.get() + delta > limitBytes) {
                result[0] = Put.FULL;
                return old;
            }
            bytes.addAndGet(delta);
            result[0] = old == null ? Put.CREATED : Put.REPLACED;
            return body;
        });
        return result[0];
    }

    boolean delete(String path) {
        byte[] old = items.remove(path);
        if (old == null) {
            return false;
        }
        bytes.addAndGet(-cost(path, old));
        return true;
    }

    long items() {
        return items.size();
    }

    long bytes() {
        return bytes.get();
    }

    long limitBytes() {
        return limitBytes;
    }

    private static long cost(String path, byte[] body) {
        return path.length() + body.length + ITEM_OVERHEAD;
    }
}
