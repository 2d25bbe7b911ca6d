package io.fluxperf.engine.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxperf.engine.UserError;
import io.fluxperf.engine.protocol.ProtocolOption;
import io.fluxperf.engine.protocol.ProtocolOptions;
import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.engine.request.Command;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * What a TOML config file says, checked value by value but not yet merged with the flags: a null
 * field was not in the file. The layout is documented on {@link ConfigResolver}.
 */
final class ConfigFile {
    static final List<String> TOP_KEYS = List.of("general", "workload", "slo");
    /** The keys of [general] that are not protocol options, which the protocols add ({@link #generalKeys()}). */
    static final List<String> GENERAL_KEYS = List.of("server", "protocol", "threads", "connections", "pipeline",
            "duration", "windows", "warmup", "timeout", "tcp-nodelay", "requests", "seed",
            "udp", "tls", "tls-ca", "tls-insecure", "sni", "connect-per-request", "hold-connections", "connect-rate",
            "io-uring", "busy-poll", "stats-interval", "early-send", "arrivals", "warmup-hitrate", "connect-timeout", "waterfall",
            "servers", "distribution", "cluster", "read-from",
            "out",
            "admin");
    static final List<String> WORKLOAD_KEYS = List.of("name", "method", "rate", "weight", "bytes", "hit", "flush",
            "keys-per-request", "ttl", "keyspace", "key-length", "distribution", "exponent", "command", "path",
            "key-offset", "cardinality", "inner-keyspace", "inner-key-length", "value-kind", "compression-ratio",
            "values", "script",
            "range-start", "range-end", "by-score", "truncate", "subscribers",
            "ratelimit");
    /** The keys of an [[slo]] table (docs/slo.md). */
    static final List<String> SLO_KEYS = List.of("objective", "workload", "abort", "strict");

    final TomlConfigFile toml;
    String server;
    String protocol;
    Integer threads;
    Integer connections;
    Integer pipeline;
    Duration duration;
    Integer windows;
    Duration warmup;
    Duration timeout;
    Boolean tcpNoDelay;
    Long requests;
    Long seed;
    /** The protocol options of [general], each with its place in the file; checked by the protocol. */
    ProtocolOptions protocolOptions = ProtocolOptions.none();
    Boolean udp;
    Boolean tls;
    String tlsCa;
    Boolean tlsInsecure;
    String sni;
    Boolean connectPerRequest;
    Integer holdConnections;
    Double connectRate;
    Boolean ioUring;
    Boolean busyPoll;
    Duration statsInterval;
    Duration earlySend;
    Arrivals arrivals;
    Double warmupHitrate;
    Duration connectTimeout;
    java.nio.file.Path waterfall;
    /** [general] out: the run directory to write. */
    java.nio.file.Path out;
    /** [general] servers: every server, each checked ({@link ServerSpec}); null when absent. */
    List<ServerSpec> servers;
    ServerDistribution serverDistribution;
    Boolean cluster;
    ReadFrom readFrom;
    /** [general] admin: the admin endpoint's [ADDR:]PORT, checked. */
    String admin;
    final List<Workload> workloads = new ArrayList<>();
    /** The [[slo]] tables' objectives, in order, each naming its place in the file. */
    final List<io.fluxperf.engine.slo.Objective> objectives = new ArrayList<>();

    /** One [[workload]] table; null fields were not given. */
    static final class Workload {
        final TomlTable table;
        final int index;
        String name;
        Command method;
        Double rate;
        Integer weight;
        ValueSize bytes;
        Boolean hit;
        Boolean flush;
        Integer keysPerRequest;
        Integer ttl;
        /** A weighted ttl list ({@code ttl = [{ seconds = 60, weight = 5 }, …]} or {@code "60:5,3600:1"}), or null. */
        TtlMix ttls;
        Long keyspace;
        Integer keyLength;
        KeyDistribution distribution;
        Double exponent;
        String command;
        String path;
        Long keyOffset;
        Integer cardinality;
        Long innerKeys;
        Integer innerKeyLength;
        WorkloadShape.ValueKind valueKind;
        Double compressionRatio;
        WorkloadShape.ValueMode values;
        String script;
        /** [workload.ratelimit]: its start (the rate) and ramp; null when absent. */
        RampConfig.Ratelimit ratelimit;
        // list and sorted-set reads and pushes (rpc-perf 5's start, end, by_score, truncate)
        Long rangeStart;
        Long rangeEnd;
        Boolean byScore;
        Integer truncate;
        /** A publish workload's subscriber connections. */
        Integer subscribers;

        Workload(TomlTable table, int index) {
            this.table = table;
            this.index = index;
        }

        UserError error(String key, String problem) {
            return table.error(key, problem);
        }

        UserError error(String problem) {
            return table.error(problem);
        }
    }

    /** Every key [general] may hold: the run's own and every registered protocol's options. */
    /**
     * What fluxperf says of a key it does not know that an rpc-perf generation has: a file without
     * the tables that tell rpc-perf's layouts apart is read as fluxperf's own.
     */
    private static String rpcPerfKey(String table, String key) {
        List<String> owners = RpcPerfFormat.owners(table, key);
        if (owners.isEmpty()) {
            return null;
        }
        String first = owners.get(0);
        return "rpc-perf " + String.join(" and ", owners) + (owners.size() > 1 ? " have" : " has")
                + " it: to read the file as rpc-perf " + first + " does, give --config-format rpc-perf-" + first
                + (owners.size() > 1 ? " (or rpc-perf-" + owners.get(1) + ")" : "");
    }

    static List<String> generalKeys() {
        List<String> keys = new ArrayList<>(GENERAL_KEYS);
        Protocols.allOptions().values().forEach(o -> keys.add(o.key()));
        return keys;
    }

    private ConfigFile(TomlConfigFile toml) {
        this.toml = toml;
    }

    /** No file: every value absent. */
    static ConfigFile empty() {
        return new ConfigFile(null);
    }

    static ConfigFile read(Path path) {
        return read(path, null, note -> { });
    }

    /**
     * Reads {@code path} in {@code format} (--config-format; null: told by the file's shape), an
     * rpc-perf file through its translation, whose notes go to {@code notes}.
     */
    static ConfigFile read(Path path, String format, java.util.function.Consumer<String> notes) {
        TomlConfigFile toml = TomlConfigFile.read(path);
        RpcPerfFormat f = RpcPerfFormat.parse(format);
        if (f == null) {
            f = RpcPerfFormat.detect(toml);
        }
        if (f == RpcPerfFormat.FLUXPERF) {
            return parse(toml);
        }
        RpcPerfTranslation t = RpcPerfFormat.translate(f, toml);
        t.notes().forEach(notes);
        return parse(t.toConfigFile());
    }

    static ConfigFile parse(TomlConfigFile toml) {
        ConfigFile c = new ConfigFile(toml);
        TomlTable root = toml.root();
        root.allowOnly(TOP_KEYS, key -> rpcPerfKey(null, key));
        TomlTable general = root.table("general");
        if (general != null) {
            c.readGeneral(general);
        }
        JsonNode workloads = root.raw("workload");
        if (workloads instanceof ObjectNode) {
            throw root.error("workload", "expected an array of tables; write [[workload]] (double brackets), not [workload]");
        }
        if (workloads != null && !(workloads instanceof ArrayNode)) {
            throw root.error("workload", "expected [[workload]] tables, not " + TomlTable.describe(workloads));
        }
        if (workloads != null) {
            for (int i = 0; i < workloads.size(); i++) {
                JsonNode w = workloads.get(i);
                String path = "workload[" + i + "]";
                if (!(w instanceof ObjectNode o)) {
                    throw toml.error(path, "expected a table, not " + TomlTable.describe(w));
                }
                c.workloads.add(readWorkload(new TomlTable(toml, path, o), i));
            }
        }
        c.readObjectives(root);
        return c;
    }

    private void readGeneral(TomlTable g) {
        g.allowOnly(generalKeys(), key -> rpcPerfKey("general", key));
        server = checked(g, "server", g.string("server"), Checks::server);
        protocol = checked(g, "protocol", g.string("protocol"), Checks::protocol);
        threads = toInt(g.integer("threads", 1, ConfigResolver.MAX_THREADS));
        connections = toInt(g.integer("connections", 1, ConfigResolver.MAX_CONNECTIONS));
        pipeline = toInt(g.integer("pipeline", 1, ConfigResolver.MAX_PIPELINE));
        duration = checked(g, "duration", g.duration("duration"), ConfigResolver::positive);
        windows = toInt(g.integer("windows", 1, Integer.MAX_VALUE));
        warmup = checked(g, "warmup", g.duration("warmup"), ConfigResolver::notNegative);
        timeout = checked(g, "timeout", g.duration("timeout"), ConfigResolver::positive);
        tcpNoDelay = g.bool("tcp-nodelay");
        requests = g.integer("requests", 0, Long.MAX_VALUE);
        seed = g.integer("seed", Long.MIN_VALUE, Long.MAX_VALUE);
        for (ProtocolOption o : Protocols.allOptions().values()) {
            List<String> values = switch (o.shape()) {
                case TEXT -> g.string(o.key()) == null ? null : List.of(g.string(o.key()));
                case INTEGER -> g.integer(o.key(), o.min(), o.max()) == null ? null
                        : List.of(Long.toString(g.integer(o.key(), o.min(), o.max())));
                case TEXT_LIST -> g.strings(o.key());
            };
            for (String v : values == null ? List.<String>of() : values) {
                protocolOptions = protocolOptions.with(o.flag(), v, g.place(o.key()));
            }
        }
        udp = g.bool("udp");
        tls = g.bool("tls");
        tlsCa = g.string("tls-ca");
        tlsInsecure = g.bool("tls-insecure");
        sni = g.string("sni");
        connectPerRequest = g.bool("connect-per-request");
        holdConnections = toInt(g.integer("hold-connections", 0, ConfigResolver.MAX_HELD_CONNECTIONS));
        connectRate = checked(g, "connect-rate", g.number("connect-rate"), Checks::rate);
        ioUring = g.bool("io-uring");
        busyPoll = g.bool("busy-poll");
        statsInterval = checked(g, "stats-interval", g.duration("stats-interval"), ConfigResolver::notNegative);
        earlySend = checked(g, "early-send", g.duration("early-send"), ConfigResolver::notNegative);
        arrivals = checked(g, "arrivals", g.string("arrivals"), Checks::arrivals);
        warmupHitrate = checked(g, "warmup-hitrate", g.number("warmup-hitrate"), Checks::hitrate);
        connectTimeout = checked(g, "connect-timeout", g.duration("connect-timeout"), ConfigResolver::positive);
        waterfall = checked(g, "waterfall", g.string("waterfall"), Checks::png);
        PoolResolver.readGeneral(this, g);
        admin = checked(g, "admin", g.string("admin"), Checks::admin);
        out = g.string("out") == null ? null : java.nio.file.Path.of(g.string("out"));
    }

    /** [[slo]] tables: objective = "p99<2ms", an optional workload = "get" and abort = true. */
    private void readObjectives(TomlTable root) {
        JsonNode tables = root.raw("slo");
        if (tables == null) {
            return;
        }
        if (tables instanceof ObjectNode) {
            throw root.error("slo", "expected an array of tables; write [[slo]] (double brackets), not [slo]");
        }
        if (!(tables instanceof ArrayNode)) {
            throw root.error("slo", "expected [[slo]] tables, not " + TomlTable.describe(tables));
        }
        for (int i = 0; i < tables.size(); i++) {
            String path = "slo[" + i + "]";
            if (!(tables.get(i) instanceof ObjectNode o)) {
                throw toml.error(path, "expected a table, not " + TomlTable.describe(tables.get(i)));
            }
            TomlTable t = new TomlTable(toml, path, o);
            t.allowOnly(SLO_KEYS);
            String expression = t.string("objective");
            if (expression == null) {
                throw t.error("missing objective; write objective = \"p99<2ms\"");
            }
            String workload = t.string("workload");
            if (workload != null && workload.isBlank()) {
                throw t.error("workload", "must not be empty");
            }
            String problem = io.fluxperf.engine.slo.Objectives.problem(expression);
            if (problem != null) {
                throw t.error("objective", "'" + expression + "': " + problem);
            }
            Boolean abort = t.bool("abort");
            Boolean strict = t.bool("strict");
            String origin = t.place(workload != null ? "workload" : "objective");
            io.fluxperf.engine.slo.Objective objective;
            try {
                objective = io.fluxperf.engine.slo.Objectives.parse(expression, workload == null ? null : workload.strip(),
                        origin);
            } catch (UserError e) {
                throw t.error("objective", "'" + expression + "' " + e.getMessage().substring(origin.length() + 2));
            }
            objectives.add(objective.withAbort(abort != null && abort).withStrict(strict != null && strict));
        }
    }

    private static Workload readWorkload(TomlTable t, int index) {
        t.allowOnly(WORKLOAD_KEYS);
        Workload w = new Workload(t, index);
        w.name = t.string("name");
        if (w.name != null && w.name.isBlank()) {
            throw t.error("name", "must not be empty");
        }
        if (w.name != null) {
            w.name = w.name.strip();
        }
        w.command = t.string("command");
        w.path = t.string("path");
        w.method = checked(t, "method", t.string("method"), Checks::method);
        if (w.command != null) {
            if (w.method != null) {
                throw t.error("command", "a workload has a method or a command, not both");
            }
            checked(t, "command", w.command, Checks::template);
            w.method = Command.COMMAND;
        }
        if (w.path != null) {
            checked(t, "path", w.path, Checks::path);
        }
        if (w.method == null) {
            throw t.error("missing method; expected one of " + Checks.METHODS);
        }
        w.rate = checked(t, "rate", t.number("rate"), Checks::rate);
        w.ratelimit = RampConfig.read(t);
        if (w.ratelimit != null && w.rate != null) {
            throw t.error("rate", "and ratelimit.start both set the rate; keep one");
        }
        if (w.ratelimit != null) {
            w.rate = w.ratelimit.start();
        }
        w.weight = toInt(t.integer("weight", 0, Integer.MAX_VALUE));
        w.bytes = valueSize(t);
        w.hit = t.bool("hit");
        w.flush = t.bool("flush");
        w.keysPerRequest = toInt(t.integer("keys-per-request", 1, ConfigResolver.MAX_KEYS_PER_REQUEST));
        JsonNode ttl = t.raw("ttl");
        if (ttl != null && !ttl.isIntegralNumber()) {
            w.ttls = ttlMix(t, ttl);
        } else {
            w.ttl = toInt(t.integer("ttl", 0, ConfigResolver.MAX_TTL));
        }
        w.keyspace = t.integer("keyspace", 1, Long.MAX_VALUE);
        w.keyLength = toInt(t.integer("key-length", 1, ConfigResolver.MAX_KEY_LENGTH));
        w.distribution = checked(t, "distribution", t.string("distribution"), Checks::distribution);
        w.exponent = checked(t, "exponent", t.number("exponent"), Checks::exponent);
        w.keyOffset = t.integer("key-offset", 0, Long.MAX_VALUE / 2);
        w.cardinality = toInt(t.integer("cardinality", 1, WorkloadShape.MAX_CARDINALITY));
        w.innerKeys = t.integer("inner-keyspace", 1, Long.MAX_VALUE / 2);
        w.innerKeyLength = toInt(t.integer("inner-key-length", 1, ConfigResolver.MAX_KEY_LENGTH));
        w.valueKind = checked(t, "value-kind", t.string("value-kind"), Checks::valueKind);
        w.compressionRatio = checked(t, "compression-ratio", t.number("compression-ratio"), Checks::compressionRatio);
        w.values = checked(t, "values", t.string("values"), Checks::valueMode);
        w.script = t.string("script");
        if (w.script != null && w.script.isBlank()) {
            throw t.error("script", "must not be empty");
        }
        w.rangeStart = t.integer("range-start", Integer.MIN_VALUE, Integer.MAX_VALUE);
        w.rangeEnd = t.integer("range-end", Integer.MIN_VALUE, Integer.MAX_VALUE);
        w.byScore = t.bool("by-score");
        w.truncate = toInt(t.integer("truncate", 1, WorkloadShape.MAX_TRUNCATE));
        w.subscribers = toInt(t.integer("subscribers", 0, WorkloadShape.MAX_SUBSCRIBERS));
        return w;
    }

    /** ttl = "60:5,3600:1" | [{ seconds = 60, weight = 5 }, …] (a single ttl is an integer) */
    private static TtlMix ttlMix(TomlTable t, JsonNode v) {
        try {
            if (v.isTextual()) {
                return TtlMix.parse(v.textValue());
            }
            if (v instanceof ArrayNode list && !list.isEmpty()) {
                int[] seconds = new int[list.size()];
                int[] weights = new int[list.size()];
                for (int i = 0; i < list.size(); i++) {
                    String path = t.keyPath("ttl") + "[" + i + "]";
                    if (!(list.get(i) instanceof ObjectNode o)) {
                        throw t.file().error(path, "expected a table { seconds = N, weight = W }, not "
                                + TomlTable.describe(list.get(i)));
                    }
                    TomlTable entry = new TomlTable(t.file(), path, o);
                    entry.allowOnly(List.of("seconds", "weight"));
                    Long s = entry.integer("seconds", 0, ConfigResolver.MAX_TTL);
                    if (s == null) {
                        throw entry.error("missing seconds; write { seconds = N, weight = W }");
                    }
                    Long weight = entry.integer("weight", 0, Integer.MAX_VALUE);
                    seconds[i] = (int) (long) s;
                    weights[i] = weight == null ? 1 : (int) (long) weight;
                }
                return new TtlMix(seconds, weights);
            }
        } catch (IllegalArgumentException e) {
            throw t.error("ttl", e.getMessage());
        }
        throw t.error("ttl", "expected seconds (60) or a weighted list ([{ seconds = 60, weight = 5 },"
                + " { seconds = 3600, weight = 1 }] or \"60:5,3600:1\"), not " + TomlTable.describe(v));
    }

    /** bytes = 64 | "16..1024" | { min = 16, max = 1024 } | [{ size = 64, weight = 9 }, …] */
    private static ValueSize valueSize(TomlTable t) {
        JsonNode v = t.raw("bytes");
        if (v == null) {
            return null;
        }
        try {
            if (v.isIntegralNumber()) {
                return ValueSizeParser.fixed(t.integer(v, "bytes", Long.MIN_VALUE, Long.MAX_VALUE));
            }
            if (v.isTextual()) {
                return ValueSizeParser.parse(v.textValue());
            }
            if (v instanceof ObjectNode) {
                TomlTable range = t.table("bytes");
                range.allowOnly(List.of("min", "max"));
                Long min = range.integer("min", Long.MIN_VALUE, Long.MAX_VALUE);
                Long max = range.integer("max", Long.MIN_VALUE, Long.MAX_VALUE);
                if (min == null || max == null) {
                    throw new IllegalArgumentException("a range needs both min and max, as in { min = 16, max = 1024 }");
                }
                return ValueSizeParser.range(min, max);
            }
            if (v instanceof ArrayNode list) {
                if (list.isEmpty()) {
                    throw new IllegalArgumentException("a weighted list needs at least one { size = N, weight = W } table");
                }
                long[] sizes = new long[list.size()];
                long[] weights = new long[list.size()];
                for (int i = 0; i < list.size(); i++) {
                    String path = t.keyPath("bytes") + "[" + i + "]";
                    if (!(list.get(i) instanceof ObjectNode o)) {
                        throw t.file().error(path, "expected a table { size = N, weight = W }, not "
                                + TomlTable.describe(list.get(i)));
                    }
                    TomlTable entry = new TomlTable(t.file(), path, o);
                    entry.allowOnly(List.of("size", "weight"));
                    Long size = entry.integer("size", Long.MIN_VALUE, Long.MAX_VALUE);
                    if (size == null) {
                        throw entry.error("missing size; write { size = N, weight = W }");
                    }
                    Long weight = entry.integer("weight", Long.MIN_VALUE, Long.MAX_VALUE);
                    sizes[i] = size;
                    weights[i] = weight == null ? 1 : weight;
                }
                return ValueSizeParser.weighted(sizes, weights);
            }
        } catch (IllegalArgumentException e) {
            throw t.error("bytes", e.getMessage());
        }
        throw t.error("bytes", "expected a size (64), a range ({ min = 16, max = 1024 }) or a weighted list"
                + " ([{ size = 64, weight = 9 }, { size = 4096, weight = 1 }]), not " + TomlTable.describe(v));
    }

    private static <T, R> R checked(TomlTable t, String key, T value, Function<T, R> check) {
        if (value == null) {
            return null;
        }
        try {
            return check.apply(value);
        } catch (IllegalArgumentException e) {
            throw t.error(key, e.getMessage());
        }
    }

    private static Integer toInt(Long v) {
        return v == null ? null : Math.toIntExact(v);
    }
}
