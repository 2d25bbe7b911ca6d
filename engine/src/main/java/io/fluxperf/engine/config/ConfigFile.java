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
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * What a TOML config file says, checked value by value but not yet merged with the flags: a null
 * field was not in the file. The layout is documented on {@link ConfigResolver}.
 */
final class ConfigFile {
    static final List<String> TOP_KEYS = List.of("general", "workload", "slo");
    /** The keys of a [[workload]] table that no setting declares: no flag sets them. */
    private static final List<String> WORKLOAD_TABLE_KEYS = List.of("weight", "key-offset", "cardinality",
            "inner-keyspace", "inner-key-length", "value-kind", "compression-ratio", "values", "script", "range-start",
            "range-end", "by-score", "truncate");
    /** Every key a [[workload]] table may hold: its name, the declared settings' keys, then the table's own. */
    static final List<String> WORKLOAD_KEYS = workloadKeys();
    /** The keys of an [[slo]] table (docs/slo.md). */
    static final List<String> SLO_KEYS = List.of("objective", "workload", "abort", "strict");

    final TomlConfigFile toml;
    /** [general]'s settings ({@link Setting#isGeneral}: the servers' too), each checked. */
    SettingValues general = SettingValues.none();
    /** The protocol options of [general], each with its place in the file; checked by the protocol. */
    ProtocolOptions protocolOptions = ProtocolOptions.none();
    final List<Workload> workloads = new ArrayList<>();
    /** The [[slo]] tables' objectives, in order, each naming its place in the file. */
    final List<io.fluxperf.engine.slo.Objective> objectives = new ArrayList<>();

    /** One [[workload]] table; null fields were not given. */
    static final class Workload {
        final TomlTable table;
        final int index;
        /**
         * The keys of the declared settings read from the table by their type
         * ({@link Setting#readsFromWorkloadTable}: keyspace, key-length, hit, …), each checked; a
         * key not given has no value.
         */
        SettingValues settings = SettingValues.none();
        String name;
        Command method;
        Double rate;
        Integer weight;
        ValueSize bytes;
        Integer ttl;
        /** A weighted ttl list ({@code ttl = [{ seconds = 60, weight = 5 }, …]} or {@code "60:5,3600:1"}), or null. */
        TtlMix ttls;
        KeyDistribution distribution;
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

    private static List<String> workloadKeys() {
        List<String> keys = new ArrayList<>(List.of("name"));
        for (Setting<?> s : Settings.all()) {
            if (s.scope() == Setting.Scope.WORKLOAD && s.key() != null) {
                keys.add(s.key());
            }
        }
        keys.addAll(WORKLOAD_TABLE_KEYS);
        return List.copyOf(keys);
    }

    /** Every key [general] may hold: the run's settings' and every registered protocol's options. */
    static List<String> generalKeys() {
        List<String> keys = new ArrayList<>();
        for (Setting<?> s : Settings.all()) {
            if (s.key() != null && s.isGeneral()) {
                keys.add(s.key());
            }
        }
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
        for (Setting<?> s : Settings.all()) {
            if (s.isGeneral()) {
                general = read(general, s, g);
            }
        }
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
    }

    private static <T> SettingValues read(SettingValues values, Setting<T> s, TomlTable g) {
        return values.with(s, s.read(g));
    }

    /** Where [general]'s key of {@code s} is, to start a message with. */
    String place(Setting<?> s) {
        return toml.place("general." + s.key());
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
        // the keys that are a flag's too, read by the flag's declared type (its limits, its messages)
        for (Setting<?> s : Settings.all()) {
            if (s.readsFromWorkloadTable()) {
                w.settings = read(w.settings, s, t);
            }
        }
        JsonNode ttl = t.raw("ttl");
        if (ttl != null && !ttl.isIntegralNumber()) {
            w.ttls = ttlMix(t, ttl);
        } else {
            w.ttl = Settings.TTL.read(t);
        }
        w.distribution = checked(t, "distribution", t.string("distribution"), Checks::distribution);
        w.keyOffset = t.integer("key-offset", 0, Long.MAX_VALUE / 2);
        w.cardinality = toInt(t.integer("cardinality", 1, WorkloadShape.MAX_CARDINALITY));
        w.innerKeys = t.integer("inner-keyspace", 1, Long.MAX_VALUE / 2);
        w.innerKeyLength = toInt(t.integer("inner-key-length", 1, Settings.MAX_KEY_LENGTH));
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
                    Long s = entry.integer("seconds", 0, Settings.MAX_TTL);
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
