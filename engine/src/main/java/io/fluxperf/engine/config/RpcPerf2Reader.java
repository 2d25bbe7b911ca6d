package io.fluxperf.engine.config;

import io.fluxperf.engine.request.Command;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;

/**
 * rpc-perf 0.2 / 2.x files (twitter/rpc-perf up to 2.1): {@code [general]} with dashed keys and
 * {@code [[workload]]} tables whose {@code [[workload.parameter]]} tables describe the key (the
 * first) and the value (the second).
 */
final class RpcPerf2Reader {
    private static final Map<String, String> PROTOCOLS = Map.of("memcache", "memcache", "redis", "redis",
            "redis-resp", "redis", "redis_resp", "redis", "redis-inline", "redis", "redis_inline", "redis");
    private static final List<String> GENERAL = List.of("threads", "connections", "duration", "windows", "protocol",
            "tcp-nodelay", "ipv4", "ipv6", "database", "request-timeout", "connect-timeout", "max-request-timeout",
            "max-connect-timeout", "connect-ratelimit", "rx-buffer-size", "tx-buffer-size", "warmup");
    private static final List<String> WORKLOAD = List.of("name", "method", "rate", "script-body", "parameter");
    private static final List<String> PARAMETER = List.of("style", "size", "num", "seed", "regenerate");
    /** The largest key space of a random key without num: 10^18 keys. */
    private static final int MAX_DIGITS = 18;

    private RpcPerf2Reader() {
    }

    static RpcPerfTranslation read(TomlConfigFile file) {
        RpcPerfTranslation out = new RpcPerfTranslation(RpcPerfFormat.RPC_PERF_2, file);
        TomlTable root = file.root();
        root.allowOnly(List.of("general", "workload", "warmup"));
        TomlTable g = root.table("general");
        String protocol = "memcache";
        if (g != null) {
            g.allowOnly(GENERAL);
            String p = g.string("protocol");
            if (p != null) {
                protocol = RpcPerfKeyspaces.protocol(g, "protocol", p, PROTOCOLS, "memcache and redis");
                if (p.contains("inline")) {
                    out.note("general.protocol", "fluxperf sends redis commands as RESP arrays, not inline;"
                            + " redis answers both alike");
                }
            }
        }
        out.general("protocol", protocol, g != null && g.has("protocol") ? "general.protocol" : "general",
                g != null && g.has("protocol") ? null : "rpc-perf 2's default");
        general(out, g, protocol);

        List<TomlTable> warmups = RpcPerfKeyspaces.tables(root, "warmup");
        for (TomlTable w : warmups) {
            // checked as workloads are; what they are for, a warm cache, fluxperf gets by loading the keys
            workload(new RpcPerfTranslation(RpcPerfFormat.RPC_PERF_2, file), w);
        }
        List<TomlTable> workloads = RpcPerfKeyspaces.tables(root, "workload");
        if (workloads.isEmpty()) {
            throw file.error("no [[workload]] tables: rpc-perf 2 needs at least one");
        }
        // rated workloads beside rate = 0 ones run as probes beside the load, as rpc-perf 2 ran them
        for (TomlTable w : workloads) {
            int index = workload(out, w);
            Command c = Command.parse(w.string("method"));
            if (!warmups.isEmpty() && c != null && c.isRead()) {
                out.workload(index, "hit", true, "warmup", "[[warmup]]: its keys are written before measuring");
            }
        }
        if (!warmups.isEmpty()) {
            out.note("warmup", "fluxperf warms the cache by writing the read workloads' keys before measuring"
                    + " (hit = true) rather than by running the [[warmup]] workloads; general.warmup still sets the"
                    + " hit rate the warm-up then runs to");
        }
        return out;
    }

    private static void general(RpcPerfTranslation out, TomlTable g, String protocol) {
        long threads = 1;
        long connections = 1;
        String duration = "60s";
        long windows = 5;
        if (g != null) {
            threads = or(g.integer("threads", 1, ConfigResolver.MAX_THREADS), threads);
            connections = or(g.integer("connections", 1, ConfigResolver.MAX_CONNECTIONS), connections);
            Long d = g.integer("duration", 1, Long.MAX_VALUE / 1_000_000_000L);
            duration = d != null ? d + "s" : duration;
            windows = or(g.integer("windows", 1, Integer.MAX_VALUE), windows);
        }
        out.general("threads", threads, at(g, "threads"), g != null && g.has("threads") ? null : "rpc-perf 2's default");
        out.general("connections", connections, at(g, "connections"),
                g != null && g.has("connections") ? "per thread" : "per thread; rpc-perf 2's default");
        out.general("duration", duration, at(g, "duration"), "each window");
        out.general("windows", windows, at(g, "windows"), g != null && g.has("windows") ? null : "rpc-perf 2's default");
        if (g == null) {
            return;
        }
        Boolean noDelay = g.bool("tcp-nodelay");
        if (noDelay != null) {
            out.general("tcp-nodelay", noDelay, "general.tcp-nodelay", null);
        }
        for (String family : List.of("ipv4", "ipv6")) {
            if (g.bool(family) != null) {
                out.note("general." + family, "fluxperf connects to the first address the server's name resolves"
                        + " to (give an IPv4 or [IPv6] address to choose)");
            }
        }
        Long db = g.integer("database", 0, 1_000_000);
        if (db != null && db != 0) {
            if (!protocol.equals("redis")) {
                throw g.error("database", "memcache has no databases; leave it out or set it to 0");
            }
            out.general("db", db, "general.database", "SELECT before the run");
        } else if (db != null) {
            out.note("general.database", "0 is redis's default database: nothing to select");
        }
        String timeout = RpcPerfKeyspaces.duration(g, "request-timeout", 1_000_000L, 1);
        if (timeout != null) {
            out.general("timeout", timeout, "general.request-timeout", "rpc-perf 2 counts milliseconds");
        }
        String connect = RpcPerfKeyspaces.duration(g, "connect-timeout", 1_000_000L, 1);
        if (connect != null) {
            out.general("connect-timeout", connect, "general.connect-timeout", "rpc-perf 2 counts milliseconds");
        }
        for (String max : List.of("max-request-timeout", "max-connect-timeout")) {
            if (g.integer(max, 0, Long.MAX_VALUE) != null) {
                out.note("general." + max, "fluxperf does not back off: every request and connect has the one timeout");
            }
        }
        Long connectRate = g.integer("connect-ratelimit", 0, Long.MAX_VALUE);
        if (connectRate != null) {
            out.general("connect-rate", connectRate, "general.connect-ratelimit", "connects per second");
        }
        for (String buffer : List.of("rx-buffer-size", "tx-buffer-size")) {
            if (g.integer(buffer, 1, Long.MAX_VALUE) != null) {
                out.note("general." + buffer, "fluxperf's buffers grow as a request or reply needs");
            }
        }
        Double warmup = g.number("warmup");
        if (warmup != null) {
            if (!(warmup > 0 && warmup <= 100)) {
                throw g.error("warmup", "is the hit rate in percent to reach before measuring: above 0, at most 100,"
                        + " not " + warmup);
            }
            out.general("warmup-hitrate", warmup, "general.warmup", "percent");
        }
    }

    private static int workload(RpcPerfTranslation out, TomlTable t) {
        t.allowOnly(WORKLOAD);
        int w = out.workload(t.path(), t.path());
        String name = t.string("name");
        if (name != null) {
            out.workload(w, "name", name, t.keyPath("name"), null);
        }
        String method = t.string("method");
        if (method == null) {
            throw t.error("missing method (get, set, …)");
        }
        Command c = Command.parse(method);
        if (c == null || c == Command.COMMAND || c == Command.FLUSH) {
            throw t.error("method", "'" + method + "' is not a command fluxperf sends; it sends " + Checks.METHODS);
        }
        out.workload(w, "method", c.label(), t.keyPath("method"), null);
        Double rate = t.number("rate");
        if (rate != null && rate < 0) {
            throw t.error("rate", "must be at least 0 (0: as fast as possible), not " + rate);
        }
        if (rate != null && rate > 0) {
            out.workload(w, "rate", rate, t.keyPath("rate"), "requests/s");
        }
        String script = t.string("script-body");
        if (script != null) {
            out.workload(w, "script", script, t.keyPath("script-body"), null);
        }
        List<TomlTable> parameters = RpcPerfKeyspaces.tables(t, "parameter");
        if (parameters.size() > 2) {
            throw parameters.get(2).error("fluxperf reads two parameters: the key (the first) and the value (the second)");
        }
        Parameter key = parameters.isEmpty() ? Parameter.absent(t.path(), 0)
                : Parameter.read(parameters.get(0), 0, ConfigResolver.MAX_KEY_LENGTH);
        if (!key.random || !key.regenerate) {
            // one key for the whole run: rpc-perf 2 draws it once (random) or makes it from the seed (static)
            out.workload(w, "keyspace", 1L, key.from, key.random ? "random, not regenerated: one key" : "static: one key");
            long offset = key.size >= MAX_DIGITS ? key.seed : key.seed % BigInteger.TEN.pow((int) key.size).longValue();
            if (offset > 0) {
                out.workload(w, "key-offset", offset, key.from, "the seed picks the key");
            }
        } else if (key.num > 0) {
            out.workload(w, "keyspace", key.num, key.from, "num");
        } else {
            long count = BigInteger.TEN.pow((int) Math.min(key.size, MAX_DIGITS)).longValue();
            out.workload(w, "keyspace", count, key.from, "random keys of size bytes");
        }
        out.workload(w, "key-length", key.size, key.from, "size");
        if (parameters.size() > 1) {
            Parameter value = Parameter.read(parameters.get(1), 1, ValueSize.MAX_BYTES);
            if (!c.carriesValue() && c != Command.EVAL && c != Command.EVALSHA) {
                out.note(value.from, c.label() + " carries no value: fluxperf sends it without one");
            } else {
                out.workload(w, "bytes", value.size, value.from, "size");
                boolean fresh = value.random && value.regenerate;
                out.workload(w, "values", fresh ? "fresh" : "fixed", value.from,
                        fresh ? "random, regenerated: a new value each request" : "one value for every request");
            }
        }
        return w;
    }

    /** One [[workload.parameter]] table, with rpc-perf 2's defaults. */
    private record Parameter(String from, boolean random, long size, long num, long seed, boolean regenerate) {
        static Parameter absent(String from, int index) {
            return new Parameter(from, false, 1, 0, index, false);
        }

        static Parameter read(TomlTable p, int index, long maxSize) {
            p.allowOnly(PARAMETER);
            String style = p.string("style");
            if (style != null && !style.equals("static") && !style.equals("random")) {
                throw p.error("style", "must be static or random, not '" + style + "'");
            }
            long size = or(p.integer("size", 1, maxSize), 1L);
            long num = or(p.integer("num", 0, Long.MAX_VALUE), 0L);
            if (num > 0 && Long.toString(num - 1).length() > size) {
                throw p.error("size", "to hold " + num + " keys, size must be at least " + Long.toString(num - 1).length());
            }
            long seed = or(p.integer("seed", 0, Long.MAX_VALUE), (long) index);
            boolean regenerate = Boolean.TRUE.equals(p.bool("regenerate"));
            return new Parameter(p.path(), "random".equals(style), size, num, seed, regenerate);
        }
    }

    private static String at(TomlTable g, String key) {
        return g != null && g.has(key) ? "general." + key : "general";
    }

    private static long or(Long v, long fallback) {
        return v != null ? v : fallback;
    }
}
