package io.fluxperf.engine.protocol.memcache.target;

import io.fluxperf.engine.protocol.memcache.target.MemcacheCounters.Stat;
import io.fluxperf.engine.protocol.memcache.target.MemcacheCounters.Verb;
import io.fluxperf.engine.target.TargetStats;
import io.netty.buffer.ByteBuf;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The server's statistics in its two forms: {@link TargetStats} for fluxperf (totals since start)
 * and the text of memcached's {@code stats} command (since start or the last {@code stats reset},
 * which subtracts a baseline rather than zeroing counters other threads own). Shared by all
 * connections; the stats command is rare, so this may allocate.
 */
final class MemcacheServerStats {
    private final MemcacheCounters counters;
    private final MemcacheStore store;
    private final int threads;
    private final long startMillis = System.currentTimeMillis();
    private final long pid = ProcessHandle.current().pid();

    private volatile long[] counterBaseline;
    private volatile MemcacheStore.Totals storeBaseline = new MemcacheStore.Totals();

    MemcacheServerStats(MemcacheCounters counters, MemcacheStore store, int threads) {
        this.counters = counters;
        this.store = store;
        this.threads = threads;
        this.counterBaseline = new long[counters.snapshot().length];
    }

    TargetStats targetStats() {
        long[] c = counters.snapshot();
        MemcacheStore.Totals t = store.totals();
        Map<String, Long> commands = new LinkedHashMap<>();
        for (Verb v : Verb.values()) {
            commands.put(v.label, c[MemcacheCounters.verbIndex(v)]);
        }
        return new TargetStats(stat(c, Stat.CURR_CONNECTIONS), stat(c, Stat.TOTAL_CONNECTIONS), commands,
                stat(c, Stat.GET_HITS), stat(c, Stat.GET_MISSES), stat(c, Stat.BYTES_READ), stat(c, Stat.BYTES_WRITTEN),
                t.items, t.bytes, t.evictions);
    }

    /** memcached's {@code stats reset}: counters restart from zero; gauges (connections, items, bytes) stay. */
    void reset() {
        long[] now = counters.snapshot();
        now[MemcacheCounters.statIndex(Stat.CURR_CONNECTIONS)] = 0;
        counterBaseline = now;
        storeBaseline = store.totals();
    }

    /** The reply to {@code stats}: memcached's general statistics that apply here, in its order. */
    void writeGeneral(ByteBuf out) {
        long[] c = counters.snapshot();
        long[] base = counterBaseline;
        for (int i = 0; i < c.length; i++) {
            c[i] -= base[i];
        }
        MemcacheStore.Totals t = store.totals();
        MemcacheStore.Totals tb = storeBaseline;
        long nowMillis = System.currentTimeMillis();
        StringBuilder s = new StringBuilder(1024);
        line(s, "pid", pid);
        line(s, "uptime", (nowMillis - startMillis) / 1000);
        line(s, "time", nowMillis / 1000);
        line(s, "version", MemcacheReplies.VERSION);
        line(s, "pointer_size", 64);
        line(s, "curr_connections", stat(c, Stat.CURR_CONNECTIONS));
        line(s, "total_connections", stat(c, Stat.TOTAL_CONNECTIONS));
        for (Stat st : new Stat[] {Stat.CMD_GET, Stat.CMD_SET, Stat.CMD_FLUSH, Stat.CMD_TOUCH, Stat.GET_HITS, Stat.GET_MISSES}) {
            line(s, st.label, stat(c, st));
        }
        line(s, "get_expired", t.expiredOnGet - tb.expiredOnGet);
        for (Stat st : new Stat[] {Stat.DELETE_MISSES, Stat.DELETE_HITS, Stat.INCR_MISSES, Stat.INCR_HITS,
                Stat.DECR_MISSES, Stat.DECR_HITS, Stat.CAS_MISSES, Stat.CAS_HITS, Stat.CAS_BADVAL,
                Stat.TOUCH_HITS, Stat.TOUCH_MISSES, Stat.STORE_TOO_LARGE, Stat.BYTES_READ, Stat.BYTES_WRITTEN}) {
            line(s, st.label, stat(c, st));
        }
        line(s, "limit_maxbytes", store.limitBytes());
        line(s, "threads", threads);
        line(s, "bytes", t.bytes);
        line(s, "curr_items", t.items);
        line(s, "total_items", t.totalItems - tb.totalItems);
        line(s, "evictions", t.evictions - tb.evictions);
        line(s, "reclaimed", t.reclaimed - tb.reclaimed);
        s.append("END\r\n");
        out.writeCharSequence(s, StandardCharsets.US_ASCII);
    }

    /** The reply to {@code stats settings}: the few settings that exist here. */
    void writeSettings(ByteBuf out, SocketAddress local) {
        StringBuilder s = new StringBuilder(256);
        line(s, "maxbytes", store.limitBytes());
        if (local instanceof InetSocketAddress inet) {
            line(s, "tcpport", inet.getPort());
            line(s, "udpport", 0);
            line(s, "inter", inet.getAddress().getHostAddress());
        }
        line(s, "evictions", "on");
        line(s, "cas_enabled", "yes");
        line(s, "num_threads", threads);
        line(s, "item_size_max", store.maxItemBytes());
        s.append("END\r\n");
        out.writeCharSequence(s, StandardCharsets.US_ASCII);
    }

    private static long stat(long[] c, Stat s) {
        return c[MemcacheCounters.statIndex(s)];
    }

    private static void line(StringBuilder s, String name, Object value) {
        s.append("STAT ").append(name).append(' ').append(value).append("\r\n");
    }
}
