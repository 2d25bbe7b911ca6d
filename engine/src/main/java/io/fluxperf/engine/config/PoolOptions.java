package io.fluxperf.engine.config;

import java.util.List;
import java.util.Objects;

/**
 * Where a run's requests go when it has more than one server: the servers as given (each
 * {@code HOST:PORT} with an optional {@code :WEIGHT}), how keys are placed on them, and whether the
 * servers are the seeds of a cluster that places keys itself. Immutable.
 *
 * <p>It holds the values of the servers' settings ({@link Setting.Scope#POOL}) as a config file
 * that makes these options again gives them ({@link #get}, which a run directory's config.toml
 * writes): {@code servers}, then {@code distribution} for a pool or {@code cluster} and
 * {@code read-from} for a cluster; a setting of the servers that none of these combine is kept as
 * resolved.
 *
 * <p>A run against one server has {@link #single()} options (or its one server listed alone): its
 * reports are exactly those of a run without a pool.
 *
 * @param values the servers' settings, as a file gives them
 */
public record PoolOptions(SettingValues values) {
    private static final PoolOptions SINGLE = new PoolOptions(SettingValues.none());

    public PoolOptions {
        Objects.requireNonNull(values, "values");
        if (values.get(Settings.READ_FROM) == ReadFrom.REPLICA && !Boolean.TRUE.equals(values.get(Settings.CLUSTER))) {
            throw new IllegalArgumentException("reads from replicas need a cluster");
        }
    }

    /** One server (or the embedded target): no pool. */
    public static PoolOptions single() {
        return SINGLE;
    }

    /** Several servers with keys placed by {@code distribution}, or the seeds of a cluster. */
    public static PoolOptions of(List<String> servers, ServerDistribution distribution, boolean cluster, ReadFrom readFrom) {
        return of(servers, distribution, cluster, readFrom, SettingValues.none());
    }

    /**
     * The same, with the other settings of the servers among {@code others} (each as resolved);
     * only what applies is kept: the distribution without a cluster, the reads' source with one.
     */
    static PoolOptions of(List<String> servers, ServerDistribution distribution, boolean cluster, ReadFrom readFrom,
                          SettingValues others) {
        Objects.requireNonNull(distribution, "distribution");
        Objects.requireNonNull(readFrom, "readFrom");
        SettingValues v = others.only(s -> s.scope() == Setting.Scope.POOL && !combined(s))
                .with(Settings.SERVERS, servers.isEmpty() ? null : List.copyOf(servers));
        v = cluster ? v.with(Settings.CLUSTER, true).with(Settings.READ_FROM, readFrom)
                : v.with(Settings.SERVER_DISTRIBUTION, distribution).with(Settings.READ_FROM,
                        readFrom == ReadFrom.MASTER ? null : readFrom);
        return new PoolOptions(v);
    }

    /** The settings that {@link #of} makes from its arguments. */
    private static boolean combined(Setting<?> s) {
        return s == Settings.SERVER || s == Settings.SERVERS || s == Settings.SERVER_DISTRIBUTION
                || s == Settings.CLUSTER || s == Settings.READ_FROM;
    }

    /** The value of a setting of the servers, as a config file gives it; null where it does not apply. */
    public <T> T get(Setting<T> s) {
        return values.get(s);
    }

    /** Every server as given, weights included; empty for one server or the embedded target. */
    public List<String> servers() {
        List<String> v = values.get(Settings.SERVERS);
        return v == null ? List.of() : v;
    }

    /** How keys are placed on the servers; ketama unless told. */
    public ServerDistribution distribution() {
        ServerDistribution d = values.get(Settings.SERVER_DISTRIBUTION);
        return d == null ? Settings.SERVER_DISTRIBUTION.defaultValue() : d;
    }

    /** The servers are seed nodes of a cluster (redis Cluster), which names its own nodes and places keys by its slot map. */
    public boolean cluster() {
        return Boolean.TRUE.equals(values.get(Settings.CLUSTER));
    }

    /** A cluster run's reads: from the masters, or from their replicas. */
    public ReadFrom readFrom() {
        ReadFrom r = values.get(Settings.READ_FROM);
        return r == null ? Settings.READ_FROM.defaultValue() : r;
    }

    /** The run places keys over several servers, or over a cluster's nodes. */
    public boolean isPool() {
        return cluster() || servers().size() > 1;
    }
}
