package io.fluxperf.engine.config;

import io.fluxperf.engine.protocol.ProtocolOptions;
import java.time.Duration;
import java.util.List;

/**
 * Everything that shapes a run (what the config file and the flags say, merged and checked).
 * Outputs (JSON, HdrHistogram log, trace) are not part of it.
 *
 * @param server      HOST:PORT of the target, or null for the embedded target
 * @param threads     event loops, each with its own connections
 * @param connections connections per thread
 * @param pipeline    requests in flight per connection
 * @param duration    length of one window
 * @param windows     number of windows
 * @param warmup      time before the first window, not reported
 * @param timeout     per-request timeout
 * @param requests    stop after this many requests in total (0 = no limit)
 * @param protocolOptions protocol settings (redis AUTH/SELECT/RESP3, HTTP headers)
 * @param connection  transport and connection mode (UDP, TLS, connect-per-request, held connections)
 * @param statsInterval how often the per-second statistics block is printed (zero: never)
 */
public record RunConfig(String server, String protocol, int threads, int connections, int pipeline,
                        Duration duration, int windows, Duration warmup, Duration timeout, boolean tcpNoDelay,
                        long requests, long seed, List<WorkloadConfig> workloads, ProtocolOptions protocolOptions,
                        ConnectionOptions connection, Duration statsInterval) {
    public static final String DEFAULT_PROTOCOL = "memcache";
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

    /** A run with default protocol and connection settings and no statistics block. */
    public RunConfig(String server, String protocol, int threads, int connections, int pipeline,
                     Duration duration, int windows, Duration warmup, Duration timeout, boolean tcpNoDelay,
                     long requests, long seed, List<WorkloadConfig> workloads) {
        this(server, protocol, threads, connections, pipeline, duration, windows, warmup, timeout, tcpNoDelay,
                requests, seed, workloads, ProtocolOptions.defaults(), ConnectionOptions.defaults(), Duration.ZERO);
    }

    public RunConfig {
        workloads = List.copyOf(workloads);
        if (protocolOptions == null) {
            protocolOptions = ProtocolOptions.defaults();
        }
        if (connection == null) {
            connection = ConnectionOptions.defaults();
        }
        if (statsInterval == null) {
            statsInterval = Duration.ZERO;
        }
        if (workloads.isEmpty()) {
            throw new IllegalArgumentException("a run needs at least one workload");
        }
        boolean rated = workloads.get(0).isRated();
        for (WorkloadConfig w : workloads) {
            if (w.isRated() != rated) {
                throw new IllegalArgumentException("either every workload has a rate or none has (workload '"
                        + w.name() + "' differs from '" + workloads.get(0).name() + "')");
            }
        }
    }

    /** Open loop: every workload has a rate, and latency counts from the intended send time. */
    public boolean isOpenLoop() {
        return workloads.get(0).isRated();
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
}
