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

    /** Reads [general]'s {@code server}, {@code servers}, {@code distribution}, {@code cluster} and {@code read-from}. */
    static void readGeneral(ConfigFile c, TomlTable g) {
        String one = g.string("server");
        if (one != null) {
            try {
                c.server = Checks.server(one);
            } catch (IllegalArgumentException e) {
                throw g.error("server", e.getMessage());
            }
        }
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
        c.cluster = Settings.CLUSTER.read(g);
        c.readFrom = Settings.READ_FROM.read(g);
    }

    /**
     * The run's server list and how keys are placed on it, as {@link PoolOptions#of} (a pool of one
     * that is no cluster is one server).
     *
     * @param protocol checked for a cluster mode; null: checked later (replay knows its protocol from the log)
     */
    static PoolOptions resolve(Flags flags, ConfigFile f, Protocol protocol) {
        List<ServerSpec> servers = servers(flags, f);
        Boolean clusterFlag = flags.value(Settings.CLUSTER);
        boolean cluster = clusterFlag != null ? clusterFlag : f.cluster != null && f.cluster;
        String clusterPlace = clusterFlag != null ? "--cluster" : f.toml != null ? f.place(Settings.CLUSTER) : "--cluster";
        ServerDistribution distributionFlag = serverDistribution(flags);
        boolean distributionGiven = distributionFlag != null || f.serverDistribution != null;
        ServerDistribution distribution = distributionFlag != null ? distributionFlag
                : f.serverDistribution != null ? f.serverDistribution : Settings.SERVER_DISTRIBUTION.defaultValue();
        ReadFrom readFromFlag = flags.value(Settings.READ_FROM);
        ReadFrom readFrom = readFromFlag != null ? readFromFlag
                : f.readFrom != null ? f.readFrom : Settings.READ_FROM.defaultValue();
        if (readFrom == ReadFrom.REPLICA && !cluster) {
            throw new UserError((readFromFlag != null ? "--read-from" : f.place(Settings.READ_FROM))
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
                throw new UserError((distributionFlag != null ? "--distribution" : f.place(Settings.SERVER_DISTRIBUTION))
                        + ": a cluster places keys by its own slot map; leave out the distribution or --cluster");
            }
        }
        List<String> texts = servers.stream().map(ServerSpec::toString).toList();
        return PoolOptions.of(texts, distribution, cluster, readFrom);
    }

    /** The pool's own refusals, once the connection options and workloads are known. */
    static void check(PoolOptions pool, ConnectionOptions connection, List<WorkloadConfig> workloads, Flags flags,
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
                String place = flags.has(Settings.KEYS_PER_REQUEST) ? "--keys-per-request"
                        : f.toml != null ? f.toml.place("workload[" + i + "].keys-per-request") : "--keys-per-request";
                throw new UserError(place + ": " + w.keysPerRequest() + " keys per request would span "
                        + (pool.cluster() ? "slots of the cluster, which refuses such a request" : "servers")
                        + ": generated keys spread over every " + (pool.cluster() ? "slot" : "server")
                        + ", so use 1 key per request with " + what);
            }
        }
    }

    /**
     * --distribution ketama or modula: given as such (replay's own flag), or among run's
     * --distribution values, which also name the key distribution (the last of each kind wins).
     */
    static ServerDistribution serverDistribution(Flags flags) {
        ServerDistribution d = flags.value(Settings.SERVER_DISTRIBUTION);
        List<String> both = flags.value(Settings.DISTRIBUTION);
        for (String v : both == null ? List.<String>of() : both) {
            d = ServerDistribution.parse(v) != null ? ServerDistribution.parse(v) : d;
        }
        return d;
    }

    private static List<ServerSpec> servers(Flags flags, ConfigFile f) {
        List<String> given = flags.value(Settings.SERVER);
        if (given != null && given.size() > 1) {
            List<ServerSpec> specs = new ArrayList<>();
            for (String s : given) {
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
        if (given != null && given.size() == 1) {
            try {
                return List.of(ServerSpec.parse(given.get(0)));
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
