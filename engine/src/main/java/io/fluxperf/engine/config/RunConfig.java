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
    public static final int DEFAULT_THREADS = 1;
    public static final int DEFAULT_CONNECTIONS = 25;
    public static final int DEFAULT_PIPELINE = 1;
    public static final Duration DEFAULT_DURATION = Duration.ofSeconds(60);
    public static final int DEFAULT_WINDOWS = 1;
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(1);
    public static final long DEFAULT_SEED = 42;
    /**
     * On, as memtier_benchmark and memaslap set it: with Nagle's algorithm a small request can wait
     * for the ACK of the previous segment, which measured 40% fewer requests/s against memcached.
     */
    public static final boolean DEFAULT_TCP_NODELAY = true;
    /**
     * How long before its intended time a paced request may leave when the loop is awake anyway:
     * requests closer together than this share a wake-up and a flush (fewer context switches on
     * both sides), and one that leaves early has its latency measured from its actual write.
     */
    public static final Duration DEFAULT_EARLY_SEND = Duration.ofNanos(50_000);

    private final String server;
    private final String protocol;
    private final int threads;
    private final int connections;
    private final int pipeline;
    private final Duration duration;
    private final int windows;
    private final Duration warmup;
    private final Duration timeout;
    private final boolean tcpNoDelay;
    private final long requests;
    private final long seed;
    private final List<WorkloadConfig> workloads;
    private final ProtocolOptions protocolOptions;
    private final ConnectionOptions connection;
    private final Duration statsInterval;
    private final Duration earlySend;
    private final Arrivals arrivals;
    private final double warmupHitrate;
    private final Duration connectTimeout;
    private final java.nio.file.Path waterfall;
    /** The run directory ({@code --out}, {@code [general] out}); an output, so not part of equals. */
    private final java.nio.file.Path out;
    private final PoolOptions pool;
    // the admin endpoint and rate ramps (operations issue)
    private final String admin;
    private final List<RateRamp> ramps;
    /** Sharded runs (issue 31): this agent's share, or null; when the schedule starts, or null for now. */
    private final io.fluxperf.engine.shard.Shard shard;
    private final java.time.Instant startAt;
    private final List<io.fluxperf.engine.slo.Objective> objectives;

    private RunConfig(Builder b) {
        this.server = b.server;
        this.protocol = b.protocol;
        this.threads = b.threads;
        this.connections = b.connections;
        this.pipeline = b.pipeline;
        this.duration = b.duration;
        this.windows = b.windows;
        this.warmup = b.warmup;
        this.timeout = b.timeout;
        this.tcpNoDelay = b.tcpNoDelay;
        this.requests = b.requests;
        this.seed = b.seed;
        this.workloads = List.copyOf(b.workloads);
        this.protocolOptions = b.protocolOptions;
        this.connection = b.connection;
        this.statsInterval = b.statsInterval;
        this.earlySend = b.earlySend;
        this.arrivals = b.arrivals;
        this.warmupHitrate = b.warmupHitrate;
        this.connectTimeout = b.connectTimeout;
        this.waterfall = b.waterfall;
        this.out = b.out;
        this.pool = b.pool;
        this.admin = b.admin;
        this.ramps = java.util.Collections.unmodifiableList(new ArrayList<>(b.ramps));
        this.shard = b.shard;
        this.startAt = b.startAt;
        this.objectives = List.copyOf(b.objectives);
    }

    /** Where the admin endpoint listens ({@code [ADDR:]PORT}), or null for none. */
    public String admin() {
        return admin;
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
        return protocol;
    }

    /** Event loops, each with its own connections. */
    public int threads() {
        return threads;
    }

    /** Connections per thread. */
    public int connections() {
        return connections;
    }

    /** Requests in flight per connection. */
    public int pipeline() {
        return pipeline;
    }

    /** Length of one window. */
    public Duration duration() {
        return duration;
    }

    public int windows() {
        return windows;
    }

    /** Load before the first window, not reported. */
    public Duration warmup() {
        return warmup;
    }

    /** Per-request timeout. */
    public Duration timeout() {
        return timeout;
    }

    public boolean tcpNoDelay() {
        return tcpNoDelay;
    }

    /** Stop after this many requests in total; 0: no limit. */
    public long requests() {
        return requests;
    }

    /** Seed of the key, size and value generators. */
    public long seed() {
        return seed;
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
        return statsInterval;
    }

    /** How long before its intended time a paced request may leave with others ({@link #DEFAULT_EARLY_SEND}). */
    public Duration earlySend() {
        return earlySend;
    }

    /** How the gaps between an open-loop workload's intended send times are drawn. */
    public Arrivals arrivals() {
        return arrivals;
    }

    /**
     * The hit rate in percent that the warm-up runs until (rpc-perf's {@code warmup_hitrate}); 0:
     * none, the warm-up lasts {@link #warmup()}. With a target, {@link #warmup()} is its bound.
     */
    public double warmupHitrate() {
        return warmupHitrate;
    }

    /** How long a connect may take before it fails; null: twice the request timeout, within 1 to 5 s. */
    public Duration connectTimeout() {
        return connectTimeout;
    }

    /**
     * The latency heatmap PNG to write at the run's end (rpc-perf 3's {@code waterfall}), drawn
     * from the run's trace; null for none.
     */
    public java.nio.file.Path waterfall() {
        return waterfall;
    }

    /**
     * The run directory to write ({@code run --out DIR}, {@code [general] out}), or null. Not part
     * of {@link #equals}: where the record goes does not change what is measured.
     */
    public java.nio.file.Path out() {
        return out;
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
        return connection.holdConnections() > 0 ? connection.holdConnections() : threads * connections;
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
        return o instanceof RunConfig c && Objects.equals(server, c.server) && protocol.equals(c.protocol)
                && threads == c.threads && connections == c.connections && pipeline == c.pipeline
                && duration.equals(c.duration) && windows == c.windows && warmup.equals(c.warmup)
                && timeout.equals(c.timeout) && tcpNoDelay == c.tcpNoDelay && requests == c.requests && seed == c.seed
                && workloads.equals(c.workloads) && protocolOptions.equals(c.protocolOptions)
                && connection.equals(c.connection) && statsInterval.equals(c.statsInterval)
                && earlySend.equals(c.earlySend) && arrivals == c.arrivals && warmupHitrate == c.warmupHitrate
                && Objects.equals(connectTimeout, c.connectTimeout) && Objects.equals(waterfall, c.waterfall)
                && pool.equals(c.pool)
                && Objects.equals(admin, c.admin) && ramps.equals(c.ramps)
                && Objects.equals(shard, c.shard) && Objects.equals(startAt, c.startAt)
                && objectives.equals(c.objectives);
    }

    @Override
    public int hashCode() {
        return Objects.hash(server, protocol, threads, connections, pipeline, duration, windows, warmup, timeout,
                tcpNoDelay, requests, seed, workloads, protocolOptions, connection, statsInterval, earlySend, arrivals, warmupHitrate,
                connectTimeout, waterfall, pool, admin, ramps, shard, startAt, objectives);
    }

    @Override
    public String toString() {
        return "RunConfig[server=" + server + ", protocol=" + protocol + ", threads=" + threads + ", connections="
                + connections + ", pipeline=" + pipeline + ", duration=" + duration + ", windows=" + windows
                + ", warmup=" + warmup + ", timeout=" + timeout + ", requests=" + requests + ", workloads=" + workloads
                + "]";
    }

    /**
     * Builds a {@link RunConfig}. Each setter checks its own argument
     * ({@link IllegalArgumentException}); callers that know the flag or key check first, so that
     * their message can name it.
     */
    public static final class Builder {
        private String server;
        private String protocol = Protocols.defaultProtocol().name();
        private int threads = DEFAULT_THREADS;
        private int connections = DEFAULT_CONNECTIONS;
        private int pipeline = DEFAULT_PIPELINE;
        private Duration duration = DEFAULT_DURATION;
        private int windows = DEFAULT_WINDOWS;
        private Duration warmup = Duration.ZERO;
        private Duration timeout = DEFAULT_TIMEOUT;
        private boolean tcpNoDelay = DEFAULT_TCP_NODELAY;
        private long requests;
        private long seed = DEFAULT_SEED;
        private final List<WorkloadConfig> workloads = new ArrayList<>();
        private ProtocolOptions protocolOptions = ProtocolOptions.none();
        private ConnectionOptions connection = ConnectionOptions.defaults();
        private Duration statsInterval = Duration.ZERO;
        private Duration earlySend = DEFAULT_EARLY_SEND;
        private Arrivals arrivals = Arrivals.SMOOTH;
        private double warmupHitrate;
        private Duration connectTimeout;
        private java.nio.file.Path waterfall;
        private java.nio.file.Path out;
        private PoolOptions pool = PoolOptions.single();
        private String admin;
        private final List<RateRamp> ramps = new ArrayList<>();
        private io.fluxperf.engine.shard.Shard shard;
        private java.time.Instant startAt;
        private List<io.fluxperf.engine.slo.Objective> objectives = List.of();

        private Builder() {
        }

        private Builder(RunConfig c) {
            server = c.server;
            protocol = c.protocol;
            threads = c.threads;
            connections = c.connections;
            pipeline = c.pipeline;
            duration = c.duration;
            windows = c.windows;
            warmup = c.warmup;
            timeout = c.timeout;
            tcpNoDelay = c.tcpNoDelay;
            requests = c.requests;
            seed = c.seed;
            workloads.addAll(c.workloads);
            protocolOptions = c.protocolOptions;
            connection = c.connection;
            statsInterval = c.statsInterval;
            earlySend = c.earlySend;
            arrivals = c.arrivals;
            warmupHitrate = c.warmupHitrate;
            connectTimeout = c.connectTimeout;
            waterfall = c.waterfall;
            out = c.out;
            pool = c.pool;
            admin = c.admin;
            ramps.addAll(c.ramps);
            shard = c.shard;
            startAt = c.startAt;
            objectives = c.objectives;
        }

        /** @param v the admin endpoint's {@code [ADDR:]PORT}, or null for none */
        public Builder admin(String v) {
            admin = v;
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
            protocol = Objects.requireNonNull(v, "protocol");
            return this;
        }

        public Builder threads(int v) {
            threads = atLeast(v, 1, "threads");
            return this;
        }

        public Builder connections(int v) {
            connections = atLeast(v, 1, "connections");
            return this;
        }

        public Builder pipeline(int v) {
            pipeline = atLeast(v, 1, "pipeline");
            return this;
        }

        public Builder duration(Duration v) {
            duration = positive(v, "duration");
            return this;
        }

        public Builder windows(int v) {
            windows = atLeast(v, 1, "windows");
            return this;
        }

        public Builder warmup(Duration v) {
            if (v.isNegative()) {
                throw new IllegalArgumentException("warmup must not be negative, not " + v);
            }
            warmup = v;
            return this;
        }

        public Builder timeout(Duration v) {
            timeout = positive(v, "timeout");
            return this;
        }

        public Builder tcpNoDelay(boolean v) {
            tcpNoDelay = v;
            return this;
        }

        /** @param v stop after this many requests in total; 0: no limit */
        public Builder requests(long v) {
            if (v < 0) {
                throw new IllegalArgumentException("requests must be >= 0, not " + v);
            }
            requests = v;
            return this;
        }

        public Builder seed(long v) {
            seed = v;
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
            statsInterval = v;
            return this;
        }

        /** @param v how long before its time a paced request may leave with others; zero: never early */
        public Builder earlySend(Duration v) {
            if (v.isNegative()) {
                throw new IllegalArgumentException("early send must not be negative, not " + v);
            }
            earlySend = v;
            return this;
        }

        public Builder arrivals(Arrivals v) {
            arrivals = Objects.requireNonNull(v, "arrivals");
            return this;
        }

        /** @param v percent, 0 (none) to 100 */
        public Builder warmupHitrate(double v) {
            if (!(v >= 0 && v <= 100)) {
                throw new IllegalArgumentException("warm-up hit rate must be between 0 and 100 %, not " + v);
            }
            warmupHitrate = v;
            return this;
        }

        /** @param v null: derived from the request timeout */
        public Builder connectTimeout(Duration v) {
            connectTimeout = v == null ? null : positive(v, "connect timeout");
            return this;
        }

        /** @param v a .png file, or null for none */
        public Builder waterfall(java.nio.file.Path v) {
            waterfall = v;
            return this;
        }

        /** @param v the run directory to write, or null for none */
        public Builder out(java.nio.file.Path v) {
            out = v;
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
            if (mixed && threads < 2) {
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
