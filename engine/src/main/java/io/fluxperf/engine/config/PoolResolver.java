package io.fluxperf.engine.config;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.protocol.Protocol;
import java.util.List;

/**
 * The servers of a run, from the values of the servers' settings ({@link Setting.Scope#POOL}),
 * each already read and resolved as every setting is (the flag, else the file, else the default):
 * one server, several with their weights and distribution ({@code --server} repeated,
 * {@code servers = [...]}), or a cluster's seeds ({@code --cluster}), with the combinations a pool
 * cannot take refused in one sentence each, naming the flag or key that gave them.
 */
final class PoolResolver {
    private PoolResolver() {
    }

    /**
     * The run's server list and how keys are placed on it, as {@link PoolOptions#of} (a pool of one
     * that is no cluster is one server).
     *
     * @param v        every setting's value (the servers' among them)
     * @param flags    the command line, to tell a flag's value from the file's
     * @param f        the config file, to name a key's place
     * @param protocol checked for a cluster mode; null: checked later (replay knows its protocol from the log)
     */
    static PoolOptions resolve(SettingValues v, Flags flags, ConfigFile f, Protocol protocol) {
        if (f.general.has(Settings.SERVER) && f.general.has(Settings.SERVERS)) {
            throw f.toml.error("general." + Settings.SERVERS.key(), "give server or servers, not both");
        }
        // --server replaces both keys; a file gives one of them
        List<String> servers = flags.has(Settings.SERVER) || !v.has(Settings.SERVERS)
                ? v.get(Settings.SERVER) : v.get(Settings.SERVERS);
        servers = servers == null ? List.of() : servers;
        boolean cluster = v.get(Settings.CLUSTER);
        ReadFrom readFrom = v.get(Settings.READ_FROM);
        if (readFrom == ReadFrom.REPLICA && !cluster) {
            throw new UserError(place(flags, f, Settings.READ_FROM)
                    + ": replicas are a cluster's; add --cluster, or leave out --read-from");
        }
        if (cluster) {
            String clusterPlace = place(flags, f, Settings.CLUSTER);
            if (servers.isEmpty()) {
                throw new UserError(clusterPlace + ": a cluster run needs --server with one or more of its nodes"
                        + " to read the slot map from");
            }
            if (protocol != null && protocol.cluster() == null) {
                throw new UserError(clusterPlace + ": protocol " + protocol.name() + " has no cluster mode");
            }
            if (flags.has(Settings.SERVER_DISTRIBUTION) || f.general.has(Settings.SERVER_DISTRIBUTION)) {
                throw new UserError(place(flags, f, Settings.SERVER_DISTRIBUTION)
                        + ": a cluster places keys by its own slot map; leave out the distribution or --cluster");
            }
        }
        return PoolOptions.of(servers, v.get(Settings.SERVER_DISTRIBUTION), cluster, readFrom, v);
    }

    /** Where the value of {@code s} came from, to start a message with: its flag, or its key in the file. */
    private static String place(Flags flags, ConfigFile f, Setting<?> s) {
        return flags.has(s) || f.toml == null ? s.flag() : f.place(s);
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
}
