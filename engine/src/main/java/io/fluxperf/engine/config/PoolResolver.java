package io.fluxperf.engine.config;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.protocol.Protocol;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The servers of a run, flags over the config file: one server, several with their weights and
 * distribution ({@code --server} repeated, {@code servers = [...]}), or a cluster's seeds
 * ({@code --cluster}), with the combinations a pool cannot take refused in one sentence each.
 */
final class PoolResolver {
    private PoolResolver() {
    }

    /** Reads [general]'s {@code servers}, {@code distribution}, {@code cluster} and {@code read-from}. */
    static void readGeneral(ConfigFile c, TomlTable g) {
        List<String> list = g.strings("servers");
        if (list != null) {
            if (g.has("server")) {
                throw g.error("servers", "give server or servers, not both");
            }
            if (list.isEmpty()) {
                throw g.error("servers", "the list is empty; give at least one \"HOST:PORT\"");
            }
            List<ServerSpec> specs = new ArrayList<>();
            for (int i = 0; i < list.size(); i++) {
                try {
                    specs.add(ServerSpec.parse(list.get(i)));
                } catch (IllegalArgumentException e) {
                    throw g.error("servers", "item " + (i + 1) + ": " + e.getMessage());
                }
            }
            String twice = duplicate(specs);
            if (twice != null) {
                throw g.error("servers", twice + " is listed twice");
            }
            c.servers = specs;
        }
        String d = g.string("distribution");
        if (d != null) {
            c.serverDistribution = ServerDistribution.parse(d);
            if (c.serverDistribution == null) {
                throw g.error("distribution", "expected ketama or modula (how keys are placed on the servers), not '" + d
                        + "'; a key distribution (uniform, zipf, sequential) belongs in a [[workload]] table");
            }
        }
        c.cluster = g.bool("cluster");
        String r = g.string("read-from");
        if (r != null) {
            c.readFrom = ReadFrom.parse(r);
            if (c.readFrom == null) {
                throw g.error("read-from", "expected master or replica, not '" + r + "'");
            }
        }
    }

    /**
     * The run's server list and how keys are placed on it, as {@link PoolOptions#of} (a pool of one
     * that is no cluster is one server).
     *
     * @param protocol checked for a cluster mode; null: checked later (replay knows its protocol from the log)
     */
    static PoolOptions resolve(RunSettings flags, ConfigFile f, Protocol protocol) {
        List<ServerSpec> servers = servers(flags, f);
        boolean cluster = flags.cluster != null ? flags.cluster : f.cluster != null && f.cluster;
        String clusterPlace = flags.cluster != null ? "--cluster" : f.toml != null ? f.toml.place("general.cluster") : "--cluster";
        ServerDistribution distribution = ServerDistribution.KETAMA;
        boolean distributionGiven = flags.serverDistribution != null || f.serverDistribution != null;
        if (flags.serverDistribution != null) {
            distribution = ServerDistribution.parse(flags.serverDistribution);
            if (distribution == null) {
                throw new UserError("--distribution: expected ketama or modula, not '" + flags.serverDistribution + "'");
            }
        } else if (f.serverDistribution != null) {
            distribution = f.serverDistribution;
        }
        ReadFrom readFrom = ReadFrom.MASTER;
        if (flags.readFrom != null) {
            readFrom = ReadFrom.parse(flags.readFrom);
            if (readFrom == null) {
                throw new UserError("--read-from: expected master or replica, not '" + flags.readFrom + "'");
            }
        } else if (f.readFrom != null) {
            readFrom = f.readFrom;
        }
        if (readFrom == ReadFrom.REPLICA && !cluster) {
            throw new UserError((flags.readFrom != null ? "--read-from" : f.toml.place("general.read-from"))
                    + ": replicas are a cluster's; add --cluster, or leave out --read-from");
        }
        if (cluster) {
            if (servers.isEmpty()) {
                throw new UserError(clusterPlace + ": a cluster run needs --server with one or more of its nodes"
                        + " to read the slot map from");
            }
            if (protocol != null && protocol.cluster() == null) {
                throw new UserError(clusterPlace + ": protocol " + protocol.name() + " has no cluster mode");
            }
            if (distributionGiven) {
                throw new UserError((flags.serverDistribution != null ? "--distribution" : f.toml.place("general.distribution"))
                        + ": a cluster places keys by its own slot map; leave out the distribution or --cluster");
            }
        }
        List<String> texts = servers.stream().map(ServerSpec::toString).toList();
        return PoolOptions.of(texts, distribution, cluster, readFrom);
    }

    /** The pool's own refusals, once the connection options and workloads are known. */
    static void check(PoolOptions pool, ConnectionOptions connection, List<WorkloadConfig> workloads, RunSettings flags,
                      ConfigFile f) {
        if (!pool.isPool()) {
            return;
        }
        String what = pool.cluster() ? "--cluster" : "several servers";
        if (connection.udp()) {
            throw new UserError("--udp: fluxperf sends over UDP to one server only, not to " + what);
        }
        if (connection.connectPerRequest()) {
            throw new UserError("--connect-per-request: a connection per request goes to one server only, not to " + what);
        }
        if (connection.holdConnections() > 0) {
            throw new UserError("--hold-connections: with " + what + ", --connections says how many each server gets per thread");
        }
        for (int i = 0; i < workloads.size(); i++) {
            WorkloadConfig w = workloads.get(i);
            if (w.keysPerRequest() > 1) {
                String place = flags.keysPerRequest != null ? "--keys-per-request"
                        : f.toml != null ? f.toml.place("workload[" + i + "].keys-per-request") : "--keys-per-request";
                throw new UserError(place + ": " + w.keysPerRequest() + " keys per request would span "
                        + (pool.cluster() ? "slots of the cluster, which refuses such a request" : "servers")
                        + ": generated keys spread over every " + (pool.cluster() ? "slot" : "server")
                        + ", so use 1 key per request with " + what);
            }
        }
    }

    private static List<ServerSpec> servers(RunSettings flags, ConfigFile f) {
        if (flags.servers != null && !flags.servers.isEmpty()) {
            List<ServerSpec> specs = new ArrayList<>();
            for (String s : flags.servers) {
                try {
                    specs.add(ServerSpec.parse(s));
                } catch (IllegalArgumentException e) {
                    throw new UserError("--server: " + e.getMessage());
                }
            }
            String twice = duplicate(specs);
            if (twice != null) {
                throw new UserError("--server: " + twice + " is given twice");
            }
            return specs;
        }
        if (flags.server != null) {
            try {
                return List.of(ServerSpec.parse(flags.server));
            } catch (IllegalArgumentException e) {
                throw new UserError("--server: " + e.getMessage());
            }
        }
        if (f.servers != null) {
            return f.servers;
        }
        return f.server != null ? List.of(new ServerSpec(f.server, 1)) : List.of();
    }

    private static String duplicate(List<ServerSpec> specs) {
        Set<String> seen = new HashSet<>();
        for (ServerSpec s : specs) {
            if (!seen.add(s.address())) {
                return s.address();
            }
        }
        return null;
    }
}
