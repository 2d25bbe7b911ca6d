package io.fluxperf.cli;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.config.ConfigResolver;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.RunSettings;
import io.fluxperf.engine.load.LoadRun;
import io.fluxperf.engine.load.RunListener;
import io.fluxperf.engine.load.ServerAddress;
import io.fluxperf.engine.metrics.LiveSample;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.engine.report.HdrLogWriter;
import io.fluxperf.engine.report.JsonReport;
import io.fluxperf.engine.report.TextReport;
import io.fluxperf.engine.target.TargetOptions;
import io.fluxperf.engine.target.TargetServer;
import io.fluxperf.engine.trace.RunTrace;
import io.fluxperf.trace.TraceFormatException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.SocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code fluxperf run}: rpc-perf's load test, against a server or the embedded target. */
@Command(name = "run",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {"Sends memcache, redis or HTTP requests and reports throughput, outcomes and latency percentiles.",
                "Without --server it starts an embedded memcache server on a free loopback port and loads that."},
        footer = {"",
                "Examples:",
                "  fluxperf run --duration 5                                  # gets against the embedded server",
                "  fluxperf run -s 127.0.0.1:11211 --method get --hit        # memcache get hit",
                "  fluxperf run -s 127.0.0.1:11211 --method get --flush      # memcache get miss",
                "  fluxperf run -s 127.0.0.1:11211 --method set --bytes 1024 --rate 20000 -d 10 -w 3",
                "  fluxperf run -s 127.0.0.1:11211 --method get --keys-per-request 10 --hit --pipeline 8",
                "  fluxperf run -s 127.0.0.1:11211 --method get --hit --rate 20000 --busy-poll",
                "  fluxperf run --config samples/default.toml -d 10 --json result.json --hdr-log run.hlog",
                "",
                "Flags override the config file; --method, --rate and --bytes cannot be combined with",
                "[[workload]] tables in the file. Ctrl-C stops sending, waits for replies in flight and",
                "prints the report of what ran (exit code 130)."})
public final class RunCommand implements Callable<Integer>, Streams.Aware {
    static final int EXIT_INTERRUPTED = 130;

    private Streams streams = Streams.system();

    @Override
    public void streams(Streams streams) {
        this.streams = streams;
    }

    @Option(names = "--config", paramLabel = "FILE", description = "TOML config with [general] and [[workload]] tables.")
    private Path config;

    @Option(names = {"-s", "--server"}, paramLabel = "HOST:PORT",
            description = "Target server; [::1]:PORT for IPv6, unix:/path for a Unix socket. Default: an embedded server of the protocol.")
    private String server;

    @Option(names = "--protocol", paramLabel = "NAME", description = "memcache (default), memcache-binary, redis or http.")
    private String protocol;

    @Option(names = "--method", paramLabel = "CMD",
            description = "memcache: get, gets, set, add, replace, append, prepend, cas, delete, incr, decr, touch; redis: also del, exists, expire, mget, mset, hget, hset, hgetall, hdel, lpush, rpush, lpop, rpop, lrange, sadd, srem, smembers, zadd, zrange, zrem, ping; http: get, post, put, delete (default get).")
    private String method;

    @Option(names = "--keys-per-request", paramLabel = "N", description = "Keys per get (multi-key get), default 1.")
    private Integer keysPerRequest;

    @Option(names = "--bytes", paramLabel = "SIZE",
            description = "Value size: 64, a range 16..1024, or weighted sizes 64:9,4096:1 (default 64).")
    private String bytes;

    @Option(names = "--hit", description = "Write every key before measuring, so that gets hit.")
    private Boolean hit;

    @Option(names = "--flush", description = "Send flush_all before the run, so that gets miss.")
    private Boolean flush;

    @Option(names = "--rate", paramLabel = "N",
            description = "Requests per second in total (open loop; latency from the intended send time). Default: as fast as possible.")
    private String rate;

    @Option(names = {"-t", "--threads"}, paramLabel = "N", description = "Event-loop threads (default 1).")
    private Integer threads;

    @Option(names = {"-c", "--connections"}, paramLabel = "N", description = "Connections per thread (default 25).")
    private Integer connections;

    @Option(names = "--pipeline", paramLabel = "N", description = "Requests in flight per connection (default 1).")
    private Integer pipeline;

    @Option(names = {"-d", "--duration"}, paramLabel = "TIME", converter = DurationConverter.class,
            description = "Length of each window: seconds, or 500ms, 2m (default 60).")
    private Duration duration;

    @Option(names = {"-w", "--windows"}, paramLabel = "N", description = "Number of windows (default 1).")
    private Integer windows;

    @Option(names = "--warmup", paramLabel = "TIME", converter = DurationConverter.class,
            description = "Load before the first window, not reported (default 0).")
    private Duration warmup;

    @Option(names = "--tcp-nodelay", arity = "0..1", paramLabel = "true|false",
            description = "TCP_NODELAY on the connections (default true); --tcp-nodelay=false lets Nagle coalesce writes.")
    private Boolean tcpNoDelay;

    @Option(names = "--timeout", paramLabel = "TIME", converter = DurationConverter.class,
            description = "Per-request timeout (default 1s).")
    private Duration timeout;

    @Option(names = "--keyspace", paramLabel = "N", description = "Number of keys (default 10000).")
    private Long keyspace;

    @Option(names = "--key-length", paramLabel = "N", description = "Key length in bytes (default 16).")
    private Integer keyLength;

    @Option(names = "--distribution", paramLabel = "NAME", description = "Key distribution: uniform (default), zipf or sequential.")
    private String distribution;

    @Option(names = "--exponent", paramLabel = "X", description = "Zipf exponent (default 0.99).")
    private Double exponent;

    @Option(names = "--ttl", paramLabel = "SECONDS", description = "Expiry time that writes carry (default 0: none).")
    private Integer ttl;

    @Option(names = "--requests", paramLabel = "N", description = "Stop after N requests in total (mcb's -n).")
    private Long requests;

    @Option(names = "--seed", paramLabel = "N", description = "Seed of the key, size and value generators (default 42).")
    private Long seed;

    @Option(names = "--command", paramLabel = "WORDS",
            description = "A command workload (redis): words with __key__, __data__ and __counter__, e.g. \"SET __key__ __data__\".")
    private String command;

    @Option(names = "--path", paramLabel = "TEMPLATE", description = "HTTP path with __key__, e.g. /items/__key__ (default /__key__).")
    private String path;

    @Option(names = "--header", paramLabel = "'NAME: VALUE'", description = "HTTP request header; repeatable.")
    private java.util.List<String> headers;

    @Option(names = "--http-ok", paramLabel = "CLASSES", description = "HTTP status classes counted ok, e.g. 2xx,3xx (default 2xx).")
    private String httpOk;

    @Option(names = "--user", paramLabel = "NAME", description = "redis ACL user for AUTH.")
    private String user;

    @Option(names = "--password", paramLabel = "SECRET", description = "redis AUTH password.")
    private String password;

    @Option(names = "--db", paramLabel = "N", description = "redis database (SELECT N).")
    private Integer db;

    @Option(names = "--resp", paramLabel = "2|3", description = "redis protocol version; 3 switches with HELLO 3 (default 2).")
    private Integer resp;

    @Option(names = "--udp", description = "memcache over UDP (the 8-byte frame header); a lost datagram counts as a timeout.")
    private Boolean udp;

    @Option(names = "--tls", description = "TLS on every connection.")
    private Boolean tls;

    @Option(names = "--tls-ca", paramLabel = "FILE", description = "PEM file of the CA certificates to trust.")
    private Path tlsCa;

    @Option(names = "--tls-insecure", description = "Accept any server certificate (tests only).")
    private Boolean tlsInsecure;

    @Option(names = "--sni", paramLabel = "NAME", description = "TLS server name to send and verify (default: the host of --server).")
    private String sni;

    @Option(names = "--connect-per-request", description = "Connect, send one request, close (mcb's -s, dperf's CPS).")
    private Boolean connectPerRequest;

    @Option(names = "--hold-connections", paramLabel = "N", description = "Open N connections and keep them open (dperf's concurrent connections).")
    private Integer holdConnections;

    @Option(names = "--connect-rate", paramLabel = "N", description = "New connections per second while opening (default: as fast as possible).")
    private Double connectRate;

    @Option(names = "--io-uring",
            description = "Use Netty's io_uring transport for the load connections (TCP, UDP, Unix sockets) instead of epoll.")
    private Boolean ioUring;

    @Option(names = "--busy-poll",
            description = "Keep each load thread polling for I/O instead of sleeping until the next reply or send: "
                    + "latency without the client's own wake-up in it, at the price of a whole CPU per thread (--threads).")
    private Boolean busyPoll;

    @Option(names = "--stats-interval", paramLabel = "TIME", converter = DurationConverter.class,
            description = "Print a statistics block every TIME while running (dperf), e.g. 1 (default 0: off).")
    private Duration statsInterval;

    @Option(names = "--json", paramLabel = "FILE", description = "Write every window, workload and the effective config as JSON.")
    private Path json;

    @Option(names = "--hdr-log", paramLabel = "FILE", description = "Write an HdrHistogram interval log (one interval per window).")
    private Path hdrLog;

    @Option(names = "--trace", paramLabel = "DIR",
            description = "Write one record per request to a new trace directory (for trace stats, dump, heatmap, replay).")
    private Path trace;

    @Option(names = "--trace-required",
            description = "Stop the run when the trace cannot be written (a full disk); without it the run goes on and reports the records lost.")
    private boolean traceRequired;

    @Option(names = "--no-live", description = "Do not print the live line every second (on stderr).")
    private boolean noLive;

    @Override
    public Integer call() throws Exception {
        RunConfig runConfig = ConfigResolver.resolve(settings());
        PrintStream out = streams.out();
        PrintStream err = streams.err();
        TextReport report = new TextReport(out);

        // without --server, the embedded target of the protocol, on a free loopback port (and UDP for --udp)
        boolean udp = runConfig.connection().udp();
        try (TargetServer target = runConfig.server() == null
                ? Protocols.startTarget(runConfig.protocol(), udp ? TargetOptions.builder().udpPort(0).build() : TargetOptions.defaults()) : null) {
            SocketAddress address = target != null ? (udp ? target.udpAddress() : target.address())
                    : ServerAddress.parse(runConfig.server(), "--server");
            String description = target != null ? target.describe() : runConfig.server();
            report.configEcho(runConfig, description);
            HdrLogWriter hdr = hdrLog != null ? openHdrLog() : null;
            RunTrace runTrace = trace != null ? openTrace(runConfig) : null;
            long runStart = System.nanoTime();
            LoadRun run = new LoadRun(runConfig, new RunListener() {
                @Override
                public void connected(long open, long failures) {
                    report.connections(open, failures);
                }

                @Override
                public void flushed() {
                    out.println("Flushed: flush_all sent before the run");
                }

                @Override
                public void preloaded(long keys, long failed, double seconds) {
                    out.printf(java.util.Locale.ROOT, "Preloaded: %d keys in %.1f s%s%n", keys, seconds,
                            failed > 0 ? " (" + failed + " writes failed: reads of those keys will miss)" : "");
                }

                @Override
                public void warmupComplete() {
                    report.warmupComplete();
                }

                @Override
                public void live(LiveSample sample) {
                    if (!noLive) {
                        err.println(TextReport.liveLine(sample));
                    }
                }

                @Override
                public void stats(io.fluxperf.engine.metrics.IntervalSample sample) {
                    report.statsBlock(sample);
                }

                @Override
                public void rehearseWindow(WindowResult window) {
                    new TextReport(new PrintStream(OutputStream.nullOutputStream())).window(window, runConfig);
                }

                @Override
                public void window(WindowResult window) {
                    report.window(window, runConfig);
                    if (hdr != null) {
                        try {
                            hdr.window(window, (window.startNanos() - runStart) / 1e9);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    }
                }
            });
            if (runTrace != null) {
                run.trace(runTrace, traceRequired);
            } else if (traceRequired) {
                throw new UserError("--trace-required: needs --trace DIR");
            }
            RunResult result;
            int interruptExit;
            run.yieldToLoops(runConfig.isOpenLoop() && Main.ownsProcess()); // the JIT may wait for the pacer
            run.settleBeforeLoad(Main.ownsProcess());
            run.liveSamples(!noLive);
            try (Interrupts interrupts = Interrupts.install(run::requestStop)) {
                result = run.execute(address, description);
                interruptExit = interrupts.exitCode();
            } finally {
                if (hdr != null) {
                    hdr.close();
                }
                if (runTrace != null) {
                    runTrace.close();
                }
            }
            report.summary(result);
            if (runTrace != null) {
                out.println(runTrace.statusLine());
            }
            if (run.errors().any()) {
                out.println(run.errors().summary());
            }
            if (json != null) {
                try {
                    new JsonReport().write(result, json);
                } catch (IOException e) {
                    throw new UserError("--json: cannot write " + json + ": " + e.getMessage());
                }
            }
            out.flush();
            if ("trace failed".equals(result.stopReason())) {
                return 1; // the report says what was lost; the run did not do what was asked
            }
            return result.interrupted() ? (interruptExit != 0 ? interruptExit : EXIT_INTERRUPTED) : 0;
        }
    }

    private RunTrace openTrace(RunConfig runConfig) {
        try {
            return RunTrace.open(trace, runConfig, new JsonReport().configJson(runConfig));
        } catch (TraceFormatException e) {
            throw new UserError("--trace: " + e.getMessage());
        }
    }

    private HdrLogWriter openHdrLog() {
        try {
            return HdrLogWriter.start(hdrLog, System.currentTimeMillis());
        } catch (IOException e) {
            throw new UserError("--hdr-log: cannot write " + hdrLog + ": " + e.getMessage());
        }
    }

    private RunSettings settings() {
        RunSettings s = new RunSettings();
        s.config = config;
        s.server = server;
        s.protocol = protocol;
        s.method = method;
        s.keysPerRequest = keysPerRequest;
        s.bytes = bytes;
        s.hit = hit;
        s.flush = flush;
        s.rate = rate;
        s.threads = threads;
        s.connections = connections;
        s.pipeline = pipeline;
        s.duration = duration;
        s.windows = windows;
        s.warmup = warmup;
        s.tcpNoDelay = tcpNoDelay;
        s.timeout = timeout;
        s.keyspace = keyspace;
        s.keyLength = keyLength;
        s.distribution = distribution;
        s.exponent = exponent;
        s.ttl = ttl;
        s.requests = requests;
        s.seed = seed;
        s.command = command;
        s.path = path;
        s.protocolOption("header", headers).protocolOption("http-ok", httpOk).protocolOption("user", user)
                .protocolOption("password", password).protocolOption("db", db).protocolOption("resp", resp);
        s.udp = udp;
        s.tls = tls;
        s.tlsCa = tlsCa;
        s.tlsInsecure = tlsInsecure;
        s.sni = sni;
        s.connectPerRequest = connectPerRequest;
        s.holdConnections = holdConnections;
        s.connectRate = connectRate;
        s.ioUring = ioUring;
        s.busyPoll = busyPoll;
        s.statsInterval = statsInterval;
        return s;
    }
}
