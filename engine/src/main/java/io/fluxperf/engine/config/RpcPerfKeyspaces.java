package io.fluxperf.engine.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxperf.engine.request.Command;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * rpc-perf's keyspace model (3.x {@code [[keyspace]]}, 5.x {@code [[workload.keyspace]]}) as
 * fluxperf workloads: one workload per keyspace and command, whose share of the requests is the
 * keyspace's share times the command's share within it (as a rate when the run is rate limited,
 * else as a weight). Keyspaces whose keys have the same length get disjoint key indexes.
 * Also the reading helpers the three rpc-perf readers share.
 */
final class RpcPerfKeyspaces {
    /** Closed-loop weights are shares scaled to this, so that 9:1 of 4:1 stays exact enough. */
    private static final long WEIGHT_SCALE = 1_000_000L;

    private RpcPerfKeyspaces() {
    }

    /**
     * One command of a keyspace; {@code start}, {@code end}, {@code byScore} and {@code truncate}
     * are rpc-perf 5's range and trim keys (null or false when not given), {@code rangeNote} says
     * where a range the file does not give comes from (null: the file gives it).
     */
    record Cmd(String from, String verbFrom, Command command, long weight, int cardinality, Integer ttl, Long start,
               Long end, boolean byScore, Integer truncate, String rangeNote) {
        Cmd(String from, String verbFrom, Command command, long weight, int cardinality, Integer ttl) {
            this(from, verbFrom, command, weight, cardinality, ttl, null, null, false, null, null);
        }
    }

    /** One keyspace, read. */
    static final class Keyspace {
        String from;
        long weight = 1;
        int keyLength;
        String keyLengthFrom;
        long count;
        String countFrom;
        KeyDistribution distribution = KeyDistribution.UNIFORM;
        String distributionFrom;
        JsonNode bytes;
        String bytesFrom;
        String bytesComment;
        WorkloadShape.ValueKind valueKind;
        String valueKindFrom;
        Double compressionRatio;
        String compressionFrom;
        Long innerKeys;
        Integer innerKeyLength;
        String innerFrom;
        Integer ttl;
        String ttlFrom;
        final List<Cmd> commands = new ArrayList<>();
    }

    /**
     * Adds the workloads of {@code keyspaces} to {@code out}: at {@code totalRate} requests/s split
     * by share (open loop), or closed loop by weight when it is 0.
     */
    static void expand(RpcPerfTranslation out, List<Keyspace> keyspaces, double totalRate, String rateFrom) {
        expand(out, keyspaces, totalRate, rateFrom, null);
    }

    /** The same, with the run's rate ramp ({@code [workload.ratelimit]}) shared among the workloads as the rate is; null: none. */
    static void expand(RpcPerfTranslation out, List<Keyspace> keyspaces, double totalRate, String rateFrom, RateRamp ramp) {
        long keyspaceWeights = 0;
        for (Keyspace k : keyspaces) {
            long commandWeights = k.commands.stream().mapToLong(Cmd::weight).sum();
            if (k.weight > 0 && commandWeights > 0) {
                keyspaceWeights += k.weight;
            }
        }
        if (keyspaceWeights == 0) {
            throw out.source.error("no keyspace has a weight above 0 and a command with a weight above 0,"
                    + " so there is nothing to send");
        }
        Map<Integer, Long> nextOffset = new HashMap<>();
        Set<String> names = new HashSet<>();
        for (int ki = 0; ki < keyspaces.size(); ki++) {
            Keyspace k = keyspaces.get(ki);
            long commandWeights = k.commands.stream().mapToLong(Cmd::weight).sum();
            if (k.weight == 0 || commandWeights == 0) {
                continue;
            }
            long offset = nextOffset.getOrDefault(k.keyLength, 0L);
            if (Long.toString(offset + k.count - 1).length() > k.keyLength) {
                out.note(k.from, "its keys share indexes with an earlier keyspace of " + k.keyLength
                        + "-byte keys (both together do not fit in " + k.keyLength + " digits)");
                offset = 0;
            }
            nextOffset.put(k.keyLength, offset + k.count);
            for (int ci = 0; ci < k.commands.size(); ci++) {
                Cmd c = k.commands.get(ci);
                if (c.weight == 0) {
                    continue;
                }
                double share = (double) k.weight / keyspaceWeights * c.weight / commandWeights;
                String name = c.command.label() + (c.cardinality > 1 ? "-x" + c.cardinality : "");
                if (keyspaces.size() > 1) {
                    name = "ks" + ki + "-" + name;
                }
                String unique = name;
                for (int n = 2; !names.add(unique); n++) {
                    unique = name + "-" + n;
                }
                int w = out.workload(c.from, k.from + " × " + c.from.substring(k.from.length() + 1) + ": "
                        + String.format(Locale.ROOT, "%.4g", share * 100) + " % of the requests");
                out.workload(w, "name", unique, c.from, null);
                out.workload(w, "method", c.command.label(), c.verbFrom, null);
                if (ramp != null) {
                    com.fasterxml.jackson.databind.node.ObjectNode r =
                            com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
                    r.put("start", ramp.start() * share);
                    r.put("end", ramp.end() * share);
                    r.put("step", ramp.step() * share);
                    r.put("interval", DurationParser.format(ramp.interval()));
                    r.put("ramp", ramp.ramp().label());
                    r.put("on_ramp_completion", ramp.completion().label());
                    out.workload(w, "ratelimit", r, "workload.ratelimit",
                            String.format(Locale.ROOT, "the ramp, %.4g %% of each step", share * 100));
                } else if (totalRate > 0) {
                    out.workload(w, "rate", totalRate * share, rateFrom,
                            String.format(Locale.ROOT, "%.4g %% of it", share * 100));
                } else {
                    out.workload(w, "weight", Math.max(1, Math.round(share * WEIGHT_SCALE)), c.from,
                            "weights: its share of the requests × " + WEIGHT_SCALE);
                }
                out.workload(w, "keyspace", k.count, k.countFrom != null ? k.countFrom : k.from,
                        k.countFrom != null ? null : "as many keys as the key length holds");
                out.workload(w, "key-length", (long) k.keyLength, k.keyLengthFrom != null ? k.keyLengthFrom : k.from, null);
                if (offset > 0) {
                    out.workload(w, "key-offset", offset, k.from, "keyspaces of the same key length kept apart");
                }
                if (k.distribution != KeyDistribution.UNIFORM) {
                    out.workload(w, "distribution", k.distribution.label(), k.distributionFrom, null);
                }
                if (k.bytes != null && c.command.carriesValue()) {
                    out.workload(w, "bytes", k.bytes, k.bytesFrom, k.bytesComment);
                }
                if (k.valueKind != null && k.valueKind != WorkloadShape.ValueKind.BYTES && c.command.carriesValue()) {
                    out.workload(w, "value-kind", k.valueKind.label(), k.valueKindFrom, null);
                }
                if (k.compressionRatio != null && k.compressionRatio != 1.0 && c.command.carriesValue()) {
                    out.workload(w, "compression-ratio", k.compressionRatio, k.compressionFrom, null);
                }
                if (k.innerKeys != null && c.command.takesMembers()) {
                    out.workload(w, "inner-keyspace", k.innerKeys, k.innerFrom, null);
                    out.workload(w, "inner-key-length", (long) k.innerKeyLength, k.innerFrom, null);
                }
                if (c.cardinality > 1 && c.command == Command.GET) {
                    // rpc-perf's get and get_batch of several keys: one multi-key get (MGET)
                    out.workload(w, "keys-per-request", (long) c.cardinality, c.from, "cardinality: keys per get");
                } else if (c.cardinality > 1) {
                    out.workload(w, "cardinality", (long) c.cardinality, c.from, null);
                }
                if (c.start != null) {
                    out.workload(w, "range-start", c.start, c.from, c.rangeNote);
                }
                if (c.end != null) {
                    out.workload(w, "range-end", c.end, c.from, c.rangeNote);
                }
                if (c.byScore) {
                    out.workload(w, "by-score", true, c.from, null);
                }
                if (c.truncate != null) {
                    out.workload(w, "truncate", (long) c.truncate, c.from, "an LTRIM sent with each push");
                }
                Integer ttl = c.ttl != null ? c.ttl : k.ttl;
                if (ttl != null && ttl > 0 && c.command.takesTtl()) {
                    out.workload(w, "ttl", (long) ttl, c.ttl != null ? c.from : k.ttlFrom, "seconds");
                }
            }
        }
    }

    // ---- reading helpers the readers share ----

    /** The tables of an array of tables at {@code key}; empty when absent. */
    static List<TomlTable> tables(TomlTable t, String key) {
        JsonNode v = t.raw(key);
        List<TomlTable> out = new ArrayList<>();
        if (v == null) {
            return out;
        }
        if (!v.isArray()) {
            throw t.error(key, "expected an array of tables ([[" + t.keyPath(key) + "]] or [{ … }, …]), not "
                    + TomlTable.describe(v));
        }
        for (int i = 0; i < v.size(); i++) {
            String path = t.keyPath(key) + "[" + i + "]";
            if (!(v.get(i) instanceof ObjectNode o)) {
                throw t.file().error(path, "expected a table, not " + TomlTable.describe(v.get(i)));
            }
            out.add(new TomlTable(t.file(), path, o));
        }
        return out;
    }

    /**
     * The fluxperf protocol for rpc-perf's {@code name}, or a one-sentence refusal naming the
     * protocol and the file.
     */
    static String protocol(TomlTable t, String key, String name, Map<String, String> spoken, String names) {
        String p = spoken.get(name.toLowerCase(Locale.ROOT));
        if (p == null) {
            throw t.error(key, "rpc-perf's protocol '" + name + "' is not one fluxperf speaks; it speaks " + names
                    + " (give one of them, or run that server's own benchmark)");
        }
        return p;
    }

    /** A whole number of {@code unit} at {@code key} as a fluxperf duration string. */
    static String duration(TomlTable t, String key, long unitNanos, long min) {
        Long v = t.integer(key, min, Long.MAX_VALUE / unitNanos);
        return v == null ? null : DurationParser.format(Duration.ofNanos(v * unitNanos));
    }

    /**
     * The file's endpoints as fluxperf's {@code server}, or its {@code servers} when there are
     * several (each key then placed by ketama, as a libmemcached client places it). Nothing when
     * the table has no such key.
     */
    static void endpoints(TomlTable t, String key, RpcPerfTranslation out) {
        List<String> endpoints = t.strings(key);
        if (endpoints == null) {
            return;
        }
        if (endpoints.isEmpty()) {
            throw t.error(key, "names no endpoint; give one HOST:PORT, or --server");
        }
        if (endpoints.size() == 1) {
            out.general("server", endpoint(t, key, endpoints.get(0), out), t.keyPath(key), null);
            return;
        }
        List<String> servers = new java.util.ArrayList<>();
        for (String e : endpoints) {
            servers.add(endpoint(t, key, e, out));
        }
        out.general("servers", servers, t.keyPath(key), "each key on one server, placed by ketama");
        out.note(t.keyPath(key), "rpc-perf sends each request to any endpoint's connection; fluxperf places each"
                + " key on one server by ketama, as libmemcached clients do (distribution = \"modula\" for the other)");
    }

    /** One endpoint as fluxperf's --server: HOST:PORT, [IPv6]:PORT or unix:/path. */
    private static String endpoint(TomlTable t, String key, String endpoint, RpcPerfTranslation out) {
        String e = endpoint.strip();
        for (String scheme : List.of("redis://", "rediss://", "memcache://", "tcp://")) {
            if (e.startsWith(scheme)) {
                e = e.substring(scheme.length());
                if (scheme.equals("rediss://")) {
                    out.note(t.keyPath(key), "a rediss:// endpoint needs TLS: fluxperf adds tls = true");
                    out.general("tls", true, t.keyPath(key), "rediss://");
                }
                int at = e.lastIndexOf('@');
                if (at >= 0) {
                    throw t.error(key, "has a user or password in the endpoint; give them with --user and --password");
                }
                int slash = e.indexOf('/');
                if (slash >= 0) {
                    e = e.substring(0, slash);
                }
                if (!e.contains(":")) {
                    e = e + ":6379";
                }
            }
        }
        if (e.startsWith("unix://")) {
            e = "unix:" + e.substring("unix://".length());
        }
        try {
            return Checks.server(e);
        } catch (IllegalArgumentException ex) {
            throw t.error(key, ex.getMessage());
        }
    }

    /** rpc-perf 5's durations: "15m", "1s", "100ms", or a whole number of seconds. */
    static Duration humanDuration(TomlTable t, String key) {
        JsonNode v = t.raw(key);
        if (v == null) {
            return null;
        }
        if (v.isIntegralNumber()) {
            return Duration.ofSeconds(t.integer(key, 0, Long.MAX_VALUE / 1_000_000_000L));
        }
        if (v.isTextual()) {
            try {
                return DurationParser.parse(v.textValue().replace(" ", ""));
            } catch (IllegalArgumentException e) {
                throw t.error(key, e.getMessage());
            }
        }
        throw t.error(key, "expected a duration such as \"60s\" or a whole number of seconds, not "
                + TomlTable.describe(v));
    }

    /** Fails on a key that rpc-perf has and fluxperf has no feature for. */
    static void unsupported(TomlTable t, String key, String why) {
        if (t.has(key)) {
            throw t.error(key, why);
        }
    }
}
