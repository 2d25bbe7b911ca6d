package io.fluxperf.engine.config;

import io.fluxperf.engine.request.Command;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * rpc-perf 3.x files (twitter/rpc-perf 3.x): {@code [general]} with underscored keys (timeouts in
 * microseconds), {@code [[keyspace]]} tables with weighted commands and value lengths, and
 * {@code [tls]}. The defaults are rpc-perf 3's where they differ from fluxperf's: 60-s windows, 5
 * of them, one client with one connection, Nagle on, 200-ms timeouts.
 */
final class RpcPerf3Reader {
    private static final Map<String, String> PROTOCOLS = Map.of("memcache", "memcache", "redis_resp", "redis",
            "redis", "redis", "redis_inline", "redis", "redis-inline", "redis", "redis-resp", "redis");
    private static final List<String> GENERAL = List.of("protocol", "interval", "windows", "duration", "clients",
            "poolsize", "tcp_nodelay", "request_timeout", "connect_timeout", "request_ratelimit",
            "request_distribution", "connect_ratelimit", "warmup_hitrate", "waterfall", "endpoints", "listen", "admin",
            "logging", "close_rate", "soft_timeout", "tls_key", "tls_cert", "tls_ca", "tls_session_cache_size");
    private static final List<String> KEYSPACE = List.of("length", "count", "weight", "commands", "values");
    private static final List<String> COMMAND = List.of("action", "weight", "ttl");
    private static final List<String> VALUE = List.of("length", "weight", "class");
    private static final List<String> TLS = List.of("ca_file", "ca", "certificate", "certificate_chain", "key",
            "private_key", "verify_hostname", "session_cache_size");

    private RpcPerf3Reader() {
    }

    static RpcPerfTranslation read(TomlConfigFile file) {
        RpcPerfTranslation out = new RpcPerfTranslation(RpcPerfFormat.RPC_PERF_3, file);
        TomlTable root = file.root();
        root.allowOnly(List.of("general", "keyspace", "tls"));
        TomlTable g = root.table("general");
        if (g == null) {
            throw file.error("no [general] table: rpc-perf 3 needs one, with at least its protocol");
        }
        g.allowOnly(GENERAL);
        String p = g.string("protocol");
        String protocol = p == null ? "memcache" : RpcPerfKeyspaces.protocol(g, "protocol", p, PROTOCOLS,
                "memcache, redis_resp and redis_inline");
        if (p != null && p.contains("inline")) {
            out.note("general.protocol", "fluxperf sends redis commands as RESP arrays, not inline; redis answers"
                    + " both alike");
        }
        out.general("protocol", protocol, p != null ? "general.protocol" : "general",
                p != null ? null : "rpc-perf 3's default");

        long interval = or(g.integer("interval", 1, Long.MAX_VALUE / 1_000_000_000L), 60);
        out.general("duration", interval + "s", g.has("interval") ? "general.interval" : "general",
                "each window (interval)" + (g.has("interval") ? "" : "; rpc-perf 3's default"));
        Long windows = g.integer("windows", 1, Integer.MAX_VALUE);
        Long total = g.integer("duration", 1, Long.MAX_VALUE);
        if (windows != null) {
            out.general("windows", windows, "general.windows", null);
            if (total != null) {
                out.note("general.duration", "windows gives the number of intervals; the duration is not used");
            }
        } else if (total != null) {
            out.general("windows", Math.max(1, (total + interval - 1) / interval), "general.duration",
                    "duration / interval, rounded up");
        } else {
            out.general("windows", 5L, "general", "rpc-perf 3's default");
        }
        out.general("threads", or(g.integer("clients", 1, Settings.MAX_THREADS), 1), at(g, "clients"),
                "clients" + (g.has("clients") ? "" : "; rpc-perf 3's default"));
        out.general("connections", or(g.integer("poolsize", 1, Settings.MAX_CONNECTIONS), 1), at(g, "poolsize"),
                "per client (poolsize)" + (g.has("poolsize") ? "" : "; rpc-perf 3's default"));
        Boolean noDelay = g.bool("tcp_nodelay");
        out.general("tcp-nodelay", noDelay != null && noDelay, at(g, "tcp_nodelay"),
                noDelay != null ? null : "rpc-perf 3's default");
        String timeout = RpcPerfKeyspaces.duration(g, "request_timeout", 1_000L, 1);
        out.general("timeout", timeout != null ? timeout : "200ms", at(g, "request_timeout"),
                timeout != null ? "rpc-perf 3 counts microseconds" : "rpc-perf 3's default");
        String connect = RpcPerfKeyspaces.duration(g, "connect_timeout", 1_000L, 1);
        out.general("connect-timeout", connect != null ? connect : "200ms", at(g, "connect_timeout"),
                connect != null ? "rpc-perf 3 counts microseconds" : "rpc-perf 3's default");
        Long rate = g.integer("request_ratelimit", 0, Long.MAX_VALUE);
        String arrivals = g.string("request_distribution");
        if (arrivals != null) {
            if (!List.of("smooth", "uniform", "normal").contains(arrivals)) {
                throw g.error("request_distribution", "must be smooth, uniform or normal, not '" + arrivals + "'");
            }
            if (rate == null || rate == 0) {
                out.note("general.request_distribution", "spaces the requests of a rate limit, and there is none");
            } else {
                out.general("arrivals", arrivals, "general.request_distribution", null);
            }
        }
        Long connectRate = g.integer("connect_ratelimit", 0, Long.MAX_VALUE);
        if (connectRate != null) {
            out.general("connect-rate", connectRate, "general.connect_ratelimit", "connects per second");
        }
        Double hitrate = g.number("warmup_hitrate");
        if (hitrate != null) {
            double percent = hitrate <= 1 ? hitrate * 100 : hitrate;
            if (!(percent > 0 && percent <= 100)) {
                throw g.error("warmup_hitrate", "is the hit rate to reach before measuring (0.9 or 90): above 0,"
                        + " at most 1 (or 100 %), not " + hitrate);
            }
            out.general("warmup-hitrate", percent, "general.warmup_hitrate", "percent");
        }
        String waterfall = g.string("waterfall");
        if (waterfall != null) {
            out.general("waterfall", waterfall, "general.waterfall", "latency heatmap PNG, drawn from the run's trace");
        }
        RpcPerfKeyspaces.endpoints(g, "endpoints", out);
        for (String k : List.of("listen", "admin")) {
            if (g.string(k) != null) {
                out.note("general." + k, "rpc-perf 3's listener is not carried over; run --admin [ADDR:]PORT"
                        + " serves fluxperf's admin endpoint (/metrics, /metrics.json, the dashboard)");
            }
        }
        if (g.string("logging") != null) {
            out.note("general.logging", "fluxperf prints its report and its errors; it has no log levels");
        }
        RpcPerfKeyspaces.unsupported(g, "close_rate", "fluxperf does not close connections at a rate; leave it out"
                + " (--connect-per-request opens one per request)");
        Boolean soft = g.bool("soft_timeout");
        if (Boolean.TRUE.equals(soft)) {
            throw g.error("soft_timeout", "fluxperf ends a request at its timeout and counts it; a soft timeout"
                    + " that waits on is not in fluxperf");
        }
        tls(out, g, "tls_ca", "tls_cert", "tls_key", "tls_session_cache_size", "general.");
        TomlTable tls = root.table("tls");
        if (tls != null) {
            tls.allowOnly(TLS);
            tls(out, tls, tls.has("ca_file") ? "ca_file" : "ca",
                    tls.has("certificate") ? "certificate" : "certificate_chain",
                    tls.has("private_key") ? "private_key" : "key", "session_cache_size", "tls.");
            Boolean verify = tls.bool("verify_hostname");
            if (Boolean.FALSE.equals(verify)) {
                out.general("tls", true, "tls.verify_hostname", null);
                out.general("tls-insecure", true, "tls.verify_hostname", "no certificate or name check");
            }
        }

        List<RpcPerfKeyspaces.Keyspace> keyspaces = new ArrayList<>();
        List<TomlTable> tables = RpcPerfKeyspaces.tables(root, "keyspace");
        if (tables.isEmpty()) {
            throw file.error("no [[keyspace]] tables: rpc-perf 3 needs at least one");
        }
        for (TomlTable k : tables) {
            keyspaces.add(keyspace(k));
        }
        RpcPerfKeyspaces.expand(out, keyspaces, rate == null ? 0 : rate, "general.request_ratelimit");
        return out;
    }

    /** TLS keys, in [general] (3.2) or [tls]. */
    static void tls(RpcPerfTranslation out, TomlTable t, String ca, String cert, String key, String cache, String prefix) {
        for (String k : List.of(cert, key)) {
            if (t.string(k) != null) {
                throw t.error(k, "fluxperf does not present a client certificate yet; leave " + k + " out"
                        + " (a CA to trust is " + ca + ")");
            }
        }
        String caFile = t.string(ca);
        if (caFile != null) {
            out.general("tls", true, prefix + ca, null);
            out.general("tls-ca", caFile, prefix + ca, null);
        }
        if (t.integer(cache, 0, Long.MAX_VALUE) != null) {
            out.note(prefix + cache, "fluxperf keeps TLS sessions as Netty does; the size is not set");
        }
    }

    private static RpcPerfKeyspaces.Keyspace keyspace(TomlTable t) {
        t.allowOnly(KEYSPACE);
        RpcPerfKeyspaces.Keyspace k = new RpcPerfKeyspaces.Keyspace();
        k.from = t.path();
        k.weight = or(t.integer("weight", 0, Integer.MAX_VALUE), 1);
        Long length = t.integer("length", 1, Settings.MAX_KEY_LENGTH);
        if (length == null) {
            throw t.error("missing length (the key length in bytes)");
        }
        k.keyLength = length.intValue();
        k.keyLengthFrom = t.keyPath("length");
        Long count = t.integer("count", 1, Long.MAX_VALUE / 2);
        k.countFrom = count != null ? t.keyPath("count") : null;
        k.count = count != null ? count : (long) Math.pow(10, Math.min(18, k.keyLength));
        if (Long.toString(k.count - 1).length() > k.keyLength) {
            throw t.error("count", k.count + " keys need keys of at least " + Long.toString(k.count - 1).length()
                    + " bytes, but length is " + k.keyLength);
        }
        for (TomlTable c : RpcPerfKeyspaces.tables(t, "commands")) {
            c.allowOnly(COMMAND);
            String action = c.string("action");
            if (action == null) {
                throw c.error("missing action (get, set, …)");
            }
            Command command = command(c, "action", action);
            long weight = or(c.integer("weight", 0, Integer.MAX_VALUE), 1);
            Long ttl = c.integer("ttl", 0, Settings.MAX_TTL);
            k.commands.add(new RpcPerfKeyspaces.Cmd(c.path(), c.keyPath("action"), command, weight, 1,
                    ttl == null ? null : ttl.intValue()));
        }
        if (k.commands.isEmpty()) {
            throw t.error("commands", "lists no command; give at least one { action = \"get\", weight = 1 }");
        }
        List<TomlTable> values = RpcPerfKeyspaces.tables(t, "values");
        if (!values.isEmpty()) {
            long[] sizes = new long[values.size()];
            long[] weights = new long[values.size()];
            String kind = null;
            for (int i = 0; i < values.size(); i++) {
                TomlTable v = values.get(i);
                v.allowOnly(VALUE);
                Long len = v.integer("length", 1, ValueSize.MAX_BYTES);
                if (len == null) {
                    throw v.error("missing length (the value length in bytes)");
                }
                sizes[i] = len;
                weights[i] = or(v.integer("weight", 1, Integer.MAX_VALUE), 1);
                String c = v.string("class");
                if (c != null) {
                    if (!c.equals("alphanumeric") && !c.equals("integer")) {
                        throw v.error("class", "must be alphanumeric or integer, not '" + c + "'");
                    }
                    if (kind != null && !kind.equals(c)) {
                        throw v.error("class", "fluxperf gives a keyspace's values one class; this one differs from"
                                + " the one before");
                    }
                    kind = c;
                }
            }
            k.bytes = sizes.length == 1 ? com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.numberNode(sizes[0])
                    : RpcPerfTranslation.weightedSizes(sizes, weights);
            k.bytesFrom = t.keyPath("values");
            k.bytesComment = sizes.length == 1 ? "bytes" : "bytes, weighted";
            if ("integer".equals(kind)) {
                k.valueKind = WorkloadShape.ValueKind.I64;
                k.valueKindFrom = t.keyPath("values");
            }
        }
        return k;
    }

    /** rpc-perf's action or verb as a fluxperf command. */
    static Command command(TomlTable t, String key, String verb) {
        Command c = Command.parse(verb);
        if (c == null || c == Command.COMMAND || c == Command.FLUSH) {
            throw t.error(key, "'" + verb + "' is not a command fluxperf sends; it sends " + Checks.METHODS);
        }
        return c;
    }

    private static String at(TomlTable g, String key) {
        return g.has(key) ? "general." + key : "general";
    }

    private static long or(Long v, long fallback) {
        return v != null ? v : fallback;
    }
}
