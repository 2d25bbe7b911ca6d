package io.fluxperf.engine.config;

import java.nio.file.Path;
import java.time.Duration;

/**
 * A command line as fields, for tests that set a few flags by name: {@link #toFlags} puts each
 * under its {@link Setting}, as the cli's options do, for {@link ConfigResolver}. A null field was
 * not given. The commands themselves make their options from {@link Settings} and need no field
 * here.
 */
public final class RunSettings {
    public Path config;
    public String server;
    public String protocol;
    public String method;
    public Integer keysPerRequest;
    /** --subscribers: a publish workload's subscriber connections. */
    public Integer subscribers;
    /** --bytes: "64", "16..1024" (uniform range) or "64:9,4096:1" (size:weight list). */
    public String bytes;
    public Boolean hit;
    public Boolean flush;
    /** --rate as typed, so that "abc" or "-5" can be reported with the flag's name. */
    public String rate;
    public Integer threads;
    public Integer connections;
    public Integer pipeline;
    public Duration duration;
    public Integer windows;
    public Duration warmup;
    public Boolean tcpNoDelay;
    public Duration timeout;
    public Long keyspace;
    public Integer keyLength;
    /** --distribution: uniform, zipf or sequential. */
    public String distribution;
    public Double exponent;
    public Integer ttl;
    public Long requests;
    public Long seed;
    /** --command: the words of a command workload, e.g. "SET __key__ __data__" (redis). */
    public String command;
    /** --path: the path template of HTTP requests, e.g. "/items/__key__". */
    public String path;
    /**
     * Protocol options by flag name without dashes ({@code db}, {@code header}), each with the
     * values given in order; the protocol that declares an option reads it
     * ({@link io.fluxperf.engine.protocol.Protocol#options()}).
     */
    public final java.util.Map<String, java.util.List<String>> protocolOptions = new java.util.LinkedHashMap<>();
    public Boolean udp;
    public Boolean tls;
    public Path tlsCa;
    public Boolean connectPerRequest;
    public Integer holdConnections;
    /** --io-uring: Netty's io_uring transport for the load connections. */
    public Boolean ioUring;
    /** --busy-poll: the load loops poll for I/O without waiting in the kernel. */
    public Boolean busyPoll;
    public Duration statsInterval;
    /** --config-format: rpc-perf-2, rpc-perf-3, rpc-perf-5 or fluxperf; null: told by the file's shape. */
    public String configFormat;
    /** --out: the run directory to write. */
    public java.nio.file.Path out;
    /** --waterfall: a latency heatmap PNG to write at the run's end. */
    public java.nio.file.Path waterfall;
    /** --server given more than once (each HOST:PORT[:WEIGHT]), in order; null when given once or not at all. */
    public java.util.List<String> servers;
    /** --distribution ketama or modula: how keys are placed on several servers. */
    public String serverDistribution;
    /** --cluster: the servers are seed nodes of a cluster (redis Cluster). */
    /** --admin: the admin endpoint's [ADDR:]PORT. */
    public String admin;
    /** --ramp START:END:STEP:INTERVAL. */
    public String ramp;
    public Boolean cluster;
    /** --read-from master or replica: where a cluster run's reads go. */
    public String readFrom;
    /** --slo: service-level objectives as written (p99<2ms), added to the config file's [[slo]] tables; null when none. */
    public java.util.List<String> slo;
    /** --slo-abort: every objective stops the run at the end of a window in which it fails. */
    public Boolean sloAbort;
    /** --slo-strict: a verdict too close to call at the run's sample size fails every objective. */
    public Boolean sloStrict;

    /** Records a protocol option's value, or each value of a list, when given (not null). */
    public RunSettings protocolOption(String flag, Object value) {
        if (value instanceof java.util.Collection<?> values) {
            values.forEach(v -> protocolOption(flag, v));
        } else if (value != null) {
            protocolOptions.computeIfAbsent(flag, k -> new java.util.ArrayList<>()).add(value.toString());
        }
        return this;
    }

    /** These flags under their settings, unchecked. */
    public Flags toFlags() {
        Flags.Builder b = Flags.builder()
                .set(Settings.CONFIG, config).set(Settings.CONFIG_FORMAT, configFormat)
                .set(Settings.PROTOCOL, protocol).set(Settings.METHOD, method)
                .set(Settings.KEYS_PER_REQUEST, keysPerRequest).set(Settings.BYTES, bytes)
                .set(Settings.HIT, hit).set(Settings.FLUSH, flush).set(Settings.RATE, rate)
                .set(Settings.THREADS, threads).set(Settings.CONNECTIONS, connections).set(Settings.PIPELINE, pipeline)
                .set(Settings.DURATION, duration).set(Settings.WINDOWS, windows).set(Settings.WARMUP, warmup)
                .set(Settings.TCP_NODELAY, tcpNoDelay).set(Settings.TIMEOUT, timeout)
                .set(Settings.KEYSPACE, keyspace).set(Settings.KEY_LENGTH, keyLength)
                .set(Settings.EXPONENT, exponent).set(Settings.TTL, ttl).set(Settings.REQUESTS, requests)
                .set(Settings.SEED, seed).set(Settings.COMMAND, command).set(Settings.PATH, path)
                .set(Settings.UDP, udp).set(Settings.TLS, tls).set(Settings.TLS_CA, tlsCa)
                .set(Settings.CONNECT_PER_REQUEST, connectPerRequest).set(Settings.HOLD_CONNECTIONS, holdConnections)
                .set(Settings.IO_URING, ioUring).set(Settings.BUSY_POLL, busyPoll)
                .set(Settings.STATS_INTERVAL, statsInterval)
                .set(Settings.OUT, out).set(Settings.WATERFALL, waterfall)
                .set(Settings.SERVER, servers != null && !servers.isEmpty() ? servers : server)
                .set(Settings.CLUSTER, cluster).set(Settings.READ_FROM, readFrom)
                .set(Settings.ADMIN, admin).set(Settings.RAMP, ramp).set(Settings.SLO, slo)
                .set(Settings.SLO_ABORT, sloAbort).set(Settings.SLO_STRICT, sloStrict)
                .set(Settings.SUBSCRIBERS, subscribers);
        b.set(Settings.DISTRIBUTION, distribution).set(Settings.SERVER_DISTRIBUTION, serverDistribution);
        protocolOptions.forEach(b::protocolOption);
        return b.build();
    }
}
