package io.fluxperf.engine.pool;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.List;

/**
 * libmemcached's weighted ketama continuum ({@code MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED}), so that a
 * key goes to the server a libmemcached client (and pylibmc, PHP's memcached, …) sends it to:
 *
 * <ul>
 *   <li>Each server gets {@code floor(weight / totalWeight × 160 / 4 × servers + 1e-10) × 4}
 *       points, computed in single precision as libmemcached does (160 per server when the
 *       weights are equal).</li>
 *   <li>Its points come in fours from the MD5 of {@code "HOST-i"} when its port is 11211, else
 *       {@code "HOST:PORT-i"}, for i from 0: each 16-byte digest gives four points, bytes 0–3,
 *       4–7, 8–11 and 12–15, each read little-endian. HOST is the host as the user wrote it
 *       (an IPv6 address without brackets, a Unix socket's path with port 0).</li>
 *   <li>A key's hash is the first four bytes of the MD5 of its bytes, little-endian; it goes to
 *       the server of the first point at or above it (unsigned), or of the first point of all.</li>
 * </ul>
 *
 * Immutable and shared by every load thread; {@link #serverOf(int)} is a binary search.
 */
public final class KetamaContinuum {
    /** libmemcached's MEMCACHED_POINTS_PER_SERVER_KETAMA. */
    static final int POINTS_PER_SERVER = 160;
    /** libmemcached names a server on the default port without it. */
    static final int DEFAULT_PORT = 11211;

    /** Point values as unsigned 32-bit numbers, ascending. */
    private final long[] points;
    private final int[] servers;

    private KetamaContinuum(long[] points, int[] servers) {
        this.points = points;
        this.servers = servers;
    }

    /** One server as ketama hashes it. */
    public record Server(String host, int port, int weight) {
    }

    public static KetamaContinuum of(List<Server> list) {
        long total = 0;
        for (Server s : list) {
            total += s.weight();
        }
        MessageDigest md5 = KeyHasher.md5();
        long[][] entries = new long[list.size() * POINTS_PER_SERVER * 2 + 16][];
        int n = 0;
        for (int i = 0; i < list.size(); i++) {
            Server s = list.get(i);
            float share = (float) s.weight() / (float) total;
            float scaled = share * POINTS_PER_SERVER / 4 * (float) list.size();
            int count = (int) Math.floor((double) scaled + 0.0000000001) * 4;
            for (int h = 0; h < count / 4; h++) {
                String name = s.port() == DEFAULT_PORT ? s.host() + "-" + h : s.host() + ":" + s.port() + "-" + h;
                byte[] digest = md5.digest(name.getBytes(StandardCharsets.UTF_8));
                for (int k = 0; k < 4; k++) {
                    if (n == entries.length) {
                        entries = Arrays.copyOf(entries, n * 2);
                    }
                    entries[n++] = new long[] {KeyHasher.littleEndian(digest, 4 * k), i};
                }
            }
        }
        long[][] sorted = Arrays.copyOf(entries, n);
        Arrays.sort(sorted, (a, b) -> Long.compare(a[0], b[0]));
        long[] points = new long[n];
        int[] servers = new int[n];
        for (int k = 0; k < n; k++) {
            points[k] = sorted[k][0];
            servers[k] = (int) sorted[k][1];
        }
        return new KetamaContinuum(points, servers);
    }

    /** The server of a key whose hash is {@code hash} (an unsigned 32-bit value in an int). */
    public int serverOf(int hash) {
        if (points.length == 0) {
            return 0;
        }
        long h = hash & 0xFFFF_FFFFL;
        int lo = 0;
        int hi = points.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (points[mid] < h) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return servers[lo == points.length ? 0 : lo];
    }

    /** How many points server {@code server} has (for tests and the report). */
    public int pointsOf(int server) {
        int c = 0;
        for (int s : servers) {
            if (s == server) {
                c++;
            }
        }
        return c;
    }
}
