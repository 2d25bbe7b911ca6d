package io.fluxperf.engine.config;

import java.nio.file.Path;
import java.time.Duration;

/**
 * The run settings given on the command line, before they are merged with a config file.
 * A null field was not given. {@link ConfigResolver} merges these over the file (flags win) and
 * checks the result; the names are the flag names.
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
    public Boolean tlsInsecure;
    public String sni;
    public Boolean connectPerRequest;
    public Integer holdConnections;
    public Double connectRate;
    /** --io-uring: Netty's io_uring transport for the load connections. */
    public Boolean ioUring;
    /** --busy-poll: the load loops poll for I/O without waiting in the kernel. */
    public Boolean busyPoll;
    public Duration statsInterval;
    /** --early-send: how long before its time a paced request may leave with others. */
    public Duration earlySend;
    /** --arrivals: smooth, uniform, normal or exponential gaps between paced sends. */
    public String arrivals;
    /** --warmup-hitrate: warm up until this hit rate (percent) is reached, at most --warmup (or its default bound). */
    public Double warmupHitrate;
    /** --config-format: rpc-perf-2, rpc-perf-3, rpc-perf-5 or fluxperf; null: told by the file's shape. */
    public String configFormat;
    public Duration connectTimeout;
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
}
