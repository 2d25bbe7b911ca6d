package io.fluxperf.engine.config;

import java.util.List;
import java.util.Objects;

/**
 * Where a run's requests go when it has more than one server: the servers as given (each
 * {@code HOST:PORT} with an optional {@code :WEIGHT}), how keys are placed on them, and whether the
 * servers are the seeds of a cluster that places keys itself. Immutable.
 *
 * <p>A run against one server has {@link #single()} options (or its one server listed alone): its
 * reports are exactly those of a run without a pool.
 *
 * @param servers      every server as given, weights included; empty for the embedded target
 * @param distribution how keys are placed on the servers; ketama unless told
 * @param cluster      the servers are seed nodes of a cluster (redis Cluster), which names its own
 *                     nodes and places keys by its slot map
 * @param readFrom     a cluster run's reads: from the masters, or from their replicas
 */
public record PoolOptions(List<String> servers, ServerDistribution distribution, boolean cluster, ReadFrom readFrom) {
    private static final PoolOptions SINGLE = new PoolOptions(List.of(), ServerDistribution.KETAMA, false, ReadFrom.MASTER);

    public PoolOptions {
        servers = List.copyOf(servers);
        Objects.requireNonNull(distribution, "distribution");
        Objects.requireNonNull(readFrom, "readFrom");
        if (readFrom == ReadFrom.REPLICA && !cluster) {
            throw new IllegalArgumentException("reads from replicas need a cluster");
        }
    }

    /** One server (or the embedded target): no pool. */
    public static PoolOptions single() {
        return SINGLE;
    }

    /** Several servers with keys placed by {@code distribution}, or the seeds of a cluster. */
    public static PoolOptions of(List<String> servers, ServerDistribution distribution, boolean cluster, ReadFrom readFrom) {
        return new PoolOptions(servers, distribution, cluster, readFrom);
    }

    /** The run places keys over several servers, or over a cluster's nodes. */
    public boolean isPool() {
        return cluster || servers.size() > 1;
    }
}
