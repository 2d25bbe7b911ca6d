package io.fluxperf.engine.run;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.admin.AdminEndpoint;
import io.fluxperf.engine.admin.LiveFigures;
import io.fluxperf.engine.config.ConnectionOptions;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.connection.ClientLoops;
import io.fluxperf.engine.connection.ServerAddress;
import io.fluxperf.engine.host.HostTuning;
import io.fluxperf.engine.load.LoadRun;
import io.fluxperf.engine.load.RequestSource;
import io.fluxperf.engine.load.RunErrors;
import io.fluxperf.engine.load.RunListener;
import io.fluxperf.engine.load.RunPreconditions;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.StopReason;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.pool.ServerPool;
import io.fluxperf.engine.protocol.Protocol;
import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.engine.report.HdrLogWriter;
import io.fluxperf.engine.report.JsonReport;
import io.fluxperf.engine.report.JsonResult;
import io.fluxperf.engine.slo.Evaluator;
import io.fluxperf.engine.slo.JunitXml;
import io.fluxperf.engine.slo.ResultFigures;
import io.fluxperf.engine.slo.SloVerdicts;
import io.fluxperf.engine.target.TargetFactory;
import io.fluxperf.engine.target.TargetOptions;
import io.fluxperf.engine.target.TargetServer;
import io.fluxperf.engine.trace.RunTrace;
import io.fluxperf.engine.workload.RateControl;
import io.fluxperf.trace.FileErrors;
import java.io.IOException;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.List;

/**
 * One run from a checked config to its report, the same for {@code run}, {@code replay} and
 * {@code mcb}: it opens the output files (before anything is sent), starts the protocol's embedded
 * target when no server is named, runs the load ({@link LoadRun}) under the host policy, and
 * hands every step to the command's {@link RunReport}; then writes the JSON result.
 *
 * <p>Warm-up ({@link #warmUp}): before the run, this process's hot path can be compiled on an
 * in-process copy of the load (the same protocol, commands, threads and connection mode) against
 * an embedded target of the protocol on a free loopback port, so that the first measured requests
 * do not run on a cold JVM and nothing reaches the server under test that the user did not ask for.
 */
public final class RunOrchestrator {
    private final RunConfig config;
    private RunReport report;
    /** The run directory (--out), or null. */
    private io.fluxperf.engine.rundir.RunDirectoryWriter directory;
    private Protocol protocol;
    private RequestSource source;
    private RunOutputs outputs = RunOutputs.none();
    private HostTuning tuning = HostTuning.standard();
    private boolean liveSamples = true;
    private Warmup warmup;
    private volatile LoadRun run;
    private volatile boolean stopRequested;
    private RunErrors errors;
    /** The run's servers when it has several (opened and closed by {@link #execute()}), or null. */
    private ServerPool servers;
    /** The admin endpoint (--admin): given by the caller, or started and closed by {@link #execute()}; null: none. */
    private AdminEndpoint admin;
    private volatile boolean quitRequested;
    /** Why a stop was asked for, when it says (SIGTERM); null: Ctrl-C. */
    private volatile io.fluxperf.engine.metrics.StopReason stopReason;
    /** With an admin endpoint: the run's figures and, when it can be steered, its rates. */
    private LiveFigures figures;
    private RateControl rates;
    /** --junit: the objectives' verdicts as JUnit XML, or null. */
    private java.nio.file.Path junit;
    /** The verdicts on the config's objectives; null when it has none. */
    private SloVerdicts verdicts;
    /** A publish workload's subscribers, open while the measured run goes; null without. */
    private volatile io.fluxperf.engine.pubsub.PubSubRun subscribers;
    /** Whether the run judges how far its figures can be trusted (pauses, floor, intervals, stability). */
    private boolean trustChecks = true;
    /** Whether the trust checks time the idle round trip before the load (its no-op commands reach the server). */
    private boolean floorProbe = true;
    /** The run's trust as it goes; null without {@link #trustChecks}. */
    private io.fluxperf.engine.trust.TrustRecorder trust;
    /** The run's whole trust, once it has ended; null before or without {@link #trustChecks}. */
    private io.fluxperf.engine.trust.RunTrust runTrust;

    public RunOrchestrator(RunConfig config, RunReport report) {
        this.config = config;
        this.report = report;
    }

    /** The protocol to speak, when not the registered one of the config's name (a test's wrapper). */
    public RunOrchestrator protocol(Protocol p) {
        this.protocol = p;
        return this;
    }

    /** Requests from {@code s} (a replayed log) instead of the config's generated workloads. */
    public RunOrchestrator source(RequestSource s) {
        this.source = s;
        return this;
    }

    public RunOrchestrator outputs(RunOutputs o) {
        this.outputs = o;
        return this;
    }

    /**
     * Writes the run's directory ({@code --out}), opened by the caller before the load: the report
     * is recorded into it, and {@link #execute()} completes and closes it, also when the run fails.
     */
    public RunOrchestrator runDirectory(io.fluxperf.engine.rundir.RunDirectoryWriter d) {
        this.directory = d;
        this.report = d.recording(report);
        return this;
    }

    /** What the run may do to the JVM and the machine ({@link HostTuning#standard()} unless told). */
    public RunOrchestrator tuning(HostTuning t) {
        this.tuning = t;
        return this;
    }

    /** Whether the report gets a live sample every second (off when nothing shows it). */
    public RunOrchestrator liveSamples(boolean live) {
        this.liveSamples = live;
        return this;
    }

    /**
     * What the in-process warm-up sends before the run, against an embedded target.
     *
     * @param requests   how many requests (a source's own may end sooner)
     * @param source     the requests, or null for the config's generated workloads; it is read once
     * @param firstRound with a source, the requests of a short first round ({@link #FIRST_ROUND_REQUESTS}), or null for none
     */
    public record Warmup(long requests, RequestSource source, RequestSource firstRound) {
        public Warmup(long requests, RequestSource source) {
            this(requests, source, null);
        }

        /**
         * What {@code run} sends by default: at 20,000/s, half a second (see {@link #warmUp}). A
         * paced run in a process of its own sends the first {@link #FIRST_ROUND_REQUESTS} of them,
         * then loads until C2 has compiled its path ({@link HostTuning#warmsUntilCompiled}).
         */
        public static final long RUN_REQUESTS = 8_000;
    }

    /**
     * Generated warm-ups begin with a round this short: it loads every class a run loads (at its
     * end too: the histograms' merge, a channel's close), so that none of those loads throws away
     * code the main round has compiled just as the measured run starts.
     */
    public static final long FIRST_ROUND_REQUESTS = 1_000;
    /**
     * A paced warm-up runs at least this fast in total (the workloads' rates scaled alike): at a
     * low rate its requests would take seconds, and the JIT counts calls, not seconds.
     */
    static final double WARMUP_MIN_RATE = 20_000;
    /**
     * A generated warm-up's key spaces hold at most this many keys: it sends about as many requests,
     * and a --hit preload of a large key space into the embedded target (twice, a target per round)
     * was the heap's largest holder before the load (100,000 keys: about 50 MB live at a collection).
     */
    static final long WARMUP_MAX_KEYS = 10_000;

    /** Warms this process up before the run (see the class comment); null: no warm-up. */
    public RunOrchestrator warmUp(Warmup w) {
        this.warmup = w;
        return this;
    }

    /** Ends the run early (Ctrl-C), from any thread: sending stops, requests in flight finish, the report covers what ran. */
    public void requestStop() {
        stopRequested = true;
        LoadRun r = run;
        if (r != null) {
            r.requestStop();
        }
    }

    /**
     * Ends the run early for {@code reason}, from any thread: as {@link #requestStop()}, and the
     * result says why ({@link io.fluxperf.engine.metrics.StopReason#TERMINATED}: SIGTERM).
     */
    public void requestStop(io.fluxperf.engine.metrics.StopReason reason) {
        stopReason = reason;
        stopRequested = true;
        LoadRun r = run;
        if (r != null) {
            r.requestStop(reason);
        }
    }

    /**
     * Ends the run early as asked ({@code POST /quitquitquit}): as {@link #requestStop()}, but the
     * run ends as a wanted stop ({@link io.fluxperf.engine.metrics.StopReason#QUIT}, exit 0).
     */
    public void requestQuit() {
        quitRequested = true;
        stopRequested = true;
        LoadRun r = run;
        if (r != null) {
            r.requestQuit();
        }
    }

    /**
     * Shows the run on {@code endpoint}, which the caller started and closes (a test that reads it
     * after the run); without it, a config with an admin address gets an endpoint of the run's own.
     */
    public RunOrchestrator admin(AdminEndpoint endpoint) {
        this.admin = endpoint;
        return this;
    }

    /**
     * Whether the run watches for client pauses, measures the latency floor and judges its own
     * figures (on by default); a run whose report nobody reads (a sweep's step) may save the cost.
     */
    public RunOrchestrator trustChecks(boolean on) {
        this.trustChecks = on;
        return this;
    }

    /**
     * Whether the latency floor is measured (on by default, with {@link #trustChecks}). A replay and
     * mcb leave it out: their users count what reaches the server (a replayed log's commands exactly
     * once, mcb's connection per command), and the probe's no-ops and connection would be counted.
     */
    public RunOrchestrator floorProbe(boolean on) {
        this.floorProbe = on;
        return this;
    }

    /** The run's trust (docs/measurement.md), after {@link #execute()}; null when the run did not judge it. */
    public io.fluxperf.engine.trust.RunTrust trust() {
        return runTrust;
    }

    /** Writes the objectives' verdicts to {@code file} as JUnit XML at the run's end (--junit); null for none. */
    public RunOrchestrator junit(java.nio.file.Path file) {
        this.junit = file;
        return this;
    }

    /**
     * The verdicts on the config's objectives ({@link RunConfig#objectives()}), each window's and
     * the whole run's; null when it has none. After {@link #execute()}.
     */
    public SloVerdicts verdicts() {
        return verdicts;
    }

    /**
     * The subscribers of the run's publish workload while the measured run goes (opened before it,
     * closed after it), or null: a test pauses one's reading through it.
     */
    public io.fluxperf.engine.pubsub.PubSubRun subscribers() {
        return subscribers;
    }

    /** The run's errors that are not outcomes; after {@link #execute()}. */
    public RunErrors errors() {
        return errors;
    }

    /**
     * Runs and reports.
     *
     * @throws UserError for a mistake the run revealed (an unreachable server, a refused password,
     *                   an output that cannot be written)
     */
    public RunResult execute() {
        if (directory == null) {
            return executeRun();
        }
        try (io.fluxperf.engine.rundir.RunDirectoryWriter d = directory) {
            RunResult result;
            try {
                result = executeRun();
            } catch (RuntimeException e) {
                d.failed(e.getMessage()); // before close() completes the directory with it
                throw e;
            }
            d.complete(result);
            return result;
        }
    }

    private RunResult executeRun() {
        Protocol p = protocol != null ? protocol : registered(config.protocol());
        if (junit != null && config.objectives().isEmpty()) {
            throw new UserError("--junit: writes the verdicts on objectives, and there is no --slo or [[slo]]");
        }
        Evaluator.checkWorkloads(config.objectives(), config.workloads().stream().map(WorkloadConfig::name).toList());
        verdicts = config.objectives().isEmpty() ? null : new SloVerdicts(config.objectives());
        if (admin != null || config.admin() == null) {
            return execute(p);
        }
        // the endpoint listens before anything else, so that a scraper or the dashboard finds it early
        try (AdminEndpoint own = AdminEndpoint.start(config.admin(), "--admin")) {
            admin = own;
            report.adminListening(own.url());
            return execute(p);
        } finally {
            admin = null;
        }
    }

    private RunResult execute(Protocol p) {
        if (config.server() == null && !config.connection().udp()) {
            // both ends of each connection are this process's files (the load's check counts one)
            io.fluxperf.engine.connection.OpenFiles.requireRoomFor(2L * config.threads() * config.connections(),
                    "--connections " + config.connections() + (config.threads() > 1 ? " on each of " + config.threads()
                            + " threads" : "") + " against the embedded target (both ends of each connection in this process)");
        }
        // the run's own embedded target starts before the warm-up: threads started after it inherit
        // the lowered priority of the run's thread, and the target's loops must keep theirs
        try (JunitXml junitFile = junit != null ? JunitXml.open(junit) : null;
             RunOutputs.Opened files = outputs.open(config);
             TargetServer target = config.server() == null ? startEmbedded(p, config.connection().udp()) : null;
             ClientLoops loops = warmup != null ? new ClientLoops(config.connection().ioUring()) : null;
             // several servers (or a cluster, whose map is read now): named before the warm-up, as --server is
             ServerPool servers = target == null ? ServerPool.open(config, p) : null;
             // a publish workload's subscribers: subscribed before the warm-up, so that no message goes unseen
             io.fluxperf.engine.pubsub.PubSubRun pubSub = target == null
                     ? io.fluxperf.engine.pubsub.PubSubRun.open(config, p, servers) : null;
             // started before the warm-up lowers this thread's priority, which threads started later inherit
             io.fluxperf.engine.pause.PauseDetector pauses = trustChecks ? io.fluxperf.engine.pause.PauseDetector.start() : null) {
            // a mistake in --server is named before the warm-up, not after it
            SocketAddress address = target != null ? (config.connection().udp() ? target.udpAddress() : target.address())
                    : ServerAddress.parse(config.server(), "--server");
            String description = target != null ? target.describe() : servers != null ? servers.describe() : config.server();
            this.servers = servers;
            RunPreconditions.check(config, p); // a mistake in the config is named before the warm-up, which shares it
            attachAdmin(description); // answers during the warm-up too, and a rate set then holds for the run
            // the floor's probe connects and warms its own code now, beside the in-process warm-up, on a
            // thread started before the warm-up lowers this one's priority; it times its round trips after
            try (io.fluxperf.engine.trust.FloorProbe probe = trustChecks && floorProbe
                    ? io.fluxperf.engine.trust.FloorProbe.start(p, config, servers == null ? address : null) : null) {
                if (trustChecks) {
                    trust = new io.fluxperf.engine.trust.TrustRecorder(config, pauses);
                }
                if (warmup != null && !stopRequested) {
                    warmUp(p, loops, files.trace() != null);
                    tuning.afterWarmup(config.warmup());
                }
                io.fluxperf.engine.trust.LatencyFloor floor = probe == null ? null : probe.measure();
                if (floor != null) {
                    report.floor(floor);
                }
                LoadRun measured = measuredRun(p, files, loops, description);
                if (pubSub != null) {
                    measured.addendum(pubSub);
                }
                subscribers = pubSub;
                try {
                    return execute(measured, files, address, description, junitFile, floor);
                } finally {
                    subscribers = null;
                }
            }
        }
    }

    /** Shows this run on the admin endpoint, when there is one; generated open-loop workloads can be steered. */
    private void attachAdmin(String description) {
        if (admin == null) {
            return;
        }
        // a replay's pace is its log's
        rates = source == null && config.isOpenLoop() ? new RateControl(config) : null;
        figures = new LiveFigures(config, source == null ? "run" : "replay", description, rates != null);
        admin.attach(figures, rates, this::requestQuit);
    }

    private LoadRun measuredRun(Protocol p, RunOutputs.Opened files, ClientLoops loops, String description) {
        LoadRun load = new LoadRun(config, p, withObjectives(withHdrLog(files.hdr(), withTrust(report)))).tuning(tuning)
                .liveSamples(liveSamples).perSecond(directory != null || trust != null);
        if (figures != null) {
            load.feed(figures);
        }
        if (rates != null) {
            load.rateControl(rates);
        }
        if (loops != null) {
            load.loops(loops);
        }
        if (files.trace() != null) {
            load.trace(files.trace(), outputs.traceRequired());
        }
        errors = load.errors();
        return load;
    }

    private RunResult execute(LoadRun load, RunOutputs.Opened files, SocketAddress address, String description,
                              JunitXml junitFile, io.fluxperf.engine.trust.LatencyFloor floor) {
        report.starting(config, description);
        run = load;
        if (quitRequested) {
            load.requestQuit();
        } else if (stopRequested && stopReason != null) {
            load.requestStop(stopReason);
        } else if (stopRequested) {
            load.requestStop();
        }
        RunResult result;
        try {
            result = servers != null ? load.execute(servers, description, source) : load.execute(address, description, source);
        } finally {
            files.closeLogs();
            if (admin != null && admin.figures() != null) {
                admin.figures().ended();
            }
        }
        if (trust != null) {
            runTrust = trust.finish(result, floor);
            report.trust(runTrust);
        }
        report.finished(result, load.errors(), files.traceIsTheUsers() ? files.trace() : null);
        if (verdicts != null) {
            ResultFigures total = new ResultFigures(result.total(), config.workloads());
            if (runTrust != null) {
                verdicts.trust(runTrust.verdict());
                total.withSeconds(runTrust.seconds());
            }
            verdicts.run(total);
            report.objectives(verdicts);
        }
        if (runTrust != null && files.trace() != null) {
            files.markPauses(runTrust.pauses(), trust.originNanos());
        }
        long drawn = files.writeWaterfall();
        if (drawn >= 0) {
            report.waterfallWritten(files.waterfall(), drawn);
        }
        if (runTrust != null) {
            report.trustVerdict(runTrust.verdict());
        }
        files.writeJson(out -> {
            JsonResult json = report.jsonResult(result);
            if (verdicts != null) {
                json.section("slo", verdicts.json());
            }
            if (runTrust != null) {
                json.section("trust", io.fluxperf.engine.trust.TrustJson.of(runTrust));
            }
            new JsonReport().write(json, out);
        });
        if (junitFile != null) {
            junitFile.write(verdicts, "fluxperf");
        }
        return result;
    }

    /**
     * The listener with each window's objectives judged as it ends; one with abort that failed
     * stops the run at the end of that window ({@link io.fluxperf.engine.metrics.StopReason#SLO_FAILED}).
     */
    private RunListener withObjectives(RunListener inner) {
        if (verdicts == null) {
            return inner;
        }
        return new ForwardingListener(inner) {
            @Override
            public void window(WindowResult window) {
                super.window(window);
                if (verdicts.window(new ResultFigures(window, config.workloads()))) {
                    LoadRun r = run;
                    if (r != null) {
                        r.requestStop(io.fluxperf.engine.metrics.StopReason.SLO_FAILED);
                    }
                }
            }
        };
    }

    private static Protocol registered(String name) {
        Protocol found = Protocols.find(name);
        if (found == null) {
            throw new UserError("--protocol: unknown protocol '" + name + "'; expected one of " + Protocols.names());
        }
        return found;
    }

    /**
     * The warm-up: the run's shape against an embedded target, quietly, on the loops the run will
     * use. Plain TCP unless the run is UDP (an embedded target has no certificate), no
     * --hold-connections or --connect-rate, and the protocol's options less what only a real server
     * takes. Generated requests come in two rounds ({@link #FIRST_ROUND_REQUESTS}, then the rest, or
     * for a paced run in a process of its own the main rounds of {@link #warmUntilCompiled}), a
     * source's when it has a first round. A traced run's warm-up writes a trace of its own to a
     * temporary directory, deleted after it: appending a record is on the hot path too.
     */
    private void warmUp(Protocol p, ClientLoops loops, boolean traced) {
        ConnectionOptions c = config.connection();
        ConnectionOptions plain = ConnectionOptions.builder().udp(c.udp()).connectPerRequest(c.connectPerRequest())
                .ioUring(c.ioUring()).busyPoll(c.busyPoll()).build();
        // the embedded target's answers are what is warmed: workloads it does not answer (redis'
        // scripts) are left out, and a run of nothing else skips the warm-up
        List<WorkloadConfig> answered = warmup.source() != null ? config.workloads()
                : config.workloads().stream().filter(w -> p.targetAnswers(w.method())).toList();
        if (answered.isEmpty()) {
            return;
        }
        RunConfig warm = config.toBuilder().server(null).windows(1).duration(Duration.ofSeconds(30)).warmup(Duration.ZERO)
                .requests(warmup.source() == null ? warmup.requests() : 0).statsInterval(Duration.ZERO).connection(plain)
                .connections(Math.min(config.connections(), 8))
                .workloads(warmup.source() == null ? atMostWarmupKeys(atLeastMinRate(answered)) : atLeastMinRate(answered))
                .protocolOptions(p.forEmbeddedTarget(config.protocolOptions())).startAt(null).admin(null).ramps(List.of()).build();
        boolean generated = warmup.source() == null && warmup.requests() > FIRST_ROUND_REQUESTS;
        // a paced run's main rounds last until the JIT has compiled its path (HostTuning.endWhenCompiled)
        boolean untilCompiled = generated && tuning.warmsUntilCompiled(config.warmup());
        try (WarmupTrace trace = traced ? WarmupTrace.open(warm) : null) {
            RunTrace t = trace == null ? null : trace.trace();
            if (generated) {
                warmRound(p, loops, warm.toBuilder().requests(FIRST_ROUND_REQUESTS).build(), null, t, null);
                warm = warm.toBuilder().requests(warmup.requests() - FIRST_ROUND_REQUESTS).build();
            } else if (warmup.firstRound() != null) {
                warmRound(p, loops, warm, warmup.firstRound(), t, null);
            }
            if (untilCompiled) {
                warmUntilCompiled(p, loops, warm, t);
            } else {
                warmRound(p, loops, warm, warmup.source(), t, null);
            }
        } catch (RuntimeException e) {
            report.warmupSkipped(e.getMessage());
        } finally {
            run = null;
        }
    }

    /**
     * A paced run's main rounds ({@link HostTuning#compiledRounds}): each is all warm-up under the
     * policy's exercises ({@link HostTuning#warmupRound}) and lasts until C2 has compiled what it
     * runs. A round's end takes branches its compiled code never saw (the source's end, the stop
     * from another thread) and throws that code away; the second round compiles it again with the
     * end in its profile, and its own end keeps it.
     */
    private void warmUntilCompiled(Protocol p, ClientLoops loops, RunConfig warm, RunTrace trace) {
        for (Duration most : HostTuning.compiledRounds(config.duration().multipliedBy(config.windows()))) {
            RunConfig round = warm.toBuilder().requests(0).warmup(most.plusSeconds(1)).warmupHitrate(0)
                    .duration(Duration.ofSeconds(1)).build();
            warmRound(p, loops, round, null, trace, most);
        }
    }

    /**
     * @param compiledWithin null: the round ends with its config's bounds; else it is a main round
     *                       ({@link #warmUntilCompiled}) that ends when C2 has compiled what it runs, within this
     */
    private void warmRound(Protocol p, ClientLoops loops, RunConfig warm, RequestSource source, RunTrace trace,
                           Duration compiledWithin) {
        if (stopRequested) {
            return;
        }
        boolean udp = warm.connection().udp();
        try (TargetServer target = startEmbedded(p, udp)) {
            LoadRun load = new LoadRun(warm, p, new RunListener() { }).liveSamples(false).loops(loops);
            if (compiledWithin != null) {
                load.tuning(tuning.warmupRound());
            }
            if (trace != null) {
                load.trace(trace);
            }
            run = load;
            if (stopRequested) {
                load.requestStop();
            }
            try (HostTuning.Watch compiled = compiledWithin == null ? null
                    : tuning.endWhenCompiled(compiledWithin.toNanos(), () -> load.requestStop(StopReason.COMPLETED))) {
                load.execute(udp ? target.udpAddress() : target.address(), target.describe(), source);
            }
        }
    }

    /** The workloads with their rates scaled up alike to {@link #WARMUP_MIN_RATE} in total, when slower. */
    static List<WorkloadConfig> atLeastMinRate(List<WorkloadConfig> workloads) {
        double total = workloads.stream().mapToDouble(WorkloadConfig::rate).sum();
        if (total <= 0 || total >= WARMUP_MIN_RATE || workloads.stream().anyMatch(w -> w.rate() <= 0)) {
            return workloads;
        }
        double factor = WARMUP_MIN_RATE / total;
        return workloads.stream().map(w -> w.withRate(w.rate() * factor)).toList();
    }

    /** The workloads with key spaces of at most {@link #WARMUP_MAX_KEYS} keys, the rest of each kept. */
    static List<WorkloadConfig> atMostWarmupKeys(List<WorkloadConfig> workloads) {
        return workloads.stream().map(w -> w.keyspace().count() <= WARMUP_MAX_KEYS ? w
                : w.withKeyspace(w.keyspace().withCount(WARMUP_MAX_KEYS))).toList();
    }

    /** Without --server, the embedded target of the protocol on a free loopback port (and a UDP port for --udp). */
    private TargetServer startEmbedded(Protocol p, boolean udp) {
        TargetFactory factory = p.target();
        if (factory == null) {
            throw new UserError("--server: protocol " + p.name() + " has no embedded server; name one with --server HOST:PORT");
        }
        try {
            return factory.start(udp ? TargetOptions.builder().udpPort(0).build() : TargetOptions.defaults());
        } catch (IllegalStateException e) {
            throw new UserError("--server: cannot start the embedded " + p.name() + " server (" + e.getMessage()
                    + "); name one with --server HOST:PORT", e);
        }
    }

    /**
     * {@code inner}, with the run's seconds and windows also given to the trust recorder, and each
     * window's trust to the report right after the window.
     */
    private RunListener withTrust(RunListener inner) {
        io.fluxperf.engine.trust.TrustRecorder recorder = trust;
        if (recorder == null) {
            return inner;
        }
        return new ForwardingListener(inner) {
            @Override
            public void connected(long open, long failures) {
                super.connected(open, failures);
                recorder.loadBegins();
            }

            @Override
            public void preloaded(long keys, long failed, double seconds) {
                super.preloaded(keys, failed, seconds);
                recorder.loadBegins();
            }

            @Override
            public void warmupComplete() {
                super.warmupComplete();
                recorder.loadBegins();
            }

            @Override
            public void warmupEnded(io.fluxperf.engine.metrics.HitrateWarmup warmup) {
                super.warmupEnded(warmup);
                recorder.loadBegins();
            }

            @Override
            public void second(io.fluxperf.engine.metrics.SecondFigures second) {
                recorder.second(second);
                super.second(second);
            }

            @Override
            public void window(WindowResult window) {
                super.window(window);
                report.windowTrust(recorder.window(window));
            }
        };
    }

    /** {@code inner}, with each window also written to the HdrHistogram log. */
    private RunListener withHdrLog(HdrLogWriter hdr, RunListener inner) {
        if (hdr == null) {
            return inner;
        }
        long runStart = System.nanoTime();
        return new ForwardingListener(inner) {
            @Override
            public void window(WindowResult window) {
                super.window(window);
                try {
                    hdr.window(window, (window.startNanos() - runStart) / 1e9);
                } catch (IOException e) {
                    throw new UserError("--hdr-log: cannot write: " + FileErrors.describe(e), e);
                }
            }
        };
    }
}
