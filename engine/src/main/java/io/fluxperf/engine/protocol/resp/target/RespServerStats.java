package io.fluxperf.engine.protocol.resp.target;

import io.fluxperf.engine.Version;
import io.fluxperf.engine.protocol.resp.target.RespCounters.Snapshot;
import io.fluxperf.engine.protocol.resp.target.RespCounters.Stat;
import io.fluxperf.engine.target.TargetStats;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The server's statistics in its two forms: {@link TargetStats} for fluxperf (totals since start)
 * and the text of redis' {@code INFO} (since start or the last {@code CONFIG RESETSTAT}, which
 * subtracts a baseline rather than zeroing counters other threads own). Shared by all
 * connections; INFO is rare, so this may allocate.
 */
final class RespServerStats {
    /** The redis version this server answers like (HELLO, INFO). */
    static final String REDIS_VERSION = "7.0.0";
    /** Sections of a plain INFO, in redis' order. */
    private static final String[] DEFAULT_SECTIONS = {"server", "clients", "memory", "stats", "keyspace"};
    private static final String[] ALL_SECTIONS = {"server", "clients", "memory", "stats", "keyspace", "commandstats"};

    private final RespCounters counters;
    private final RespStore store;
    private final long startMillis = System.currentTimeMillis();
    private final long pid = ProcessHandle.current().pid();
    private volatile int port;
    private volatile Snapshot baseline;
    private volatile RespStore.Totals storeBaseline = new RespStore.Totals();

    RespServerStats(RespCounters counters, RespStore store) {
        this.counters = counters;
        this.store = store;
        this.baseline = counters.sum();
    }

    void port(int listeningPort) {
        this.port = listeningPort;
    }

    TargetStats targetStats() {
        Snapshot c = counters.sum();
        RespStore.Totals t = store.totals();
        Map<String, Long> commands = new LinkedHashMap<>();
        for (RespVerb v : RespVerb.VALUES) {
            commands.put(v.label, c.calls(v));
        }
        commands.put("error", c.stat(Stat.UNKNOWN_COMMANDS));
        return new TargetStats(c.stat(Stat.CONNECTED_CLIENTS), c.stat(Stat.TOTAL_CONNECTIONS_RECEIVED), commands,
                c.stat(Stat.KEYSPACE_HITS), c.stat(Stat.KEYSPACE_MISSES), c.stat(Stat.TOTAL_NET_INPUT_BYTES),
                c.stat(Stat.TOTAL_NET_OUTPUT_BYTES), t.keys, t.bytes, t.evictions);
    }

    /** CONFIG RESETSTAT: counters restart from zero; gauges (clients, keys, memory) stay. */
    void reset() {
        baseline = counters.sum();
        storeBaseline = store.totals();
    }

    /**
     * The text of {@code INFO [section …]}: no section (or "default") gives the default sections,
     * "all" or "everything" every section; unknown names give nothing, as in redis.
     */
    String info(String[] sections) {
        Snapshot now = counters.sum();
        Snapshot c = now.minus(baseline);
        RespStore.Totals t = store.totals();
        RespStore.Totals tb = storeBaseline;
        java.util.List<String> wanted = new java.util.ArrayList<>();
        if (sections.length == 0) {
            wanted.addAll(java.util.List.of(DEFAULT_SECTIONS));
        }
        for (String s : sections) {
            String name = s.toLowerCase(Locale.ROOT);
            switch (name) {
                case "default" -> wanted.addAll(java.util.List.of(DEFAULT_SECTIONS));
                case "all", "everything" -> wanted.addAll(java.util.List.of(ALL_SECTIONS));
                default -> wanted.add(name);
            }
        }
        StringBuilder b = new StringBuilder(1024);
        int written = 0;
        for (String section : ALL_SECTIONS) {
            if (!wanted.contains(section)) {
                continue;
            }
            if (written++ > 0) {
                b.append("\r\n");
            }
            switch (section) {
                case "server" -> server(b);
                case "clients" -> {
                    b.append("# Clients\r\n");
                    line(b, "connected_clients", now.stat(Stat.CONNECTED_CLIENTS));
                }
                case "memory" -> {
                    b.append("# Memory\r\n");
                    line(b, "used_memory", t.bytes);
                    line(b, "used_memory_human", human(t.bytes));
                    line(b, "maxmemory", store.limitBytes());
                    line(b, "maxmemory_human", human(store.limitBytes()));
                    line(b, "maxmemory_policy", "allkeys-lru");
                }
                case "stats" -> {
                    b.append("# Stats\r\n");
                    line(b, "total_connections_received", c.stat(Stat.TOTAL_CONNECTIONS_RECEIVED));
                    line(b, "total_commands_processed", c.stat(Stat.TOTAL_COMMANDS_PROCESSED));
                    line(b, "total_net_input_bytes", c.stat(Stat.TOTAL_NET_INPUT_BYTES));
                    line(b, "total_net_output_bytes", c.stat(Stat.TOTAL_NET_OUTPUT_BYTES));
                    line(b, "rejected_connections", 0);
                    line(b, "expired_keys", t.expired - tb.expired);
                    line(b, "evicted_keys", t.evictions - tb.evictions);
                    line(b, "keyspace_hits", c.stat(Stat.KEYSPACE_HITS));
                    line(b, "keyspace_misses", c.stat(Stat.KEYSPACE_MISSES));
                    line(b, "total_error_replies", c.stat(Stat.TOTAL_ERROR_REPLIES));
                }
                case "keyspace" -> {
                    b.append("# Keyspace\r\n");
                    long[][] ks = store.keyspace();
                    for (int db = 0; db < RespStore.DATABASES; db++) {
                        if (ks[0][db] > 0) {
                            b.append("db").append(db).append(":keys=").append(ks[0][db]).append(",expires=")
                                    .append(ks[1][db]).append(",avg_ttl=0\r\n");
                        }
                    }
                }
                default -> {
                    b.append("# Commandstats\r\n");
                    for (RespVerb v : RespVerb.VALUES) {
                        long calls = c.calls(v);
                        long rejected = c.rejected(v);
                        long failed = c.failed(v);
                        if (calls + rejected + failed > 0) {
                            // usec is not measured: timing every command would cost more than the commands
                            b.append("cmdstat_").append(v.label).append(":calls=").append(calls)
                                    .append(",usec=0,usec_per_call=0.00,rejected_calls=").append(rejected)
                                    .append(",failed_calls=").append(failed).append("\r\n");
                        }
                    }
                }
            }
        }
        return b.toString();
    }

    private void server(StringBuilder b) {
        long uptime = (System.currentTimeMillis() - startMillis) / 1000;
        b.append("# Server\r\n");
        line(b, "redis_version", REDIS_VERSION);
        line(b, "redis_mode", "standalone");
        line(b, "fluxperf_version", Version.get());
        line(b, "os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"));
        line(b, "arch_bits", 64);
        line(b, "process_id", pid);
        line(b, "tcp_port", port);
        line(b, "uptime_in_seconds", uptime);
        line(b, "uptime_in_days", uptime / 86400);
    }

    private static void line(StringBuilder b, String name, Object value) {
        b.append(name).append(':').append(value).append("\r\n");
    }

    private static String human(long bytes) {
        if (bytes < 1024) {
            return bytes + "B";
        }
        String[] units = {"K", "M", "G", "T"};
        double v = bytes;
        int u = -1;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, "%.2f%s", v, units[u]);
    }
}
