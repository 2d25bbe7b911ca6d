package io.fluxperf.engine.config;

import io.fluxperf.engine.request.Command;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * rpc-perf 5.x files (iopsystems/rpc-perf): {@code [general]}, {@code [target]}, {@code [client]}
 * (timeouts in milliseconds, {@code poolsize} the connections to the endpoint in all),
 * {@code [workload]} with {@code [workload.ratelimit]} and {@code [[workload.keyspace]]} tables of
 * verbs, {@code [tls]}, and the output tables {@code [metrics]} and {@code [debug]}.
 */
final class RpcPerf5Reader {
    private static final Map<String, String> PROTOCOLS = Map.of("memcache", "memcache", "resp", "redis",
            "redis", "redis");
    private static final List<String> TOP = List.of("general", "target", "client", "workload", "tls", "metrics",
            "debug", "storage", "pubsub", "leaderboard", "oltp", "replay");
    private static final List<String> GENERAL = List.of("protocol", "interval", "duration", "admin", "initial_seed",
            "metrics_output", "metrics_format", "metrics_interval", "output_format");
    private static final List<String> CLIENT = List.of("threads", "poolsize", "concurrency", "connect_timeout",
            "request_timeout", "reconnect_rate", "read_buffer_size", "write_buffer_size", "request_ratelimit");
    private static final List<String> WORKLOAD = List.of("threads", "ratelimit", "keyspace", "stores", "leaderboard",
            "topics", "oltp");
    private static final List<String> RATELIMIT = List.of("start", "end", "step", "interval", "ramp",
            "on_ramp_completion");
    private static final List<String> KEYSPACE = List.of("weight", "klen", "nkeys", "vlen", "vkind",
            "compression_ratio", "inner_keys_klen", "inner_keys_nkeys", "commands", "ttl", "key_distribution");
    private static final List<String> COMMAND = List.of("verb", "weight", "cardinality", "truncate", "start", "end",
            "by_score");
    private static final List<String> TLS = List.of("private_key", "private_key_password", "certificate",
            "certificate_chain", "ca_file", "verify_hostname", "use_sni");
    /** rpc-perf 5's verbs and their aliases, as fluxperf's commands. */
    private static final Map<String, Command> VERBS = new HashMap<>();

    static {
        verbs(Command.PING, "ping");
        verbs(Command.ADD, "add");
        verbs(Command.GET, "get");
        verbs(Command.SET, "set");
        verbs(Command.DELETE, "delete", "del");
        verbs(Command.REPLACE, "replace");
        verbs(Command.HDEL, "hash_delete", "dictionary_delete", "hdel");
        verbs(Command.HGET, "hash_get", "dictionary_get", "hget", "hmget");
        verbs(Command.HGETALL, "hash_get_all", "dictionary_fetch", "hgetall");
        verbs(Command.HINCRBY, "hash_increment", "dictionary_increment", "hincrby");
        verbs(Command.HSET, "hash_set", "dictionary_set", "hset", "hmset");
        verbs(Command.LPUSH, "list_push_front", "lpush");
        verbs(Command.RPUSH, "list_push_back", "rpush");
        verbs(Command.LPOP, "list_pop_front", "lpop");
        verbs(Command.RPOP, "list_pop_back", "rpop");
        verbs(Command.SADD, "set_add", "set_add_element", "sadd");
        verbs(Command.SMEMBERS, "set_members", "set_fetch", "smembers");
        verbs(Command.SREM, "set_remove", "set_remove_element", "srem");
        verbs(Command.SISMEMBER, "set_is_member", "sismember");
        verbs(Command.ZADD, "sorted_set_add", "sorted_set_put", "zadd");
        verbs(Command.ZRANGE, "sorted_set_range", "sorted_set_fetch_by_index", "zrange");
        verbs(Command.ZINCRBY, "sorted_set_increment", "zincrby");
        verbs(Command.ZREM, "sorted_set_remove", "zrem");
        verbs(Command.ZSCORE, "sorted_set_score", "sorted_set_get_score", "zscore", "zmscore");
        verbs(Command.LRANGE, "list_fetch");
        verbs(Command.LLEN, "list_length", "llen");
        verbs(Command.ZRANK, "sorted_set_rank", "sorted_set_get_rank", "zrank");
        verbs(Command.HEXISTS, "hash_exists", "hexists");
        verbs(Command.GET, "get_batch");
    }

    private static void verbs(Command c, String... names) {
        for (String n : names) {
            VERBS.put(n, c);
        }
    }

    private RpcPerf5Reader() {
    }

    static RpcPerfTranslation read(TomlConfigFile file) {
        RpcPerfTranslation out = new RpcPerfTranslation(RpcPerfFormat.RPC_PERF_5, file);
        TomlTable root = file.root();
        root.allowOnly(TOP);
        String ofProtocol = ofProtocol(root);
        for (String other : List.of("storage", "pubsub", "leaderboard", "oltp", "replay")) {
            RpcPerfKeyspaces.unsupported(root, other, "fluxperf runs keyspace workloads of memcache and redis;"
                    + " rpc-perf's " + other + " workloads" + ofProtocol + " are not among them");
        }
        // before the protocol is checked, so that a file of another protocol's workloads is named by both
        TomlTable w = root.table("workload");
        for (String other : w == null ? List.<String>of() : List.of("stores", "leaderboard", "topics", "oltp")) {
            RpcPerfKeyspaces.unsupported(w, other, "fluxperf runs keyspace workloads of memcache and redis;"
                    + " rpc-perf's " + other + ofProtocol + " are not among them");
        }
        TomlTable g = root.table("general");
        if (g == null) {
            throw file.error("no [general] table: rpc-perf 5 needs one, with its protocol, interval and duration");
        }
        g.allowOnly(GENERAL);
        String p = g.string("protocol");
        if (p == null) {
            throw g.error("missing protocol (memcache or resp)");
        }
        out.general("protocol", RpcPerfKeyspaces.protocol(g, "protocol", p, PROTOCOLS, "memcache and resp"), "general.protocol", null);
        Duration interval = RpcPerfKeyspaces.humanDuration(g, "interval");
        Duration total = RpcPerfKeyspaces.humanDuration(g, "duration");
        if (interval == null || interval.isZero()) {
            throw g.error(interval == null ? "missing interval (seconds per window)" : "interval must be above 0");
        }
        out.general("duration", DurationParser.format(interval), "general.interval", "each window (interval)");
        if (total != null) {
            long windows = Math.max(1, (total.toNanos() + interval.toNanos() - 1) / interval.toNanos());
            out.general("windows", windows, "general.duration", "duration / interval, rounded up");
        }
        if (g.string("admin") != null) {
            out.general("admin", g.string("admin"), "general.admin",
                    "the admin endpoint: /metrics, /metrics.json, /vars, PUT /ratelimit, the dashboard");
        }
        com.fasterxml.jackson.databind.JsonNode seed = g.raw("initial_seed");
        if (seed != null) {
            out.general("seed", seed(g, seed), "general.initial_seed", null);
        }
        for (String m : List.of("metrics_output", "metrics_format", "metrics_interval")) {
            if (g.has(m)) {
                out.note("general." + m, "fluxperf writes every window as JSON with --json FILE and the per-second"
                        + " figures with --stats-interval 1");
            }
        }
        String outputFormat = g.string("output_format");
        if (outputFormat != null) {
            if (!outputFormat.equals("log") && !outputFormat.equals("json")) {
                throw g.error("output_format", "is log or json, not '" + outputFormat + "'");
            }
            out.note("general.output_format", "fluxperf prints its text report"
                    + (outputFormat.equals("json") ? "; --json FILE writes every window as JSON" : ""));
        }

        TomlTable target = root.table("target");
        if (target == null) {
            // rpc-perf needs one; fluxperf then loads --server, or its embedded target
            target = new TomlTable(file, "target", com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode());
        }
        target.allowOnly(List.of("endpoints", "cache_name", "endpoint_override", "use_private_endpoints",
                "object_store_name"));
        for (String momento : List.of("cache_name", "endpoint_override", "use_private_endpoints", "object_store_name")) {
            RpcPerfKeyspaces.unsupported(target, momento, "is for Momento's services, which fluxperf does not speak");
        }
        RpcPerfKeyspaces.endpoints(target, "endpoints", out);

        client(out, root.table("client"));
        double rate = workloadRate(out, root);
        RateRamp ramp = workloadRamp(root);
        String rateFrom = "workload.ratelimit.start";
        TomlTable client = root.table("client");
        Long clientRate = client == null ? null : client.integer("request_ratelimit", 0, Long.MAX_VALUE);
        if (clientRate != null && clientRate > 0) {
            // earlier 5.x releases kept the run's one rate limit in [client]
            if (rate > 0) {
                throw client.error("request_ratelimit", "and workload.ratelimit.start both set the rate; keep one");
            }
            rate = clientRate;
            rateFrom = "client.request_ratelimit";
        }
        tls(out, root.table("tls"));
        TomlTable metrics = root.table("metrics");
        if (metrics != null) {
            metrics.allowOnly(List.of("output", "format", "batch_size", "histogram", "interval"));
            out.note("metrics", "fluxperf writes every window as JSON with --json FILE and the per-second figures"
                    + " with --stats-interval 1");
        }
        TomlTable debug = root.table("debug");
        if (debug != null) {
            debug.allowOnly(List.of("log_level", "log_backup", "log_max_size", "log_queue_depth",
                    "log_single_message_size"));
            if (debug.has("log_level") || debug.has("log_backup") || debug.has("log_max_size")) {
                out.note("debug", "fluxperf prints its report and its errors; it has no log levels or log files");
            }
        }

        TomlTable workload = root.table("workload");
        List<RpcPerfKeyspaces.Keyspace> keyspaces = new ArrayList<>();
        for (TomlTable k : RpcPerfKeyspaces.tables(workload, "keyspace")) {
            keyspaces.add(keyspace(k));
        }
        if (keyspaces.isEmpty()) {
            throw workload.error("has no [[workload.keyspace]] tables: nothing to send");
        }
        if (ramp != null && rateFrom.startsWith("client")) {
            throw client.error("request_ratelimit", "and a [workload.ratelimit] ramp both set the rate; keep one");
        }
        RpcPerfKeyspaces.expand(out, keyspaces, rate, rateFrom, ramp);
        return out;
    }

    private static Long seed(TomlTable g, com.fasterxml.jackson.databind.JsonNode v) {
        if (v.isIntegralNumber()) {
            return g.integer("initial_seed", Long.MIN_VALUE, Long.MAX_VALUE);
        }
        if (!v.isTextual()) {
            throw g.error("initial_seed", "expected a number or a string of digits, not " + TomlTable.describe(v));
        }
        String s = v.textValue().strip();
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            // rpc-perf takes any string; fold it into 64 bits so that the same string gives the same seed
            long h = 1125899906842597L;
            for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
                h = 31 * h + b;
            }
            return h;
        }
    }

    private static void client(RpcPerfTranslation out, TomlTable c) {
        if (c == null) {
            return;
        }
        c.allowOnly(CLIENT);
        long threads = or(c.integer("threads", 1, Settings.MAX_THREADS), 1);
        out.general("threads", threads, c.has("threads") ? "client.threads" : "client", null);
        Long poolsize = c.integer("poolsize", 1, (long) Settings.MAX_CONNECTIONS * Settings.MAX_THREADS);
        if (poolsize != null) {
            long perThread = (poolsize + threads - 1) / threads;
            out.general("connections", perThread, "client.poolsize", "per thread: poolsize / threads"
                    + (poolsize % threads == 0 ? "" : ", rounded up"));
            if (poolsize % threads != 0) {
                out.note("client.poolsize", poolsize + " connections over " + threads + " threads: fluxperf opens "
                        + perThread + " per thread, " + perThread * threads + " in all");
            }
        }
        Long concurrency = c.integer("concurrency", 1, Settings.MAX_PIPELINE);
        if (concurrency != null) {
            out.general("pipeline", concurrency, "client.concurrency", "requests in flight per connection");
        }
        String connect = RpcPerfKeyspaces.duration(c, "connect_timeout", 1_000_000L, 1);
        if (connect != null) {
            out.general("connect-timeout", connect, "client.connect_timeout", "rpc-perf 5 counts milliseconds");
        }
        String timeout = RpcPerfKeyspaces.duration(c, "request_timeout", 1_000_000L, 1);
        if (timeout != null) {
            out.general("timeout", timeout, "client.request_timeout", "rpc-perf 5 counts milliseconds");
        }
        Long reconnect = c.integer("reconnect_rate", 0, Long.MAX_VALUE);
        if (reconnect != null && reconnect > 0) {
            throw c.error("reconnect_rate", "fluxperf does not reconnect at a rate; leave it out"
                    + " (--connect-per-request opens one connection per request)");
        }
        for (String b : List.of("read_buffer_size", "write_buffer_size")) {
            if (c.integer(b, 1, Long.MAX_VALUE) != null) {
                out.note("client." + b, "fluxperf's buffers grow as a request or reply needs");
            }
        }
    }

    /** The run's rate ramp from [workload.ratelimit] (rpc-perf's rules), or null when it has only a start. */
    private static RateRamp workloadRamp(TomlTable root) {
        TomlTable w = root.table("workload");
        RampConfig.Ratelimit r = w == null ? null : RampConfig.read(w);
        return r == null ? null : r.ramp();
    }

    /**
     * " of protocol 'mysql'" when the file's [general] names a protocol, so that refusing a workload
     * kind also names the protocol it was written for; empty otherwise.
     */
    private static String ofProtocol(TomlTable root) {
        TomlTable g = root.table("general");
        String p = g == null ? null : g.string("protocol");
        if (p == null) {
            return "";
        }
        boolean spoken = PROTOCOLS.containsKey(p.toLowerCase(java.util.Locale.ROOT));
        return " of protocol '" + p + "'" + (spoken ? "" : " (a protocol fluxperf does not speak either)");
    }

    /** The run's total rate from [workload.ratelimit] start; 0 when there is none. */
    private static double workloadRate(RpcPerfTranslation out, TomlTable root) {
        TomlTable w = root.table("workload");
        if (w == null) {
            throw root.file().error("no [workload] table: nothing to send");
        }
        w.allowOnly(WORKLOAD);
        if (w.integer("threads", 1, Long.MAX_VALUE) != null) {
            out.note("workload.threads", "fluxperf makes each request on the load thread that sends it: no"
                    + " generator threads to size");
        }
        TomlTable r = w.table("ratelimit");
        if (r == null) {
            return 0;
        }
        r.allowOnly(RATELIMIT);
        Long start = r.integer("start", 0, Long.MAX_VALUE);
        return start == null ? 0 : start;
    }

    private static void tls(RpcPerfTranslation out, TomlTable t) {
        if (t == null) {
            return;
        }
        t.allowOnly(TLS);
        for (String k : List.of("private_key", "private_key_password", "certificate", "certificate_chain")) {
            if (t.string(k) != null) {
                throw t.error(k, "fluxperf does not present a client certificate yet; leave " + k + " out"
                        + " (a CA to trust is ca_file)");
            }
        }
        out.general("tls", true, "tls", null);
        String ca = t.string("ca_file");
        if (ca != null) {
            out.general("tls-ca", ca, "tls.ca_file", null);
        }
        if (Boolean.FALSE.equals(t.bool("verify_hostname"))) {
            out.general("tls-insecure", true, "tls.verify_hostname", "no certificate or name check");
        }
        if (Boolean.FALSE.equals(t.bool("use_sni"))) {
            out.note("tls.use_sni", "fluxperf sends the server name (SNI) only when --sni gives one");
        }
    }

    private static RpcPerfKeyspaces.Keyspace keyspace(TomlTable t) {
        t.allowOnly(KEYSPACE);
        RpcPerfKeyspaces.Keyspace k = new RpcPerfKeyspaces.Keyspace();
        k.from = t.path();
        k.weight = or(t.integer("weight", 0, Integer.MAX_VALUE), 1);
        Long klen = t.integer("klen", 1, Settings.MAX_KEY_LENGTH);
        Long nkeys = t.integer("nkeys", 1, Long.MAX_VALUE / 2);
        if (klen == null || nkeys == null) {
            throw t.error("needs klen (key length in bytes) and nkeys (how many keys)");
        }
        k.keyLength = klen.intValue();
        k.keyLengthFrom = t.keyPath("klen");
        k.count = nkeys;
        k.countFrom = t.keyPath("nkeys");
        if (Long.toString(nkeys - 1).length() > klen) {
            throw t.error("klen", nkeys + " keys need keys of at least " + Long.toString(nkeys - 1).length()
                    + " bytes in fluxperf (it writes the key index in digits), not " + klen);
        }
        String distribution = t.string("key_distribution");
        if (distribution != null) {
            KeyDistribution d = KeyDistribution.parse(distribution);
            if (d == null || d == KeyDistribution.SEQUENTIAL) {
                throw t.error("key_distribution", "must be uniform or zipf, not '" + distribution + "'");
            }
            k.distribution = d;
            k.distributionFrom = t.keyPath("key_distribution");
        }
        Long vlen = t.integer("vlen", 0, ValueSize.MAX_BYTES);
        if (vlen != null) {
            k.bytes = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.numberNode(vlen);
            k.bytesFrom = t.keyPath("vlen");
            k.bytesComment = null;
        }
        String vkind = t.string("vkind");
        if (vkind != null) {
            WorkloadShape.ValueKind kind = WorkloadShape.ValueKind.parse(vkind);
            if (kind == null) {
                throw t.error("vkind", "must be bytes or i64, not '" + vkind + "'");
            }
            k.valueKind = kind;
            k.valueKindFrom = t.keyPath("vkind");
        }
        Double ratio = t.number("compression_ratio");
        if (ratio != null) {
            if (!(ratio >= 1)) {
                throw t.error("compression_ratio", "must be at least 1.0 (1.0: not compressible), not " + ratio);
            }
            k.compressionRatio = ratio;
            k.compressionFrom = t.keyPath("compression_ratio");
        }
        Long innerKeys = t.integer("inner_keys_nkeys", 1, Long.MAX_VALUE / 2);
        Long innerLength = t.integer("inner_keys_klen", 1, Settings.MAX_KEY_LENGTH);
        if (innerKeys != null || innerLength != null) {
            if (innerKeys == null || innerLength == null) {
                throw t.error(innerKeys == null ? "inner_keys_klen" : "inner_keys_nkeys",
                        "needs both inner_keys_klen and inner_keys_nkeys");
            }
            if (Long.toString(innerKeys - 1).length() > innerLength) {
                throw t.error("inner_keys_klen", innerKeys + " inner keys need at least "
                        + Long.toString(innerKeys - 1).length() + " bytes, not " + innerLength);
            }
            k.innerKeys = innerKeys;
            k.innerKeyLength = innerLength.intValue();
            k.innerFrom = t.keyPath("inner_keys_nkeys");
        }
        Duration ttl = RpcPerfKeyspaces.humanDuration(t, "ttl");
        if (ttl != null) {
            if (ttl.getSeconds() > Settings.MAX_TTL || ttl.getSeconds() < 1 || ttl.getNano() != 0) {
                throw t.error("ttl", "must be whole seconds from 1 s to 30 days, not " + DurationParser.format(ttl));
            }
            k.ttl = (int) ttl.getSeconds();
            k.ttlFrom = t.keyPath("ttl");
        }
        for (TomlTable c : RpcPerfKeyspaces.tables(t, "commands")) {
            c.allowOnly(COMMAND);
            String verb = c.string("verb");
            if (verb == null) {
                throw c.error("missing verb (get, set, hget, …)");
            }
            Command command = VERBS.get(verb.toLowerCase(java.util.Locale.ROOT));
            if (command == null) {
                command = RpcPerf3Reader.command(c, "verb", verb);
            }
            long weight = or(c.integer("weight", 0, Integer.MAX_VALUE), 1);
            int cardinality = (int) or(c.integer("cardinality", 1, WorkloadShape.MAX_CARDINALITY), 1);
            if (cardinality > 1 && !command.takesCardinality() && command != Command.GET) {
                throw c.error("cardinality", verb + " takes one field or member; cardinality above 1 is for get,"
                        + " get_batch, hget, hset, hdel, sadd, srem, zadd, zrem, zscore, lpush and rpush");
            }
            boolean listFetch = verb.equalsIgnoreCase("list_fetch");
            for (String range : List.of("start", "end", "by_score")) {
                if (command != Command.ZRANGE || listFetch) {
                    RpcPerfKeyspaces.unsupported(c, range, range + " is for zrange (sorted_set_range) alone, as in"
                            + " rpc-perf; leave it out of " + verb);
                }
            }
            if (!command.takesTruncate()) {
                RpcPerfKeyspaces.unsupported(c, "truncate", "truncate is for lpush and rpush (list_push_front,"
                        + " list_push_back) alone, as in rpc-perf; leave it out of " + verb);
            }
            Long start = c.integer("start", Integer.MIN_VALUE, Integer.MAX_VALUE);
            Long end = c.integer("end", Integer.MIN_VALUE, Integer.MAX_VALUE);
            boolean byScore = Boolean.TRUE.equals(c.bool("by_score"));
            Long truncate = c.integer("truncate", 1, WorkloadShape.MAX_TRUNCATE);
            String rangeNote = null;
            if (listFetch) {
                start = 0L;
                end = -1L;
                rangeNote = "list_fetch is LRANGE k 0 -1, the whole list";
            } else if (command == Command.ZRANGE && !byScore && (start == null || end == null)) {
                // fluxperf's own default is 0 to 9
                start = start != null ? start : 0L;
                end = end != null ? end : -1L;
                rangeNote = "rpc-perf's zrange reads from 0 and to -1 (the end) unless told";
            }
            k.commands.add(new RpcPerfKeyspaces.Cmd(c.path(), c.keyPath("verb"), command, weight, cardinality, null,
                    start, end, byScore, truncate == null ? null : truncate.intValue(), rangeNote));
        }
        if (k.commands.isEmpty()) {
            throw t.error("commands", "lists no command; give at least one { verb = \"get\", weight = 1 }");
        }
        return k;
    }

    private static long or(Long v, long fallback) {
        return v != null ? v : fallback;
    }
}
