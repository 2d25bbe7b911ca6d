package io.fluxperf.engine.config;

import io.fluxperf.engine.protocol.ProtocolOptions;
import io.fluxperf.engine.protocol.Protocols;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Everything that shapes a run (what the config file and the flags say, merged and checked).
 * Outputs (JSON, HdrHistogram log, trace) are not part of it. Immutable: make one with
 * {@link #builder()}, or a changed copy with {@link #toBuilder()}; {@link Builder#build()} checks
 * what no single setter can (a run needs a workload, rated and unrated workloads do not mix).
 */
public final class RunConfig {
    // the defaults, each declared with its setting in Settings
    public static final int DEFAULT_THREADS = Settings.THREADS.defaultValue();
    public static final int DEFAULT_CONNECTIONS = Settings.CONNECTIONS.defaultValue();
    public static final int DEFAULT_PIPELINE = Settings.PIPELINE.defaultValue();
    public static final Duration DEFAULT_DURATION = Settings.DURATION.defaultValue();
    public static final int DEFAULT_WINDOWS = Settings.WINDOWS.defaultValue();
    public static final Duration DEFAULT_TIMEOUT = Settings.TIMEOUT.defaultValue();
    public static final long DEFAULT_SEED = Settings.SEED.defaultValue();
    public static final boolean DEFAULT_TCP_NODELAY = Settings.TCP_NODELAY.defaultValue();
    public static final Duration DEFAULT_EARLY_SEND = Settings.EARLY_SEND.defaultValue();

    private final String server;
    /** The values of [general]'s settings ({@link Setting.Scope#GENERAL}), defaults included. */
    private final SettingValues general;
    private final List<WorkloadConfig> workloads;
    private final ProtocolOptions protocolOptions;
    private final ConnectionOptions connection;
    private final PoolOptions pool;
    private final List<RateRamp> ramps;
    /** Sharded runs (issue 31): this agent's share, or null; when the schedule starts, or null for now. */
    private final io.fluxperf.engine.shard.Shard shard;
    private final java.time.Instant startAt;
    private final List<io.fluxperf.engine.slo.Objective> objectives;

    private RunConfig(Builder b) {
        this.server = b.server;
        this.general = b.general;
        this.workloads = List.copyOf(b.workloads);
        this.protocolOptions = b.protocolOptions;
        this.connection = b.connection;
        this.pool = b.pool;
        this.ramps = java.util.Collections.unmodifiableList(new ArrayList<>(b.ramps));
        this.shard = b.shard;
        this.startAt = b.startAt;
        this.objectives = List.copyOf(b.objectives);
    }

    /** Where the admin endpoint listens ({@code [ADDR:]PORT}), or null for none. */
    public String admin() {
        return general.get(Settings.ADMIN);
    }

    /** Per workload (by index) its rate ramp, or null where it has none; shorter than the workloads when the last have none. */
    public List<RateRamp> ramps() {
        return ramps;
    }

    /**
     * This agent's share of a sharded run (its workloads' rates and request count are already its
     * share; the shard picks its keys, seeds and place in the schedule), or null when unsharded.
     */
    public io.fluxperf.engine.shard.Shard shard() {
        return shard;
    }

    /** The wall-clock time at which the schedule starts ({@code --start-at}), or null: as soon as the run is ready. */
    public java.time.Instant startAt() {
        return startAt;
    }

    /**
     * The value of a setting of [general], of the connections or of the servers
     * ({@link Setting#isGeneral}); null when it has none (no default, not given, or a setting of
     * the servers that does not apply: {@link PoolOptions#get}).
     */
    @SuppressWarnings("unchecked")
    public <T> T get(Setting<T> s) {
        return switch (s.scope()) {
            case GENERAL -> general.get(s);
            case CONNECTION -> connection.get(s);
            // one server is no pool: its address is the run's server
            case POOL -> s == Settings.SERVER ? (T) (server == null || pool.isPool() ? null : List.of(server)) : pool.get(s);
            default -> throw new IllegalArgumentException(s.name() + " is not kept in a RunConfig: its scope is "
                    + s.scope());
        };
    }

    /** Defaults everywhere, and no workload yet. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder that starts from this config. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /**
     * HOST:PORT, [IPv6]:PORT or unix:/path of the target, or null for the embedded target; of a
     * run with several servers ({@link #pool()}), the first one's address.
     */
    public String server() {
        return server;
    }

    /** The servers of a run with more than one, or the seeds of a cluster; {@link PoolOptions#single()} otherwise. */
    public PoolOptions pool() {
        return pool;
    }

    /** The registered protocol's name. */
    public String protocol() {
        return general.get(Settings.PROTOCOL);
    }

    /** Event loops, each with its own connections. */
    public int threads() {
        return general.get(Settings.THREADS);
    }

    /** Connections per thread. */
    public int connections() {
        return general.get(Settings.CONNECTIONS);
    }

    /** Requests in flight per connection. */
    public int pipeline() {
        return general.get(Settings.PIPELINE);
    }

    /** Length of one window. */
    public Duration duration() {
        return general.get(Settings.DURATION);
    }

    public int windows() {
        return general.get(Settings.WINDOWS);
    }

    /** Load before the first window, not reported. */
    public Duration warmup() {
        return general.get(Settings.WARMUP);
    }

    /** Per-request timeout. */
    public Duration timeout() {
        return general.get(Settings.TIMEOUT);
    }

    public boolean tcpNoDelay() {
        return general.get(Settings.TCP_NODELAY);
    }

    /** Stop after this many requests in total; 0: no limit. */
    public long requests() {
        return general.get(Settings.REQUESTS);
    }

    /** Seed of the key, size and value generators. */
    public long seed() {
        return general.get(Settings.SEED);
    }

    public List<WorkloadConfig> workloads() {
        return workloads;
    }

    /** Protocol settings as given (redis AUTH/SELECT/RESP3, HTTP headers), read by the protocol. */
    public ProtocolOptions protocolOptions() {
        return protocolOptions;
    }

    /** Transport and connection mode (UDP, TLS, connect per request, held connections). */
    public ConnectionOptions connection() {
        return connection;
    }

    /** How often the per-second statistics block is printed; zero: never. */
    public Duration statsInterval() {
        return general.get(Settings.STATS_INTERVAL);
    }

    /** How long before its intended time a paced request may leave with others ({@link #DEFAULT_EARLY_SEND}). */
    public Duration earlySend() {
        return general.get(Settings.EARLY_SEND);
    }

    /** How the gaps between an open-loop workload's intended send times are drawn. */
    public Arrivals arrivals() {
        return general.get(Settings.ARRIVALS);
    }

    /**
     * The hit rate in percent that the warm-up runs until (rpc-perf's {@code warmup_hitrate}); 0:
     * none, the warm-up lasts {@link #warmup()}. With a target, {@link #warmup()} is its bound.
     */
    public double warmupHitrate() {
        return general.get(Settings.WARMUP_HITRATE);
    }

    /** How long a connect may take before it fails; null: twice the request timeout, within 1 to 5 s. */
    public Duration connectTimeout() {
        return general.get(Settings.CONNECT_TIMEOUT);
    }

    /**
     * The latency heatmap PNG to write at the run's end (rpc-perf 3's {@code waterfall}), drawn
     * from the run's trace; null for none.
     */
    public java.nio.file.Path waterfall() {
        return general.get(Settings.WATERFALL);
    }

    /**
     * The run directory to write ({@code run --out DIR}, {@code [general] out}), or null. Not part
     * of {@link #equals}: where the record goes does not change what is measured.
     */
    public java.nio.file.Path out() {
        return general.get(Settings.OUT);
    }

    /** The service-level objectives checked per window and over the run (--slo, [[slo]]); empty for none. */
    public List<io.fluxperf.engine.slo.Objective> objectives() {
        return objectives;
    }

    /**
     * Open loop: a workload has a rate, and its latency counts from the intended send time. Every
     * workload has one, or some do beside unpaced ones ({@link #isMixed()}).
     */
    public boolean isOpenLoop() {
        return workloads.stream().anyMatch(WorkloadConfig::isRated);
    }

    /**
     * Paced workloads (probes) beside unpaced ones, as mutilate and rpc-perf 2 run them: the paced
     * ones measure latency at their rates on the last load thread and its connections of their
     * own, while the unpaced ones load the server as fast as it answers on the other threads.
     */
    public boolean isMixed() {
        return isOpenLoop() && workloads.stream().anyMatch(w -> !w.isRated());
    }

    /** Connections of the whole run: threads × connections, or --hold-connections. */
    public int totalConnections() {
        return connection.holdConnections() > 0 ? connection.holdConnections() : threads() * connections();
    }

    public boolean needsFlush() {
        return workloads.stream().anyMatch(WorkloadConfig::flush);
    }

    public boolean needsPreload() {
        return workloads.stream().anyMatch(WorkloadConfig::hit);
    }

    public double totalRate() {
        return workloads.stream().mapToDouble(WorkloadConfig::rate).sum();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RunConfig c && Objects.equals(server, c.server) && measured().equals(c.measured())
                && workloads.equals(c.workloads) && protocolOptions.equals(c.protocolOptions)
                && connection.equals(c.connection) && pool.equals(c.pool) && ramps.equals(c.ramps)
                && Objects.equals(shard, c.shard) && Objects.equals(startAt, c.startAt)
                && objectives.equals(c.objectives);
    }

    /** The settings but {@code out}: where the record goes does not change what is measured. */
    private SettingValues measured() {
        return general.only(s -> s != Settings.OUT);
    }

    @Override
    public int hashCode() {
        return Objects.hash(server, measured(), workloads, protocolOptions, connection, pool, ramps, shard, startAt,
                objectives);
    }

    @Override
    public String toString() {
        return "RunConfig[server=" + server + ", " + general + ", workloads=" + workloads + "]";
    }

    /**
     * Builds a {@link RunConfig}. Each setter checks its own argument
     * ({@link IllegalArgumentException}); callers that know the flag or key check first, so that
     * their message can name it.
     */
    public static final class Builder {
        private String server;
        private SettingValues general = Settings.defaults().only(s -> s.scope() == Setting.Scope.GENERAL);
        private final List<WorkloadConfig> workloads = new ArrayList<>();
        private ProtocolOptions protocolOptions = ProtocolOptions.none();
        private ConnectionOptions connection = ConnectionOptions.defaults();
        private PoolOptions pool = PoolOptions.single();
        private final List<RateRamp> ramps = new ArrayList<>();
        private io.fluxperf.engine.shard.Shard shard;
        private java.time.Instant startAt;
        private List<io.fluxperf.engine.slo.Objective> objectives = List.of();

        private Builder() {
        }

        private Builder(RunConfig c) {
            server = c.server;
            general = c.general;
            workloads.addAll(c.workloads);
            protocolOptions = c.protocolOptions;
            connection = c.connection;
            pool = c.pool;
            ramps.addAll(c.ramps);
            shard = c.shard;
            startAt = c.startAt;
            objectives = c.objectives;
        }

        /**
         * The values of {@code v}'s settings of [general] and of the connections, as
         * {@link ConfigResolver} resolved and checked them; those it has no value for keep theirs.
         */
        public Builder settings(SettingValues v) {
            general = general.with(v.only(s -> s.scope() == Setting.Scope.GENERAL));
            connection = ConnectionOptions.of(connection.values().with(v));
            return this;
        }

        /** @param v the admin endpoint's {@code [ADDR:]PORT}, or null for none */
        public Builder admin(String v) {
            general = general.with(Settings.ADMIN, v);
            return this;
        }

        /** @param v per workload its ramp or null (see {@link RunConfig#ramps()}) */
        public Builder ramps(List<RateRamp> v) {
            ramps.clear();
            ramps.addAll(v);
            return this;
        }

        /** @param v HOST:PORT, [IPv6]:PORT or unix:/path; null for the embedded target. One server: no pool. */
        public Builder server(String v) {
            server = v;
            pool = PoolOptions.single();
            return this;
        }

        /**
         * Several servers, or a cluster's seeds; the first server becomes {@link #server}. A pool
         * of one server that is no cluster is one server.
         */
        public Builder pool(PoolOptions v) {
            Objects.requireNonNull(v, "pool");
            server = v.servers().isEmpty() ? server : ServerSpec.parse(v.servers().get(0)).address();
            pool = v.isPool() ? v : PoolOptions.single();
            return this;
        }

        /** @param v a registered protocol's name */
        public Builder protocol(String v) {
            general = general.with(Settings.PROTOCOL, Objects.requireNonNull(v, "protocol"));
            return this;
        }

        public Builder threads(int v) {
            general = general.with(Settings.THREADS, atLeast(v, 1, "threads"));
            return this;
        }

        public Builder connections(int v) {
            general = general.with(Settings.CONNECTIONS, atLeast(v, 1, "connections"));
            return this;
        }

        public Builder pipeline(int v) {
            general = general.with(Settings.PIPELINE, atLeast(v, 1, "pipeline"));
            return this;
        }

        public Builder duration(Duration v) {
            general = general.with(Settings.DURATION, positive(v, "duration"));
            return this;
        }

        public Builder windows(int v) {
            general = general.with(Settings.WINDOWS, atLeast(v, 1, "windows"));
            return this;
        }

        public Builder warmup(Duration v) {
            if (v.isNegative()) {
                throw new IllegalArgumentException("warmup must not be negative, not " + v);
            }
            general = general.with(Settings.WARMUP, v);
            return this;
        }

        public Builder timeout(Duration v) {
            general = general.with(Settings.TIMEOUT, positive(v, "timeout"));
            return this;
        }

        public Builder tcpNoDelay(boolean v) {
            general = general.with(Settings.TCP_NODELAY, v);
            return this;
        }

        /** @param v stop after this many requests in total; 0: no limit */
        public Builder requests(long v) {
            if (v < 0) {
                throw new IllegalArgumentException("requests must be >= 0, not " + v);
            }
            general = general.with(Settings.REQUESTS, v);
            return this;
        }

        public Builder seed(long v) {
            general = general.with(Settings.SEED, v);
            return this;
        }

        /** Adds a workload after those added before. */
        public Builder workload(WorkloadConfig v) {
            workloads.add(Objects.requireNonNull(v, "workload"));
            return this;
        }

        /** Replaces the workloads. */
        public Builder workloads(List<WorkloadConfig> v) {
            workloads.clear();
            v.forEach(this::workload);
            return this;
        }

        public Builder protocolOptions(ProtocolOptions v) {
            protocolOptions = Objects.requireNonNull(v, "protocolOptions");
            return this;
        }

        public Builder connection(ConnectionOptions v) {
            connection = Objects.requireNonNull(v, "connection");
            return this;
        }

        /** @param v how often the statistics block is printed; zero: never */
        public Builder statsInterval(Duration v) {
            if (v.isNegative()) {
                throw new IllegalArgumentException("stats interval must not be negative, not " + v);
            }
            general = general.with(Settings.STATS_INTERVAL, v);
            return this;
        }

        /** @param v how long before its time a paced request may leave with others; zero: never early */
        public Builder earlySend(Duration v) {
            if (v.isNegative()) {
                throw new IllegalArgumentException("early send must not be negative, not " + v);
            }
            general = general.with(Settings.EARLY_SEND, v);
            return this;
        }

        public Builder arrivals(Arrivals v) {
            general = general.with(Settings.ARRIVALS, Objects.requireNonNull(v, "arrivals"));
            return this;
        }

        /** @param v percent, 0 (none) to 100 */
        public Builder warmupHitrate(double v) {
            if (!(v >= 0 && v <= 100)) {
                throw new IllegalArgumentException("warm-up hit rate must be between 0 and 100 %, not " + v);
            }
            general = general.with(Settings.WARMUP_HITRATE, v);
            return this;
        }

        /** @param v null: derived from the request timeout */
        public Builder connectTimeout(Duration v) {
            general = general.with(Settings.CONNECT_TIMEOUT, v == null ? null : positive(v, "connect timeout"));
            return this;
        }

        /** @param v a .png file, or null for none */
        public Builder waterfall(java.nio.file.Path v) {
            general = general.with(Settings.WATERFALL, v);
            return this;
        }

        /** @param v the run directory to write, or null for none */
        public Builder out(java.nio.file.Path v) {
            general = general.with(Settings.OUT, v);
            return this;
        }

        /** @param v this agent's share of a sharded run, or null (see {@link io.fluxperf.engine.shard.ShardedConfig}) */
        public Builder shard(io.fluxperf.engine.shard.Shard v) {
            shard = v;
            return this;
        }

        /** @param v when the schedule starts on the wall clock, or null for as soon as the run is ready */
        public Builder startAt(java.time.Instant v) {
            startAt = v;
            return this;
        }

        /** The objectives to check (--slo, [[slo]]). */
        public Builder objectives(List<io.fluxperf.engine.slo.Objective> v) {
            objectives = List.copyOf(v);
            return this;
        }

        public RunConfig build() {
            if (workloads.isEmpty()) {
                throw new IllegalArgumentException("a run needs at least one workload");
            }
            boolean rated = workloads.stream().anyMatch(WorkloadConfig::isRated);
            boolean mixed = rated && workloads.stream().anyMatch(w -> !w.isRated());
            if (mixed && general.get(Settings.THREADS) < 2) {
                throw new IllegalArgumentException("a run of paced workloads beside unpaced ones needs 2 threads or more:"
                        + " the last one sends the paced ones");
            }
            if (mixed && workloads.stream().filter(w -> !w.isRated()).allMatch(w -> w.weight() == 0)) {
                throw new IllegalArgumentException("every unpaced workload has weight 0; give at least one a weight above 0");
            }
            if (ramps.stream().anyMatch(java.util.Objects::nonNull) && !rated) {
                throw new IllegalArgumentException("a rate ramp needs an open-loop run (workloads with a rate)");
            }
            return new RunConfig(this);
        }

        private static int atLeast(int v, int min, String what) {
            if (v < min) {
                throw new IllegalArgumentException(what + " must be at least " + min + ", not " + v);
            }
            return v;
        }

        private static Duration positive(Duration v, String what) {
            if (v.isNegative() || v.isZero()) {
                throw new IllegalArgumentException(what + " must be greater than 0, not " + v);
            }
            return v;
        }
    }
}
