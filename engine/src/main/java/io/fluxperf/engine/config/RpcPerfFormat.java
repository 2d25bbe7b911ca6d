package io.fluxperf.engine.config;

import com.fasterxml.jackson.databind.JsonNode;
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

    /** [general] keys only rpc-perf 2.x has (fluxperf's own use the same dashes). */
    private static final Set<String> GENERAL_2 = Set.of("ipv4", "ipv6", "database", "request-timeout",
            "max-request-timeout", "max-connect-timeout", "connect-ratelimit", "rx-buffer-size",
            "tx-buffer-size");
    /** [general] keys only rpc-perf 3.x has. */
    private static final Set<String> GENERAL_3 = Set.of("interval", "clients", "poolsize", "tcp_nodelay",
            "request_timeout", "connect_timeout", "request_ratelimit", "request_distribution", "connect_ratelimit",
            "warmup_hitrate", "waterfall", "endpoints", "listen", "logging", "close_rate", "soft_timeout",
            "tls_key", "tls_cert", "tls_ca", "tls_session_cache_size");

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

    /** Which layout {@code file} has, by its tables and keys. */
    static RpcPerfFormat detect(TomlConfigFile file) {
        TomlTable top = file.root();
        if (top.has("target") || top.has("client") || top.has("debug") || top.has("metrics")
                || top.raw("workload") != null && top.raw("workload").isObject()) {
            return RPC_PERF_5;
        }
        if (top.has("keyspace") || top.has("tls")) {
            return RPC_PERF_3;
        }
        JsonNode general = top.raw("general");
        if (general != null && general.isObject()) {
            for (String k : GENERAL_3) {
                if (general.has(k)) {
                    return RPC_PERF_3;
                }
            }
            if (general.has("admin") || general.has("initial_seed")) {
                return RPC_PERF_5;
            }
            for (String k : GENERAL_2) {
                if (general.has(k)) {
                    return RPC_PERF_2;
                }
            }
            JsonNode warmup = general.get("warmup");
            if (warmup != null && warmup.isFloatingPointNumber()) {
                return RPC_PERF_2; // a hit rate in percent; fluxperf's warmup is a time
            }
        }
        if (top.has("warmup")) {
            return RPC_PERF_2;
        }
        JsonNode workloads = top.raw("workload");
        if (workloads != null && workloads.isArray()) {
            for (JsonNode w : workloads) {
                if (w.has("parameter") || w.has("script-body")) {
                    return RPC_PERF_2;
                }
            }
        }
        return FLUXPERF;
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

    /** rpc-perf's protocols that fluxperf does not speak, for the message that names them. */
    static final List<String> SPOKEN = List.of("memcache", "redis");
}
