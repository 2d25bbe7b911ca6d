package io.fluxperf.cli;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.config.ConfigResolver;
import io.fluxperf.engine.config.PoolOptions;
import io.fluxperf.engine.config.ServerSpec;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.Flags;
import io.fluxperf.engine.config.Settings;
import io.fluxperf.engine.host.HostTuning;
import io.fluxperf.engine.log.LogFormat;
import io.fluxperf.engine.metrics.StopReason;
import io.fluxperf.engine.protocol.ProtocolOptions;
import io.fluxperf.replay.LogFormats;
import io.fluxperf.replay.Replay;
import io.fluxperf.replay.ReplayOptions;
import io.fluxperf.replay.ReplayResult;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code fluxperf replay}: a recorded command log sent to a server with its original timing, measured like {@code run}. */
@Command(name = "replay",
        header = "Replays a command log against a server, with the log's timing.",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        modelTransformer = SettingOptions.Replay.class,
        description = {"Replays a command log against a server with the log's own timing (or faster) and",
                "reports it as 'run' does (outcomes, latency from the scheduled send time, one",
                "workload per command) plus its fidelity: send lag, original and replay duration,",
                "commands per type, lines skipped. Logs: redis-cli monitor output, memcached",
                "'watch' output, a raw memcache text stream, twemcache klog, Twitter's published",
                "cache traces, a fluxperf trace, a packet capture (pcap or pcapng of redis,",
                "memcache text or binary, HTTP/1.1); the format is told from the content, gzip",
                "and zstd are read as they are."},
        footer = {"",
                "Examples:",
                "  fluxperf replay -s 127.0.0.1:6379 -l monitor.log        # redis MONITOR, 1x",
                "  fluxperf replay -s 127.0.0.1:11211 -l watch.log.gz --speed 2",
                "  fluxperf replay -s 127.0.0.1:11211 -l klog.txt --speed max -c 50",
                "  fluxperf replay -s 127.0.0.1:6379 -l big-monitor.log --speed max --reader-threads 2",
                "  fluxperf replay -s 127.0.0.1:11211 -l stream.txt --times t.csv --loop 3",
                "  fluxperf replay -s 127.0.0.1:11211 -l watch.log --protocol memcache-meta --meta-flags q",
                "  fluxperf replay -s 127.0.0.1:11211 -l run-trace/        # 'run --trace' dir",
                "  fluxperf replay -s 127.0.0.1:6379 -l monitor.log --only get,set --max-wait 1s",
                "  fluxperf replay -s 127.0.0.1:11211 -l peak.pcap.zst --key-prefix r:",
                "  fluxperf replay -s 127.0.0.1:6379 -l any.pcap --capture-server 10.0.0.5:6379",
                "  fluxperf replay -s 127.0.0.1:11211 -l peak.pcap --speed max --reader-threads 3",
                "  fluxperf replay -s 127.0.0.1:11211 -l watch.log --key-prefix r: --json r.json",
                "  fluxperf replay -s 127.0.0.1:11211 -l cluster52.0.zst --speed 10",
                "  fluxperf replay -s 127.0.0.1:11211 -l cluster52.0.zst --speed max --reader-threads 3",
                "  fluxperf replay -s 127.0.0.1:6379 -l monitor.log --scale 4 --loop 3",
                "  fluxperf replay -s 127.0.0.1:11211 -l watch.log --stats-interval 1s",
                "  fluxperf replay -s 127.0.0.1:11211 -l watch.log --out runs/replay-1 --trace",
                "  fluxperf replay -s 10.0.0.1:11211 -s 10.0.0.2:11211 -l watch.log   # a ketama pool",
                "  fluxperf replay --cluster -s 127.0.0.1:7000 -l monitor.log          # a redis Cluster",
                "  fluxperf replay -s 10.0.0.5:6379 -l monitor.log --shard 1/3 --start-at 1796526000   # agent 1 of 3",
                "  fluxperf replay -s 10.0.0.5:6379 -l monitor.log --shard 1/3 --out runs --run-id r1   # runs/r1/shard-1",
                "  fluxperf replay -s 127.0.0.1:11211 -l watch.log --window 10s --slo 'get.p99<1ms' --junit slo.xml",
                "  fluxperf replay -s 127.0.0.1:11211 -l watch.log --admin 9090        # Prometheus on :9090/metrics",
                "",
                "Capturing a log:",
                "  tcpdump -i any -s 0 -w peak.pcap 'tcp port 11211'     # docs/replay.md",
                "  redis-cli -p 6379 monitor > monitor.log",
                "  printf 'watch fetchers mutations\\r\\n' | nc HOST 11211 > watch.log",
                "",
                "Each original client (MONITOR's address, watch's cfd, klog's peer, a trace's",
                "or a capture's connection) keeps its order on a connection of its own. Lines",
                "that cannot be parsed are counted and the first five shown; --strict stops at",
                "the first one (exit 2).",
                "Ctrl-C stops sending, waits for the replies in flight and prints the report of",
                "what ran (exit code 130). Exit code 3: an objective (--slo) failed."})
public final class ReplayCommand implements Callable<Integer>, Streams.Aware, SettingOptions.Owner {
    private Streams streams = Streams.system();
    /** The flags of where and how to connect, made into options from {@code Settings}. */
    private final SettingOptions settingOptions = new SettingOptions();

    @Override
    public SettingOptions settingOptions() {
        return settingOptions;
    }

    @Override
    public void streams(Streams streams) {
        this.streams = streams;
    }

    @Option(names = {"-l", "--log"}, paramLabel = "FILE", required = true,
            description = "The command log or packet capture (plain, gzip or zstd), or a trace directory.")
    private Path log;

    @Option(names = "--format", paramLabel = "NAME",
            description = "redis-monitor, memcache-watch, memcache-ascii, klog, pcap, twitter-cache-trace or trace"
                    + " (default: told from the content).")
    private String format;

    @Option(names = "--speed", paramLabel = "X|max",
            description = "Replay speed: 1 (as recorded, default), 2.5 (2.5 times faster), max (as fast as the connections allow).")
    private String speed = "1";

    @Option(names = "--max-wait", paramLabel = "TIME", converter = DurationConverter.class,
            description = "Cut idle gaps longer than this (replay time) to it. Default: as recorded.")
    private Duration maxWait;

    @Option(names = "--loop", paramLabel = "N", description = "Play the log N times, one after the other (default 1).")
    private int loops = 1;

    @Option(names = "--only", paramLabel = "CMD,CMD",
            description = "Replay only these commands, e.g. get,set (del matches delete).")
    private List<String> only;

    @Option(names = "--key-prefix", paramLabel = "P", description = "Prepend P to every key.")
    private String keyPrefix;

    @Option(names = "--scale", paramLabel = "N",
            description = "Play N copies of every original client, each copy's keys in a namespace of its own (s1: … sN:),"
                    + " so the log's rate and key count grow N times with the same popularity shape (default 1).")
    private int scale = 1;

    @Option(names = "--rate-cap", paramLabel = "N", description = "At most N commands per second in total.")
    private Double rateCap;

    @Option(names = "--times", paramLabel = "FILE",
            description = "Send times of a raw memcache stream: CSV rows of seconds[,client], one per command (default: LOG.times.csv when present).")
    private Path times;

    @Option(names = "--protocol", paramLabel = "NAME", description = "memcache, memcache-binary, memcache-meta or redis;"
            + " a trace of an HTTP run and a capture of HTTP traffic replay over http (default: the log's; a capture's is"
            + " told from its clients' bytes).")
    private String protocol;

    @Option(names = "--capture-server", paramLabel = "HOST:PORT",
            description = "The server of a packet capture whose traffic is replayed (repeatable; default: the capture's only server).")
    private List<String> captureServers;

    @Option(names = "--any-connection",
            description = "Send each command on any free connection, ignoring which client sent it (faster at --speed max; per-client order is lost).")
    private boolean anyConnection;

    @Option(names = "--allow-flush", description = "Replay flush_all / FLUSHALL / FLUSHDB (skipped otherwise).")
    private boolean allowFlush;

    @Option(names = "--strict", description = "Stop at the first line that cannot be parsed (exit 2); otherwise such lines are counted.")
    private boolean strict;

    @Option(names = "--read-ahead", paramLabel = "N",
            description = "Commands read ahead and sorted by time, the window for out-of-order lines (default 1024 for a"
                    + " redis MONITOR log, written in order; 16384 for the others).")
    private Integer readAhead;

    @Option(names = "--read-ahead-memory", paramLabel = "SIZE",
            description = "Heap for commands read ahead that are due but wait for their client's busy connection, so"
                    + " that one slow client never holds up the others (default 64m; 512k, 1g).")
    private String readAheadMemory;

    @Option(names = "--reader-threads", paramLabel = "N",
            description = "Threads that read and parse the log in parts of whole lines, put back in the log's order"
                    + " (MONITOR, watch, klog and cache-trace logs in a file), or a packet capture by connection"
                    + " (its TCP reassembly and protocol reading). Default: 1 below 16 MiB, else one per"
                    + " core beyond two, at most 4; always 1 for a log that does not split, or with --scale.")
    private Integer readerThreads;

    @Option(names = "--window", paramLabel = "TIME", converter = DurationConverter.class,
            description = "Report a window every TIME (default: one window for the whole replay).")
    private Duration window;

    @Option(names = "--warmup", paramLabel = "TIME", converter = DurationConverter.class,
            description = "Replay the log's first TIME as warm-up, as 'run --warmup' does: sent, but not in the report.")
    private Duration warmup;

    @Option(names = "--stats-interval", paramLabel = "TIME", converter = DurationConverter.class,
            description = "Print a statistics block every TIME while replaying, as 'run' does (dperf), plus the interval's send lag and the place in the log (default 0: off).")
    private Duration statsInterval;

    @Option(names = "--distribution", paramLabel = "ketama|modula",
            description = "With several servers (--server repeated): how keys are placed on them, as 'run' places them (default ketama).")
    private String distribution;

    @Mixin
    private ConnectionFlags connection = new ConnectionFlags();

    @Option(names = "--json", paramLabel = "FILE", description = "Write the result as JSON, with a \"replay\" object for the fidelity.")
    private Path json;

    @Option(names = "--trace", paramLabel = "DIR", arity = "0..1", fallbackValue = "",
            description = "Write one record per request to a new trace directory; without DIR, to the run directory's trace/ (needs --out).")
    private Path trace;

    // the run directory (issue 29)
    @Option(names = "--out", paramLabel = "DIR",
            description = "Write the run directory: config.toml, result.json, windows.hlog, seconds.hlog, report.txt,"
                    + " environment.json (docs/results.md).")
    private Path out;

    @Mixin
    private RunDirectoryFlags runDirectory = new RunDirectoryFlags();

    @picocli.CommandLine.Spec
    private picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = "--no-live", description = "Do not print the progress line every second (on stderr).")
    private boolean noLive;

    @Mixin
    private ShardFlags sharding = new ShardFlags();
    @Option(names = "--slo", paramLabel = "EXPR",
            description = "A service-level objective checked per window and over the replay, e.g. p99<2ms, get.p999<=10ms, "
                    + "success>=99.9%% (repeatable). Exit code 3 when one fails.")
    private List<String> slo;

    @Option(names = "--slo-abort", description = "Stop the replay at the end of the first window in which an objective fails (exit code 3).")
    private boolean sloAbort;

    @Option(names = "--slo-strict", description = "Fail an objective whose verdict is too close to call at the replay's"
            + " sample size (its 95 %% interval holds the threshold), as if missed.")
    private boolean sloStrict;

    @Option(names = "--junit", paramLabel = "FILE",
            description = "Write the objectives' verdicts as JUnit XML for CI: a testcase per objective and window, and one for the replay.")
    private Path junit;

    @Option(names = "--admin", paramLabel = "[ADDR:]PORT",
            description = "Serve the admin endpoint (GET / dashboard, /metrics, /metrics.json, /vars; POST /quitquitquit) on PORT of 127.0.0.1, or of ADDR; 0 takes a free port.")
    private String admin;

    @Override
    public Integer call() {
        LogFormat logFormat = null;
        if (format != null) {
            logFormat = LogFormats.parse(format);
            if (logFormat == null) {
                throw new UserError("--format: unknown format '" + format + "'; expected one of " + LogFormats.labels());
            }
        }
        if (rateCap != null && !(rateCap > 0)) {
            throw new UserError("--rate-cap: must be a number above 0, not " + rateCap);
        }
        if (junit != null) {
            OutputFiles.check("--junit", junit); // before the log is read and anything sent, as run does
        }
        Flags flags = settingOptions.addTo(connection.applyTo(Flags.builder())
                .set(Settings.SERVER_DISTRIBUTION, distribution)).build();
        PoolOptions pool = ConfigResolver.shared(flags).pool();
        List<String> servers = given(flags, Settings.SERVER);
        Duration earlySend = given(flags, Settings.EARLY_SEND);
        if (earlySend != null && earlySend.isNegative()) {
            throw new UserError("--early-send: must be at least 0");
        }
        ReplayOptions options = ReplayOptions.builder(log)
                .format(logFormat)
                .server(pool.servers().isEmpty() ? (servers == null ? null : servers.get(0)) : ServerSpec.parse(pool.servers().get(0)).address())
                .pool(pool)
                .protocol(protocol)
                .speed(ReplayOptions.parseSpeed(speed))
                .maxWait(maxWait)
                .loops(loops)
                .only(only == null ? List.of() : only.stream().flatMap(s -> Arrays.stream(s.split(","))).toList())
                .keyPrefix(keyPrefix)
                .scale(scale)
                .rateCap(rateCap == null ? 0 : rateCap)
                .threads(or(given(flags, Settings.THREADS), RunConfig.DEFAULT_THREADS))
                .connections(or(given(flags, Settings.CONNECTIONS), RunConfig.DEFAULT_CONNECTIONS))
                .pipeline(or(given(flags, Settings.PIPELINE), RunConfig.DEFAULT_PIPELINE))
                .timeout(or(given(flags, Settings.TIMEOUT), RunConfig.DEFAULT_TIMEOUT))
                .tcpNoDelay(or(given(flags, Settings.TCP_NODELAY), RunConfig.DEFAULT_TCP_NODELAY))
                .connection(ConfigResolver.shared(flags).connection())
                .protocolOptions(ConfigResolver.given(flags, ProtocolOptions.none()))
                .earlySend(or(earlySend, RunConfig.DEFAULT_EARLY_SEND))
                .times(times)
                .anyConnection(anyConnection)
                .allowFlush(allowFlush)
                .strict(strict)
                .readAhead(readAhead == null ? 0 : ReplayOptions.checkedReadAhead(readAhead))
                .readAheadBytes(readAheadMemory == null ? 0 : ReplayOptions.parseReadAheadMemory(readAheadMemory))
                .readerThreads(readerThreads == null ? 0 : ReplayOptions.checkedReaderThreads(readerThreads))
                .window(window)
                .warmup(warmup)
                .statsInterval(statsInterval)
                .json(json)
                .trace(traceInside() ? null : trace)
                .live(!noLive)
                .captureServers(captureServers == null ? List.of() : captureServers)
                .build();
        if (admin != null) {
            try {
                io.fluxperf.engine.config.AdminAddress.parse(admin);
            } catch (IllegalArgumentException e) {
                throw new UserError("--admin: " + e.getMessage());
            }
        }
        List<io.fluxperf.engine.slo.Objective> objectives = io.fluxperf.engine.slo.Objectives.parse(slo);
        if (sloAbort && objectives.isEmpty()) {
            throw new UserError("--slo-abort: stops the replay when an objective fails, and there is no --slo");
        }
        if (sloStrict && objectives.isEmpty()) {
            throw new UserError("--slo-strict: fails an objective too close to call, and there is no --slo");
        }
        io.fluxperf.engine.shard.Shard shard = sharding.shard();
        sharding.requireShard(shard);
        Replay replay = new Replay(options).sharding(shard, sharding.startTime()).tuning(Main.ownsProcess()
                ? HostTuning.ownProcess(options.speed() > 0, !connection.noHostTuning) : HostTuning.standard())
                .objectives(objectives.stream().map(o -> o.withAbort(o.abort() || sloAbort).withStrict(sloStrict)).toList(), junit)
                .admin(admin);
        if (out != null) {
            replay.runDirectory(out, runDirectory.overwrite, traceInside(), RunDirectories.commandLine(spec))
                    .placement(sharding::placeOut, sharding::record); // OUT/RUN_ID/shard-I, as run writes it
        }
        sharding.announceStart(streams.err());
        ReplayResult result;
        int interruptExit;
        try (Interrupts interrupts = Interrupts.install((StopReason why) -> replay.requestStop(why))) {
            result = replay.run(streams.out(), streams.err());
            interruptExit = interrupts.exitCode();
        }
        return result.run().interrupted() ? (interruptExit != 0 ? interruptExit : RunCommand.EXIT_INTERRUPTED)
                : RunCommand.objectivesExit(replay.verdicts());
    }

    /** The flag of {@code s} as given, unchecked (ReplayOptions checks it), or null. */
    @SuppressWarnings("unchecked")
    private static <T> T given(Flags flags, io.fluxperf.engine.config.Setting<T> s) {
        return (T) flags.given(s);
    }

    private static <T> T or(T value, T fallback) {
        return value != null ? value : fallback;
    }

    /** A bare --trace: into the run directory's trace/ (which --out must name). */
    private boolean traceInside() {
        boolean bare = trace != null && trace.toString().isEmpty();
        if (bare) {
            RunDirectories.trace(trace, out); // refuses it without --out
        }
        return bare;
    }
}
