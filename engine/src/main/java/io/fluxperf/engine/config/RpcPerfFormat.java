package io.fluxperf.engine.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxperf.engine.UserError;
import java.util.List;
import java.util.Set;

/**
 * The config layouts {@code --config} reads: fluxperf's own and rpc-perf's three generations,
 * told apart by their shape (the tables and keys only one of them has) unless
 * {@code --config-format} names one.
 */
enum RpcPerfFormat {
    FLUXPERF("fluxperf", "fluxperf"),
    RPC_PERF_2("rpc-perf-2", "rpc-perf 0.2/2.x"),
    RPC_PERF_3("rpc-perf-3", "rpc-perf 3.x"),
    RPC_PERF_5("rpc-perf-5", "rpc-perf 5.x");

    /** [general] keys of rpc-perf 2.x that fluxperf's own [general] does not have (for {@link #owner}). */
    private static final Set<String> GENERAL_2 = Set.of("ipv4", "ipv6", "database", "request-timeout",
            "max-request-timeout", "max-connect-timeout", "connect-ratelimit", "rx-buffer-size", "tx-buffer-size");
    /** [general] keys of rpc-perf 3.x that fluxperf's own [general] does not have. */
    private static final Set<String> GENERAL_3 = Set.of("interval", "clients", "poolsize", "tcp_nodelay",
            "request_timeout", "connect_timeout", "request_ratelimit", "request_distribution", "connect_ratelimit",
            "warmup_hitrate", "waterfall", "endpoints", "listen", "admin", "logging", "close_rate", "soft_timeout",
            "tls_key", "tls_cert", "tls_ca", "tls_session_cache_size");
    /** [general] keys of rpc-perf 5.x that fluxperf's own [general] does not have. */
    private static final Set<String> GENERAL_5 = Set.of("interval", "admin", "initial_seed", "metrics_output",
            "metrics_format", "metrics_interval");

    private final String flag;
    private final String label;

    RpcPerfFormat(String flag, String label) {
        this.flag = flag;
        this.label = label;
    }

    String label() {
        return label;
    }

    /** --config-format's value, or null for "tell by the shape". */
    static RpcPerfFormat parse(String text) {
        if (text == null) {
            return null;
        }
        for (RpcPerfFormat f : values()) {
            if (f.flag.equalsIgnoreCase(text.trim())) {
                return f;
            }
        }
        throw new UserError("--config-format: unknown format '" + text + "'; expected rpc-perf-2, rpc-perf-3,"
                + " rpc-perf-5 or fluxperf");
    }

    /**
     * Which layout {@code file} has, told by the tables only one generation has, never by the
     * spelling of a key: a key can be a typo of fluxperf's own ({@code tcp_nodelay}), a table
     * layout cannot. rpc-perf 5 has {@code [target]} or {@code [client]}, or a single
     * {@code [workload]} table holding {@code [[workload.keyspace]]} or {@code [workload.ratelimit]};
     * rpc-perf 3 has {@code [[keyspace]]} at the top; rpc-perf 2 has {@code [[warmup]]} or
     * {@code [[workload.parameter]]} tables. Anything else is fluxperf's own, and gets its
     * messages ({@code [workload]} with single brackets is fluxperf's mistake, not rpc-perf 5's).
     */
    static RpcPerfFormat detect(TomlConfigFile file) {
        TomlTable top = file.root();
        JsonNode workload = top.raw("workload");
        if (top.raw("target") instanceof ObjectNode || top.raw("client") instanceof ObjectNode
                || workload instanceof ObjectNode w
                && (w.get("keyspace") instanceof ArrayNode || w.get("ratelimit") instanceof ObjectNode)) {
            return RPC_PERF_5;
        }
        if (top.raw("keyspace") instanceof ArrayNode) {
            return RPC_PERF_3;
        }
        if (top.raw("warmup") instanceof ArrayNode) {
            return RPC_PERF_2;
        }
        if (workload instanceof ArrayNode list) {
            for (JsonNode w : list) {
                if (w.get("parameter") instanceof ArrayNode) {
                    return RPC_PERF_2;
                }
            }
        }
        return FLUXPERF;
    }

    /**
     * The rpc-perf generations ("2", "3", "5") whose files have {@code key} at the top
     * ({@code table} null) or in {@code [general]}; empty when none has it. For fluxperf's message
     * on a key it does not know that is no typo of its own: the file may be an rpc-perf file
     * without the tables that tell it apart.
     */
    static List<String> owners(String table, String key) {
        List<String> owners = new java.util.ArrayList<>();
        if (table == null) {
            if (key.equals("warmup")) {
                owners.add("2");
            }
            if (key.equals("keyspace") || key.equals("tls")) {
                owners.add("3");
            }
            if (List.of("target", "client", "tls", "metrics", "debug").contains(key)) {
                owners.add("5");
            }
        } else if (table.equals("general")) {
            if (GENERAL_2.contains(key)) {
                owners.add("2");
            }
            if (GENERAL_3.contains(key)) {
                owners.add("3");
            }
            if (GENERAL_5.contains(key)) {
                owners.add("5");
            }
        }
        return owners;
    }

    /** {@code file} in fluxperf's layout: itself, or its translation. */
    static RpcPerfTranslation translate(RpcPerfFormat format, TomlConfigFile file) {
        return switch (format) {
            case FLUXPERF -> null;
            case RPC_PERF_2 -> RpcPerf2Reader.read(file);
            case RPC_PERF_3 -> RpcPerf3Reader.read(file);
            case RPC_PERF_5 -> RpcPerf5Reader.read(file);
        };
    }
}
