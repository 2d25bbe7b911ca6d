package io.fluxperf.engine.config;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.protocol.Protocol;
import io.fluxperf.engine.protocol.ProtocolOptions;
import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Request;
import io.fluxperf.engine.request.CommandTemplate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Turns the command line ({@link RunSettings}) and the TOML file it names into a checked
 * {@link RunConfig}, following rpc-perf's rules: a flag wins over the file, and {@code --method},
 * {@code --rate} or {@code --bytes} together with {@code [[workload]]} tables in the file is an
 * error. Every problem is a {@link UserError} whose message names the place: the flag
 * ({@code --rate: 'abc' is not a number}), {@code FILE:LINE:COL} for TOML syntax, or the key path
 * ({@code FILE: workload[1].rate (line 14): must be at least 0, not -5}).
 *
 * <h2>Config file layout</h2>
 * Keys are named as the flags are. Every key is optional unless said otherwise; unknown keys are
 * errors.
 * <pre>
 * [general]
 * server = "127.0.0.1:11211"   # HOST:PORT, [IPv6]:PORT or unix:/path; absent = the embedded target
 * servers = ["10.0.0.1:11211", "10.0.0.2:11211:2"]  # instead of server: a pool, HOST:PORT[:WEIGHT] each
 * distribution = "ketama"      # how keys are placed on the servers: ketama (default) or modula
 * cluster = false              # the servers are seed nodes of a redis Cluster, which places keys itself
 * read-from = "master"         # a cluster's reads: master (default) or replica
 * protocol = "memcache"
 * threads = 1                  # event loops, 1..1024
 * connections = 25             # per thread, 1..100000
 * pipeline = 1                 # requests in flight per connection, 1..1024
 * duration = 60                # seconds per window (a number), or a string: "500ms", "2s", "1m"
 * windows = 1                  # at least 1
 * warmup = 0                   # seconds (or "500ms"), not reported
 * timeout = "1s"               # per request, seconds or a string
 * tcp-nodelay = true          # false lets Nagle's algorithm coalesce small writes
 * requests = 0                 # stop after this many requests in total; 0 = no limit
 * seed = 42
 * io-uring = false             # Netty's io_uring transport for the load connections (default epoll)
 * busy-poll = false            # the load loops poll without waiting: a whole CPU each, no client wake-ups
 * early-send = "50us"          # a paced request may leave this early to share a wake-up with others
 *
 * [[workload]]                 # one table per workload; workload[0] is the first
 * name = "get"                 # for the report; default: the method (made unique with -INDEX)
 * method = "get"               # required: get gets set add replace append prepend cas delete incr decr touch
 * rate = 50000                 # requests/s; 0 or absent = as fast as possible (closed loop).
 *                              # Either every workload has a rate or none has.
 * weight = 1                   # share among workloads without a rate; default 1
 * bytes = 64                   # value size: 64 | { min = 16, max = 1024 } |
 *                              #   [{ size = 64, weight = 9 }, { size = 4096, weight = 1 }] |
 *                              #   the --bytes string forms "16..1024", "64:9,4096:1"
 * hit = false                  # load the key space before measuring, so reads hit
 * flush = false                # flush_all before the run, so reads miss (not with hit)
 * keys-per-request = 1         # keys per get/gets (multi-get), 1..1024
 * ttl = 0                      # expiry seconds that writes carry, 0..2592000 (0 = never); or weighted:
 *                              # [{ seconds = 60, weight = 5 }, { seconds = 3600, weight = 1 }] or "60:5,3600:1"
 * keyspace = 10000             # number of keys
 * key-length = 16              # bytes per key, 1..250 (the key index, zero-padded)
 * distribution = "uniform"     # uniform | zipf | sequential
 * exponent = 0.99              # zipf only, greater than 0
 * </pre>
 *
 * <h2>Merging</h2>
 * <ul>
 * <li>Global flags ({@code --server --protocol --threads --connections --pipeline --duration
 * --windows --warmup --timeout --tcp-nodelay --requests --seed}) replace the file's
 * {@code [general]} values; what neither gives takes the defaults on {@link RunConfig}.</li>
 * <li>Without {@code [[workload]]} tables (or without a file) there is one workload, made from
 * {@code --method} (default get), {@code --rate} (absent = unlimited), {@code --bytes} and the
 * key-space flags.</li>
 * <li>With {@code [[workload]]} tables, {@code --method}, {@code --rate} and {@code --bytes} are
 * errors; {@code --hit --flush --keyspace --key-length --distribution --exponent --ttl} replace
 * the value in every workload, {@code --keys-per-request} in every get/gets workload. {@code --hit}
 * clears the file's {@code flush} and {@code --flush} clears its {@code hit}.</li>
 * </ul>
 */
public final class ConfigResolver {
    public static final int MAX_THREADS = 1024;
    public static final int MAX_CONNECTIONS = 100_000;
    public static final int MAX_PIPELINE = 1024;
    public static final int MAX_KEYS_PER_REQUEST = 1024;
    public static final int MAX_KEY_LENGTH = 250;
    /** memcached reads an expiry above 30 days as a Unix time, so larger ttls would expire at once. */
    public static final int MAX_TTL = 30 * 24 * 3600;
    public static final int MAX_HELD_CONNECTIONS = 1_000_000;
    /** No warm-up unless asked for. */
    public static final Duration DEFAULT_WARMUP = Duration.ZERO;
    /** How long a warm-up to a hit rate may last when no --warmup bounds it. */
    public static final Duration DEFAULT_HITRATE_WARMUP_BOUND = Duration.ofSeconds(60);

    private ConfigResolver() {
    }

    /**
     * The objectives to check: the file's [[slo]] tables, then the --slo flags (they add to the
     * file's, each being a check of its own); --slo-abort makes every one stop the run.
     */
    private static List<io.fluxperf.engine.slo.Objective> objectives(RunSettings flags, ConfigFile f,
                                                                     List<WorkloadConfig> workloads) {
        List<io.fluxperf.engine.slo.Objective> all = new java.util.ArrayList<>(f.objectives);
        all.addAll(io.fluxperf.engine.slo.Objectives.parse(flags.slo));
        if (Boolean.TRUE.equals(flags.sloAbort)) {
            if (all.isEmpty()) {
                throw new UserError("--slo-abort: stops the run when an objective fails, and there is no --slo or [[slo]]");
            }
            all.replaceAll(o -> o.withAbort(true));
        }
        if (Boolean.TRUE.equals(flags.sloStrict)) {
            if (all.isEmpty()) {
                throw new UserError("--slo-strict: fails an objective too close to call, and there is no --slo or [[slo]]");
            }
            all.replaceAll(o -> o.withStrict(true));
        }
        // named here, before a run directory or any output is made
        io.fluxperf.engine.slo.Evaluator.checkWorkloads(all, workloads.stream().map(WorkloadConfig::name).toList());
        return all;
    }

    /**
     * Reads {@code flags.config} when given, merges the flags over it, applies the defaults and
     * checks everything.
     *
     * @throws UserError for any bad flag, file or value, with a message that names the place
     */
    public static RunConfig resolve(RunSettings flags) {
        return resolve(flags, note -> { });
    }

    /**
     * The same, with the notes on an rpc-perf file's keys that change nothing in fluxperf given to
     * {@code notes} (one sentence each, naming the key), for the caller to show.
     */
    public static RunConfig resolve(RunSettings flags, java.util.function.Consumer<String> notes) {
        Objects.requireNonNull(flags, "flags");
        if (flags.configFormat != null && flags.config == null) {
            throw new UserError("--config-format: says how to read --config, and there is no --config");
        }
        ConfigFile file = flags.config == null ? null : ConfigFile.read(flags.config, flags.configFormat, notes);
        boolean fileWorkloads = file != null && !file.workloads.isEmpty();
        if (fileWorkloads) {
            rejectWorkloadFlags(flags, file);
        }
        ConfigFile f = file != null ? file : ConfigFile.empty();

        String protocolName = flags.protocol != null ? flag("protocol", () -> Checks.protocol(flags.protocol))
                : f.protocol != null ? f.protocol : Protocols.defaultProtocol().name();
        int threads = flags.threads != null ? flagRange("threads", flags.threads, 1, MAX_THREADS)
                : or(f.threads, RunConfig.DEFAULT_THREADS);
        int connections = flags.connections != null ? flagRange("connections", flags.connections, 1, MAX_CONNECTIONS)
                : or(f.connections, RunConfig.DEFAULT_CONNECTIONS);
        int pipeline = flags.pipeline != null ? flagRange("pipeline", flags.pipeline, 1, MAX_PIPELINE)
                : or(f.pipeline, RunConfig.DEFAULT_PIPELINE);
        Duration duration = flags.duration != null ? flag("duration", () -> positive(flags.duration))
                : or(f.duration, RunConfig.DEFAULT_DURATION);
        int windows = flags.windows != null ? flagRange("windows", flags.windows, 1, Integer.MAX_VALUE)
                : or(f.windows, RunConfig.DEFAULT_WINDOWS);
        Duration warmup = flags.warmup != null ? flag("warmup", () -> notNegative(flags.warmup))
                : or(f.warmup, DEFAULT_WARMUP);
        Duration timeout = flags.timeout != null ? flag("timeout", () -> positive(flags.timeout))
                : or(f.timeout, RunConfig.DEFAULT_TIMEOUT);
        boolean tcpNoDelay = flags.tcpNoDelay != null ? flags.tcpNoDelay : or(f.tcpNoDelay, RunConfig.DEFAULT_TCP_NODELAY);
        long requests = flags.requests != null ? flagRange("requests", flags.requests, 0, Long.MAX_VALUE)
                : or(f.requests, 0L);
        long seed = flags.seed != null ? flags.seed : or(f.seed, RunConfig.DEFAULT_SEED);
        Protocol protocol = Protocols.find(protocolName);
        PoolOptions pool = PoolResolver.resolve(flags, f, protocol);
        String server = pool.servers().isEmpty() ? null : ServerSpec.parse(pool.servers().get(0)).address();

        WorkloadFlags wf = WorkloadFlags.of(flags);
        List<WorkloadConfig> workloads = fileWorkloads
                ? fromFile(file, wf, protocol)
                : List.of(fromFlags(flags, wf, protocol));
        if (server == null) {
            for (int i = 0; i < workloads.size(); i++) {
                Command m = workloads.get(i).method();
                if (!protocol.targetAnswers(m)) {
                    String problem = "the embedded " + protocol.name() + " target does not answer " + m.label()
                            + "; give a server with -s HOST:PORT";
                    throw fileWorkloads ? file.workloads.get(i).error("method", problem) : new UserError("--method: " + problem);
                }
            }
        }
        ProtocolOptions protocolOptions = protocolOptions(flags, f.protocolOptions, protocol, server);
        if (workloads.stream().anyMatch(WorkloadConfig::flush) && !protocol.supports(Command.FLUSH)) {
            throw new UserError("--flush: " + protocol.name() + " has no command to flush the server");
        }
        ConnectionOptions connection = connectionOptions(flags, f);
        PoolResolver.check(pool, connection, workloads, flags, f);
        Duration statsInterval = flags.statsInterval != null ? flag("stats-interval", () -> notNegative(flags.statsInterval))
                : or(f.statsInterval, Duration.ZERO);
        Duration earlySend = flags.earlySend != null ? flag("early-send", () -> notNegative(flags.earlySend))
                : or(f.earlySend, RunConfig.DEFAULT_EARLY_SEND);
        Arrivals arrivals = flags.arrivals != null ? flag("arrivals", () -> Checks.arrivals(flags.arrivals))
                : or(f.arrivals, Arrivals.SMOOTH);
        double warmupHitrate = flags.warmupHitrate != null ? flag("warmup-hitrate", () -> Checks.hitrate(flags.warmupHitrate))
                : or(f.warmupHitrate, 0.0);
        if (warmupHitrate > 0 && workloads.stream().noneMatch(w -> w.method().isRead())) {
            throw new UserError((flags.warmupHitrate != null ? "--warmup-hitrate" : f.toml.place("general.warmup-hitrate"))
                    + ": no workload reads, so there is no hit rate to reach");
        }
        Duration connectTimeout = flags.connectTimeout != null ? flag("connect-timeout", () -> positive(flags.connectTimeout))
                : f.connectTimeout;
        if (warmupHitrate > 0 && warmup.isZero()) {
            warmup = DEFAULT_HITRATE_WARMUP_BOUND;
        }
        // the admin endpoint and rate ramps
        String admin = flags.admin != null ? flag("admin", () -> Checks.admin(flags.admin)) : f.admin;
        List<RateRamp> ramps = RampConfig.resolve(flags.ramp, workloads, fileWorkloads
                ? file.workloads.stream().map(w -> w.ratelimit == null ? null : w.ratelimit.ramp()).toList() : List.of());
        if (flags.ramp != null && workloads.stream().noneMatch(WorkloadConfig::isRated)) {
            throw new UserError("--ramp: needs rated workloads (--rate, or a rate in each [[workload]])");
        }
        if (ramps.stream().anyMatch(Objects::nonNull) && flags.duration == null && f.duration == null) {
            duration = RampConfig.interval(ramps); // one window per step, each step's percentiles alone
            windows = flags.windows != null || f.windows != null ? windows : RampConfig.windowsFor(ramps, seed);
        }
        checkOnePerWindow(flags, file, fileWorkloads, workloads, duration);
        try {
            // a run of probes beside unpaced workloads gets one more thread: the probes' own, with its own connections
            boolean mixed = workloads.stream().anyMatch(WorkloadConfig::isRated) && workloads.stream().anyMatch(w -> !w.isRated());
            return RunConfig.builder().server(server).protocol(protocol.name()).threads(mixed ? threads + 1 : threads)
                    .connections(connections)
                    .pipeline(pipeline).duration(duration).windows(windows).warmup(warmup).timeout(timeout)
                    .tcpNoDelay(tcpNoDelay).requests(requests).seed(seed).workloads(workloads)
                    .protocolOptions(protocolOptions).connection(connection).statsInterval(statsInterval)
                    .earlySend(earlySend).arrivals(arrivals).warmupHitrate(warmupHitrate)
                    .connectTimeout(connectTimeout).pool(pool)
                    .objectives(objectives(flags, f, workloads))
                    .waterfall(flags.waterfall != null ? flag("waterfall", () -> Checks.png(flags.waterfall.toString()))
                            : f.waterfall)
                    .out(flags.out != null ? flags.out : f.out)
                    .admin(admin).ramps(ramps)
                    .build();
        } catch (IllegalArgumentException e) {
            throw fileWorkloads ? file.toml.error(e.getMessage()) : new UserError("the command line: " + e.getMessage());
        }
    }

    /**
     * {@code path} as fluxperf's own TOML, with a comment on each key it mapped or could not map:
     * an rpc-perf file translated (and checked as a run would check it), or a fluxperf file as it is.
     *
     * @param format --config-format, or null to tell by the file's shape
     */
    public static String convert(java.nio.file.Path path, String format) {
        TomlConfigFile toml = TomlConfigFile.read(path);
        RpcPerfFormat f = RpcPerfFormat.parse(format);
        if (f == null) {
            f = RpcPerfFormat.detect(toml);
        }
        RunSettings check = new RunSettings();
        check.config = path;
        // a stand-in for a file without a server: where the run goes is for run -s to say, and
        // what only the embedded target refuses (redis' scripts) is no reason not to convert
        check.server = "127.0.0.1:1";
        check.configFormat = f == RpcPerfFormat.FLUXPERF ? "fluxperf" : format;
        resolve(check);
        if (f == RpcPerfFormat.FLUXPERF) {
            return toml.text();
        }
        return RpcPerfFormat.translate(f, toml).toToml();
    }

    /**
     * The protocol options of the file, then of the flags (so that a flag's value comes last and
     * wins, and repeated ones add up), checked by the protocol: one it does not read is an error,
     * as is a bad value, named by its flag or key.
     */
    public static ProtocolOptions protocolOptions(RunSettings flags, ProtocolOptions fromFile, Protocol protocol,
                                                  String server) {
        ProtocolOptions options = given(flags, fromFile);
        Protocols.rejectUnknownOptions(protocol, options);
        protocol.codecs(options, server); // checks every value now, before anything is sent
        return options;
    }

    /**
     * The protocol options the flags give, after {@code before} (a config file's), each placed at
     * its flag; not yet checked (that takes the protocol: {@link #protocolOptions}).
     */
    public static ProtocolOptions given(RunSettings flags, ProtocolOptions before) {
        ProtocolOptions options = before;
        for (java.util.Map.Entry<String, List<String>> e : flags.protocolOptions.entrySet()) {
            for (String v : e.getValue()) {
                options = options.with(e.getKey(), v, "--" + e.getKey());
            }
        }
        return options;
    }

    /**
     * The servers of the flags alone (a command without a config file: replay), checked but for
     * the protocol's cluster mode, which the caller checks once it knows the protocol.
     */
    public static PoolOptions pool(RunSettings flags) {
        return PoolResolver.resolve(flags, ConfigFile.empty(), null);
    }

    /** The connection options of the flags alone (a command without a config file: replay). */
    public static ConnectionOptions connectionOptions(RunSettings flags) {
        return connectionOptions(flags, ConfigFile.empty());
    }

    private static ConnectionOptions connectionOptions(RunSettings flags, ConfigFile f) {
        boolean udp = flags.udp != null ? flags.udp : or(f.udp, false);
        boolean tls = flags.tls != null ? flags.tls : or(f.tls, false);
        java.nio.file.Path ca = flags.tlsCa != null ? flags.tlsCa : f.tlsCa != null ? java.nio.file.Path.of(f.tlsCa) : null;
        if (ca != null && !java.nio.file.Files.isReadable(ca)) {
            throw new UserError("--tls-ca: " + ca + ": no such readable file");
        }
        boolean insecure = flags.tlsInsecure != null ? flags.tlsInsecure : or(f.tlsInsecure, false);
        String sni = flags.sni != null ? flags.sni : f.sni;
        if ((ca != null || insecure || sni != null) && !tls) {
            throw new UserError((ca != null ? "--tls-ca" : insecure ? "--tls-insecure" : "--sni") + ": needs --tls");
        }
        boolean perRequest = flags.connectPerRequest != null ? flags.connectPerRequest : or(f.connectPerRequest, false);
        int hold = flags.holdConnections != null ? flagRange("hold-connections", flags.holdConnections, 0, MAX_HELD_CONNECTIONS)
                : or(f.holdConnections, 0);
        double connectRate = flags.connectRate != null ? flag("connect-rate", () -> Checks.rate(flags.connectRate))
                : or(f.connectRate, 0.0);
        if (udp && tls) {
            throw new UserError("--udp: UDP has no TLS; leave out --tls");
        }
        if (udp && perRequest) {
            throw new UserError("--udp: UDP has no connections to open per request; leave out --connect-per-request");
        }
        if (perRequest && hold > 0) {
            throw new UserError("--hold-connections: held connections stay open, so they go without --connect-per-request");
        }
        boolean ioUring = flags.ioUring != null ? flags.ioUring : or(f.ioUring, false);
        boolean busyPoll = flags.busyPoll != null ? flags.busyPoll : or(f.busyPoll, false);
        return ConnectionOptions.builder().udp(udp).tls(tls).tlsCa(ca).tlsInsecure(insecure).sni(sni)
                .connectPerRequest(perRequest).holdConnections(hold).connectRate(connectRate).ioUring(ioUring)
                .busyPoll(busyPoll).build();
    }

    /** rpc-perf's rule: these flags describe a workload, and the file already has its own. */
    private static void rejectWorkloadFlags(RunSettings flags, ConfigFile file) {
        List<String> given = new ArrayList<>();
        if (flags.command != null) {
            given.add("command");
        }
        if (flags.method != null) {
            given.add("method");
        }
        if (flags.rate != null) {
            given.add("rate");
        }
        if (flags.bytes != null) {
            given.add("bytes");
        }
        if (given.isEmpty()) {
            return;
        }
        String flagList = String.join(" and ", given.stream().map(g -> "--" + g).toList());
        String keyList = String.join(" and ", given);
        if (file.toml.isTranslated()) {
            throw new UserError(flagList + " cannot be used with an rpc-perf config file (" + file.toml.name()
                    + "), which has its workloads: as rpc-perf has it, set them in the file, or leave the flag"
                    + (given.size() > 1 ? "s" : "") + " out");
        }
        throw new UserError(flagList + " cannot be used with a config file that has [[workload]] tables ("
                + file.toml.name() + "); set " + keyList + " in each workload there, or leave the flag"
                + (given.size() > 1 ? "s" : "") + " out");
    }

    /** The per-workload flags, parsed and checked once. */
    private record WorkloadFlags(Boolean hit, Boolean flush, Integer keysPerRequest, Integer ttl, Long keyspace,
                                 Integer keyLength, KeyDistribution distribution, Double exponent, Integer subscribers) {
        static WorkloadFlags of(RunSettings flags) {
            if (Boolean.TRUE.equals(flags.hit) && Boolean.TRUE.equals(flags.flush)) {
                throw new UserError("--hit and --flush cannot be used together: --hit loads the key space so that"
                        + " reads hit, --flush empties the server so that they miss");
            }
            return new WorkloadFlags(flags.hit, flags.flush,
                    flags.keysPerRequest == null ? null
                            : flagRange("keys-per-request", flags.keysPerRequest, 1, MAX_KEYS_PER_REQUEST),
                    flags.ttl == null ? null : flagRange("ttl", flags.ttl, 0, MAX_TTL),
                    flags.keyspace == null ? null : flagRange("keyspace", flags.keyspace, 1, Long.MAX_VALUE),
                    flags.keyLength == null ? null : flagRange("key-length", flags.keyLength, 1, MAX_KEY_LENGTH),
                    flags.distribution == null ? null
                            : flag("distribution", () -> Checks.distribution(flags.distribution)),
                    flags.exponent == null ? null : flag("exponent", () -> Checks.exponent(flags.exponent)),
                    flags.subscribers == null ? null
                            : flagRange("subscribers", flags.subscribers, 1, WorkloadShape.MAX_SUBSCRIBERS));
        }
    }

    /** The single workload of a run without [[workload]] tables. */
    private static WorkloadConfig fromFlags(RunSettings flags, WorkloadFlags wf, Protocol protocol) {
        if (flags.command != null && flags.method != null) {
            throw new UserError("--command: give --method or --command, not both");
        }
        Command method = flags.command != null ? Command.COMMAND
                : flags.method == null ? Command.GET : flag("method", () -> Checks.method(flags.method, protocol));
        CommandTemplate template = flags.command != null ? flag("command", () -> CommandTemplate.parse(flags.command))
                : flags.path != null ? CommandTemplate.word(flag("path", () -> Checks.path(flags.path))) : null;
        if (!protocol.supports(method)) {
            throw new UserError("--method: protocol " + protocol.name() + " does not support " + method.label()
                    + speakers(method));
        }
        if (wf.subscribers != null && method != Command.PUBLISH) {
            throw new UserError("--subscribers: only --method publish has subscribers, not " + method.label());
        }
        if (method == Command.PUBLISH && flags.bytes != null
                && flag("bytes", () -> ValueSizeParser.parse(flags.bytes)).min() < Request.MESSAGE_HEADER_BYTES) {
            throw new UserError("--bytes: a published message carries its send time and id in its first "
                    + Request.MESSAGE_HEADER_BYTES + " bytes; give at least " + Request.MESSAGE_HEADER_BYTES);
        }
        if (method == Command.EVAL || method == Command.EVALSHA) {
            throw new UserError("--method: " + method.label() + " needs the script it runs, which only a config file"
                    + " gives (script = \"...\" in a [[workload]])");
        }
        double rate = flags.rate == null ? 0 : flag("rate", () -> Checks.rate(flags.rate));
        if (flags.ramp != null && flags.rate != null) {
            throw new UserError("--ramp: sets the rate from its START; drop --rate");
        }
        if (flags.ramp != null) {
            rate = flag("ramp", () -> RateRamp.parse(flags.ramp).start());
        }
        ValueSize bytes = flags.bytes == null ? ValueSize.fixed(ValueSize.DEFAULT_BYTES)
                : flag("bytes", () -> ValueSizeParser.parse(flags.bytes));
        int keysPerRequest = or(wf.keysPerRequest, 1);
        if (keysPerRequest > 1 && !method.isRead()) {
            throw new UserError("--keys-per-request: more than one key per request needs a read method (get or gets),"
                    + " not " + method.label());
        }
        KeyDistribution distribution = or(wf.distribution, KeyDistribution.UNIFORM);
        if (wf.exponent != null && distribution != KeyDistribution.ZIPF) {
            throw new UserError("--exponent: only the zipf distribution uses an exponent; add --distribution zipf");
        }
        long count = or(wf.keyspace, KeyspaceConfig.DEFAULT_COUNT);
        int keyLength = or(wf.keyLength, KeyspaceConfig.DEFAULT_KEY_LENGTH);
        String keysProblem = keyspaceProblem(count, keyLength, distribution);
        if (keysProblem != null) {
            throw new UserError((wf.keyspace != null ? "--keyspace: " : "--key-length: ") + keysProblem);
        }
        KeyspaceConfig keys = new KeyspaceConfig(count, keyLength, distribution,
                or(wf.exponent, KeyspaceConfig.DEFAULT_ZIPF_EXPONENT));
        try {
            WorkloadConfig w = new WorkloadConfig(null, method, rate, 1, bytes, keys, or(wf.hit, false), or(wf.flush, false),
                    keysPerRequest, or(wf.ttl, 0), template);
            return wf.subscribers == null ? w : w.withShape(w.shape().withSubscribers(wf.subscribers));
        } catch (IllegalArgumentException e) {
            throw new UserError("the command line: " + e.getMessage());
        }
    }

    /** The file's workloads with the per-workload flags applied. */
    private static List<WorkloadConfig> fromFile(ConfigFile file, WorkloadFlags wf, Protocol protocol) {
        List<WorkloadConfig> out = new ArrayList<>();
        Set<String> explicitNames = new HashSet<>();
        for (ConfigFile.Workload w : file.workloads) {
            if (w.name != null && !explicitNames.add(w.name)) {
                throw w.error("name", "'" + w.name + "' is the name of an earlier workload; names must differ");
            }
        }
        Set<String> names = new HashSet<>();
        boolean anyRead = false;
        boolean anyZipf = false;
        String subscribed = null;
        for (ConfigFile.Workload w : file.workloads) {
            if (!protocol.supports(w.method)) {
                throw w.error("method", "protocol " + protocol.name() + " does not support " + w.method.label()
                        + speakers(w.method));
            }
            String name = w.name;
            if (name == null) {
                name = w.command != null && CommandTemplate.parse(w.command).verb() != null
                        ? CommandTemplate.parse(w.command).verb().toLowerCase(java.util.Locale.ROOT) : w.method.label();
                if (explicitNames.contains(name) || names.contains(name)) {
                    name = name + "-" + w.index;
                }
            }
            names.add(name);

            boolean hit = or(w.hit, false);
            boolean flush = or(w.flush, false);
            if (wf.hit != null) {
                hit = wf.hit;
                flush = wf.hit ? false : flush;
            }
            if (wf.flush != null) {
                flush = wf.flush;
                hit = wf.flush ? false : hit;
            }
            if (hit && flush) {
                throw w.error("hit and flush cannot both be true: hit loads the key space so that reads hit,"
                        + " flush empties the server so that they miss");
            }

            int keysPerRequest = or(w.keysPerRequest, 1);
            if (w.method.isRead()) {
                anyRead = true;
                keysPerRequest = or(wf.keysPerRequest, keysPerRequest);
            } else if (keysPerRequest > 1) {
                throw w.error("keys-per-request", "more than one key per request needs a read method (get or gets),"
                        + " not " + w.method.label());
            }

            KeyDistribution distribution = wf.distribution != null ? wf.distribution
                    : or(w.distribution, KeyDistribution.UNIFORM);
            if (w.exponent != null && wf.distribution == null && distribution != KeyDistribution.ZIPF) {
                throw w.error("exponent", "only the zipf distribution uses an exponent, and this workload's"
                        + " distribution is " + distribution.label());
            }
            anyZipf |= distribution == KeyDistribution.ZIPF;
            double exponent = wf.exponent != null ? wf.exponent : or(w.exponent, KeyspaceConfig.DEFAULT_ZIPF_EXPONENT);
            long count = wf.keyspace != null ? wf.keyspace : or(w.keyspace, KeyspaceConfig.DEFAULT_COUNT);
            int keyLength = wf.keyLength != null ? wf.keyLength : or(w.keyLength, KeyspaceConfig.DEFAULT_KEY_LENGTH);
            String keysProblem = keyspaceProblem(count, keyLength, distribution);
            if (keysProblem != null) {
                if (wf.keyspace != null) {
                    throw new UserError("--keyspace: " + keysProblem);
                }
                if (wf.keyLength != null) {
                    throw new UserError("--key-length: " + keysProblem);
                }
                throw w.error(w.keyspace != null ? "keyspace" : "key-length", keysProblem);
            }
            WorkloadShape shape = shape(w);
            if (w.method == Command.PUBLISH && wf.subscribers != null) {
                shape = shape.withSubscribers(wf.subscribers);
            }
            if (shape.subscribers() > 0) {
                if (subscribed != null) {
                    throw w.error("subscribers", "only one workload of a run has subscribers, and workload " + subscribed
                            + " has them already");
                }
                subscribed = name;
            }
            if (w.ttls != null && wf.ttl == null) {
                shape = shape.withTtls(w.ttls); // a --ttl replaces the file's list with its one ttl
            }
            long lastKey = shape.keyOffset() + count - 1;
            if (shape.keyOffset() > 0 && Long.toString(lastKey).length() > keyLength) {
                throw w.error("key-offset", "keys " + shape.keyOffset() + " to " + lastKey + " need keys of at least "
                        + Long.toString(lastKey).length() + " bytes, but the key length is " + keyLength);
            }
            long members = shape.innerKeys() > 0 ? shape.innerKeys() : count;
            if (w.method.takesMembers() && shape.cardinality() > members) {
                throw w.error("cardinality", shape.cardinality() + " different fields or members per request need as"
                        + " many to draw from, and there are " + members + (shape.innerKeys() > 0 ? " (inner-keyspace)"
                        : " (keyspace; give inner-keyspace)"));
            }
            int ttl = wf.ttl != null ? wf.ttl : or(w.ttl, 0);
            double rate = or(w.rate, 0.0);
            int weight = or(w.weight, 1);
            ValueSize bytes = w.bytes != null ? w.bytes : ValueSize.fixed(ValueSize.DEFAULT_BYTES);
            try {
                CommandTemplate template = w.command != null ? CommandTemplate.parse(w.command)
                        : w.path != null ? CommandTemplate.word(w.path) : null;
                out.add(new WorkloadConfig(name, w.method, rate, weight, bytes,
                        new KeyspaceConfig(count, keyLength, distribution, exponent), hit, flush, keysPerRequest, ttl,
                        template, shape));
            } catch (IllegalArgumentException e) {
                throw w.error(e.getMessage());
            }
        }
        if (wf.keysPerRequest != null && wf.keysPerRequest > 1 && !anyRead) {
            throw new UserError("--keys-per-request: no workload in " + file.toml.name()
                    + " reads (get or gets), and only reads take more than one key");
        }
        if (wf.subscribers != null && subscribed == null) {
            throw new UserError("--subscribers: no workload in " + file.toml.name() + " publishes (method = \"publish\")");
        }
        if (wf.exponent != null && !anyZipf) {
            throw new UserError("--exponent: no workload in " + file.toml.name()
                    + " uses the zipf distribution; add --distribution zipf");
        }
        if (out.stream().noneMatch(WorkloadConfig::isRated) && out.stream().allMatch(w -> w.weight() == 0)) {
            throw file.toml.error("every workload has weight 0; give at least one a weight above 0");
        }
        if (out.stream().anyMatch(WorkloadConfig::isRated) && out.stream().anyMatch(w -> !w.isRated())
                && out.stream().filter(w -> !w.isRated()).allMatch(w -> w.weight() == 0)) {
            throw file.toml.error("every unpaced workload has weight 0; give at least one a weight above 0");
        }
        return out;
    }

    /** The file's key offset, fields or members, value kind and script of one workload. */
    private static WorkloadShape shape(ConfigFile.Workload w) {
        WorkloadShape s = WorkloadShape.DEFAULT;
        if (w.cardinality != null && w.cardinality > 1 && !w.method.takesCardinality()) {
            throw w.error("cardinality", w.method.label() + " names one field or member; cardinality above 1 needs"
                    + " one of hget, hset, hdel, sadd, srem, sismember, zadd, zrem, zscore, lpush, rpush");
        }
        if (w.innerKeyLength != null && w.innerKeys == null) {
            throw w.error("inner-key-length", "needs inner-keyspace (how many fields or members to draw from)");
        }
        if (w.script != null && w.method != Command.EVAL && w.method != Command.EVALSHA) {
            throw w.error("script", "only eval and evalsha run a script, and this workload's method is " + w.method.label());
        }
        if (w.script == null && (w.method == Command.EVAL || w.method == Command.EVALSHA)) {
            throw w.error("method", w.method.label() + " needs the script to run: add script = \"...\"");
        }
        if (w.compressionRatio != null && w.valueKind == WorkloadShape.ValueKind.I64) {
            throw w.error("compression-ratio", "i64 values are numbers; a compression ratio is for bytes values");
        }
        for (String key : List.of("range-start", "range-end")) {
            if ((key.equals("range-start") ? w.rangeStart : w.rangeEnd) != null && !w.method.takesRange()) {
                throw w.error(key, "only lrange and zrange read a range, and this workload's method is " + w.method.label());
            }
        }
        if (Boolean.TRUE.equals(w.byScore) && w.method != Command.ZRANGE) {
            throw w.error("by-score", "only zrange reads by score, and this workload's method is " + w.method.label());
        }
        if (w.subscribers != null && w.subscribers > 0 && w.method != Command.PUBLISH) {
            throw w.error("subscribers", "only publish has subscribers, and this workload's method is " + w.method.label());
        }
        if (w.truncate != null && !w.method.takesTruncate()) {
            throw w.error("truncate", "only lpush and rpush keep a list at most so long, and this workload's method is "
                    + w.method.label());
        }
        try {
            if (w.keyOffset != null) {
                s = s.withKeyOffset(w.keyOffset);
            }
            if (w.cardinality != null) {
                s = s.withCardinality(w.cardinality);
            }
            if (w.innerKeys != null) {
                long n = w.innerKeys;
                s = s.withInnerKeys(n, w.innerKeyLength != null ? w.innerKeyLength
                        : Math.max(KeyspaceConfig.DEFAULT_KEY_LENGTH, Long.toString(n - 1).length()));
            }
            if (w.valueKind != null) {
                s = s.withValueKind(w.valueKind);
            }
            if (w.compressionRatio != null) {
                s = s.withCompressionRatio(w.compressionRatio);
            }
            if (w.values != null) {
                s = s.withValues(w.values);
            }
            if (w.script != null) {
                s = s.withScript(w.script);
            }
            if (w.rangeStart != null || w.rangeEnd != null) {
                s = s.withRange(w.rangeStart, w.rangeEnd);
            }
            if (w.byScore != null) {
                s = s.withByScore(w.byScore);
            }
            if (w.truncate != null) {
                s = s.withTruncate(w.truncate);
            }
            if (w.subscribers != null) {
                s = s.withSubscribers(w.subscribers);
            }
        } catch (IllegalArgumentException e) {
            throw w.error(w.innerKeys != null && e.getMessage().contains("inner") ? "inner-key-length" : "cardinality",
                    e.getMessage());
        }
        return s;
    }

    /** " (redis does)": which registered protocols have {@code method}, for the sentence that refuses it. */
    private static String speakers(Command method) {
        List<String> names = Protocols.all().stream().filter(p -> p.supports(method)).map(Protocol::name).toList();
        return names.isEmpty() ? "" : " (" + String.join(", ", names) + (names.size() == 1 ? " does)" : " do)");
    }

    /** Why {@code count} keys of {@code keyLength} bytes cannot be, or null. */
    private static String keyspaceProblem(long count, int keyLength, KeyDistribution distribution) {
        int digits = Long.toString(count - 1).length();
        if (digits > keyLength) {
            return count + " keys need keys of at least " + digits + " bytes, but the key length is " + keyLength;
        }
        if (distribution == KeyDistribution.ZIPF && count > Integer.MAX_VALUE) {
            return "a zipf key space can have at most " + Integer.MAX_VALUE + " keys, not " + count;
        }
        return null;
    }

    static Duration positive(Duration d) {
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException("must be greater than 0, not " + DurationParser.format(d));
        }
        return d;
    }

    static Duration notNegative(Duration d) {
        if (d.isNegative()) {
            throw new IllegalArgumentException("must be at least 0, not " + DurationParser.format(d));
        }
        return d;
    }

    /** Every rated workload sends at least one request per window ({@link RateLimits#belowOnePerWindow}). */
    private static void checkOnePerWindow(RunSettings flags, ConfigFile file, boolean fileWorkloads,
                                          List<WorkloadConfig> workloads, Duration window) {
        for (int i = 0; i < workloads.size(); i++) {
            double rate = workloads.get(i).rate();
            if (rate <= 0) {
                continue;
            }
            String typed = !fileWorkloads && flags.rate != null ? flags.rate.trim() : Checks.plain(rate);
            String problem = RateLimits.belowOnePerWindow(rate, typed, window);
            if (problem != null) {
                problem += ", or longer windows (--duration)";
                throw fileWorkloads ? file.workloads.get(i).error("rate", problem)
                        : new UserError((flags.ramp != null ? "--ramp: " : "--rate: ") + problem);
            }
        }
    }

    private static <T> T flag(String name, Supplier<T> check) {
        try {
            return check.get();
        } catch (IllegalArgumentException e) {
            throw new UserError("--" + name + ": " + e.getMessage());
        }
    }

    private static int flagRange(String name, int v, int min, int max) {
        return (int) flagRange(name, (long) v, min, max);
    }

    private static long flagRange(String name, long v, long min, long max) {
        String problem = Checks.outside(v, min, max);
        if (problem != null) {
            throw new UserError("--" + name + ": " + problem);
        }
        return v;
    }

    private static <T> T or(T value, T fallback) {
        return value != null ? value : fallback;
    }
}
