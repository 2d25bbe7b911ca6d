package io.fluxperf.engine.pool;

import io.fluxperf.engine.request.Request;

/**
 * Client-side sharding as libmemcached does it: a key's server by ketama ({@link KetamaContinuum}
 * over the MD5 of its bytes) or by modula (one-at-a-time hash modulo the number of servers). A
 * request whose keys hash to different servers is {@link #SPREAD}.
 */
final class HashPlacement implements KeyPlacement {
    private final KetamaContinuum ketama;
    private final int servers;
    private final KeyHasher hasher = new KeyHasher();
    private final WireKeys keys = new WireKeys();

    /** @param ketama the continuum, or null for modula over {@code servers} */
    HashPlacement(KetamaContinuum ketama, int servers) {
        this.ketama = ketama;
        this.servers = servers;
    }

    @Override
    public int serverOf(Request r) {
        int n = keys.count(r);
        if (n == 0) {
            return ANY;
        }
        int first = serverOfKey(r, 0);
        for (int i = 1; i < n; i++) {
            if (serverOfKey(r, i) != first) {
                return SPREAD;
            }
        }
        return first;
    }

    private int serverOfKey(Request r, int i) {
        keys.select(r, i);
        if (ketama != null) {
            return ketama.serverOf(hasher.md5(keys.array(), keys.offset(), keys.length()));
        }
        int h = KeyHasher.oneAtATime(keys.array(), keys.offset(), keys.length());
        return (int) ((h & 0xFFFF_FFFFL) % servers);
    }
}
