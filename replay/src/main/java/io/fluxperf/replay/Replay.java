package io.fluxperf.replay;

import io.fluxperf.engine.Printable;
import io.fluxperf.engine.UserError;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.host.HostTuning;
import io.fluxperf.engine.log.BadLines;
import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.log.LogStats;
import io.fluxperf.engine.log.ReaderContext;
import io.fluxperf.engine.log.VerbTable;
import io.fluxperf.engine.metrics.LatencySummary;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.SendLateness;
import io.fluxperf.engine.metrics.StopReason;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.CommandTemplate;
import io.fluxperf.engine.run.RunOrchestrator;
import io.fluxperf.engine.run.RunOutputs;
import io.fluxperf.engine.rundir.RunDirectoryWriter;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.UnaryOperator;

/**
 * {@code fluxperf replay}: a command log sent to a server with its original timing (or faster),
 * measured and reported as {@code run} is, plus how faithfully it was replayed. The log becomes a
 * {@link ReplaySource}; everything below the request flux (connections, pacing, metrics, reports,
 * trace, output files) is {@code run}'s, through the same {@link RunOrchestrator}.
 *
 * <p>Workloads: one per command the log holds (its verb), so the report's per-workload breakdown
 * is the per-command breakdown; a command first met after the plan's scan is counted under
 * "other". Every workload is unrated: requests carry their own send times.
 */
public final class Replay {
    /** The window of a replay reported as one block: longer than any log (30 days). */
    private static final Duration WHOLE_REPLAY = Duration.ofDays(30);
    private static final String OTHER = "other";
    /**
     * A largest send lag above this gets a note in the fidelity block: a timer or a scheduler's
     * hiccup on a busy machine stays under it, while a stall or a backlog a person would care about
     * (a tenth of a frame of a 100 Hz chart) is over it.
     */
    static final long FELL_BEHIND_NOTE_NANOS = 10_000_000L;
    /**
     * Commands of the log's start that the in-process warm-up plays against an embedded target
     * before the replay's schedule starts, after a first round of
     * {@link RunOrchestrator#FIRST_ROUND_REQUESTS} (as {@code run}'s, so that the classes of a run's
     * end are loaded before the second round's code is compiled): with 2,000, the hot path's last
     * tier was compiled in the replay's first second.
     */
    static final long WARMUP_COMMANDS = 7_000;
    /**
     * A paced replay's warm-up is paced too, at this rate: its alarms and early sends are compiled
     * as well as its sends (7,000 commands take 0.35 s).
     */
    static final double WARMUP_RATE = 20_000;

    private final ReplayOptions options;
    /** --admin: the admin endpoint's [ADDR:]PORT, or null for none. */
    private String admin;
    private volatile RunOrchestrator run;
    private volatile boolean stopRequested;
    /** Why a stop was asked for, when it says (SIGTERM); null: Ctrl-C. */
    private volatile StopReason stopReason;
    private HostTuning tuning = HostTuning.standard();
    /** The objectives to check (--slo) and where their JUnit XML goes (--junit, or null). */
    private List<io.fluxperf.engine.slo.Objective> objectives = List.of();
    private java.nio.file.Path junit;

    public Replay(ReplayOptions options) {
        this.options = options;
    }

    /** What the replay may do to the JVM and the machine ({@link HostTuning#standard()} unless told). */
    /**
     * A sharded replay ({@code --shard}): this agent replays the clients that {@code s} owns; and
     * the schedule starts at {@code at} on the wall clock ({@code --start-at}). Either may be null.
     */
    public Replay sharding(io.fluxperf.engine.shard.Shard s, java.time.Instant at) {
        this.shard = s;
        this.startAt = at;
        return this;
    }

    private io.fluxperf.engine.shard.Shard shard;
    private java.time.Instant startAt;

    public Replay tuning(HostTuning policy) {
        this.tuning = policy;
        return this;
    }

    /** Shows the replay on an admin endpoint at {@code spec} ({@code [ADDR:]PORT}, checked by the caller); null: none. */
    public Replay admin(String spec) {
        this.admin = spec;
        return this;
    }

    /** Service-level objectives checked per window and over the replay, as {@code run} checks them (--slo). */
    public Replay objectives(List<io.fluxperf.engine.slo.Objective> list, java.nio.file.Path junitFile) {
        this.objectives = List.copyOf(list);
        this.junit = junitFile;
        return this;
    }

    /** The verdicts on the objectives after {@link #run}; null when there were none. */
    public io.fluxperf.engine.slo.SloVerdicts verdicts() {
        RunOrchestrator r = run;
        return r == null ? null : r.verdicts();
    }

    /** The run directory to write ({@code replay --out DIR}), or null. */
    private Path out;
    private boolean overwrite;
    private boolean traceInside;
    private List<String> commandLine = List.of();

    /**
     * Writes the replay's run directory as {@code run --out} does (opened before the replay starts).
     *
     * @param overwrite   write into a directory that is not empty
     * @param traceInside write the trace into the directory's trace/ (a bare {@code --trace})
     * @param commandLine the exact command line, for environment.json
     */
    public Replay runDirectory(Path dir, boolean overwrite, boolean traceInside, List<String> commandLine) {
        this.out = dir;
        this.overwrite = overwrite;
        this.traceInside = traceInside;
        this.commandLine = List.copyOf(commandLine);
        return this;
    }

    /** How the run directory is placed and what is recorded in it, once the config is known: run's own code for both. */
    private UnaryOperator<RunConfig> place = c -> c;
    private BiConsumer<RunDirectoryWriter, RunConfig> record = (d, c) -> { };

    /**
     * A sharded replay's run directory as {@code run} places and fills it: {@code place} moves the
     * config's {@code out} (the --out directory) to where this agent writes ({@code OUT/RUN_ID/shard-I});
     * {@code record} adds what the agent records (result.json's "shard").
     */
    public Replay placement(UnaryOperator<RunConfig> place, BiConsumer<RunDirectoryWriter, RunConfig> record) {
        this.place = place;
        this.record = record;
        return this;
    }

    /** Ends the replay early (Ctrl-C): sending stops, replies in flight are waited for, the report covers what ran. */
    public void requestStop() {
        stopRequested = true;
        RunOrchestrator r = run;
        if (r != null) {
            r.requestStop();
        }
    }

    /** Ends the replay early for {@code reason} (SIGTERM): as {@link #requestStop()}, and the result says why. */
    public void requestStop(StopReason reason) {
        stopReason = reason;
        stopRequested = true;
        RunOrchestrator r = run;
        if (r != null) {
            r.requestStop(reason);
        }
    }

    /**
     * Replays and prints the report to {@code out} (the progress line to {@code err}).
     *
     * @throws UserError for a mistake in the options or the log (after the report of what ran,
     *                   when a bad line under --strict stopped it)
     */
    public ReplayResult run(PrintStream out, PrintStream err) {
        ReplayPlan plan = ReplayPlan.make(options);
        Protocols.rejectUnknownOptions(plan.protocol, options.protocolOptions());
        plan.protocol.codecs(options.protocolOptions(), options.server()); // checks the values before anything is read
        List<Command> commands = plan.commands();
        List<WorkloadConfig> workloads = new ArrayList<>();
        int[] workloadByVerb = new int[plan.verbs.size()];
        for (int i = 0; i < plan.verbs.size(); i++) {
            workloads.add(workload(Printable.quote(plan.verbs.get(i)), commands.get(i))); // a log's word, printed
            workloadByVerb[i] = i;
        }
        int other = 0;
        if (!plan.complete) {
            other = workloads.size();
            workloads.add(workload(plan.verbs.contains(OTHER) ? OTHER + "-commands" : OTHER, Command.COMMAND));
        }
        for (WorkloadConfig w : workloads) {
            if (!plan.protocol.supports(w.method())) {
                throw new UserError((options.protocol() != null ? "--protocol: " : options.log() + ": ")
                        + plan.protocol.name() + " cannot send this log's '" + w.name() + "' commands");
            }
        }
        if (options.flush()) {
            workloads.set(0, workloads.get(0).withFlush(true)); // the run flushes before its load when any workload says so
        }
        if (options.pool().cluster() && plan.protocol.cluster() == null) {
            throw new UserError("--cluster: protocol " + plan.protocol.name() + " has no cluster mode");
        }
        RunConfig config = RunConfig.builder().server(options.server()).pool(options.pool()).protocol(plan.protocol.name())
                .threads(options.threads()).connections(options.connections()).pipeline(options.pipeline())
                .duration(options.window() != null ? options.window() : WHOLE_REPLAY)
                .windows(options.window() != null ? Integer.MAX_VALUE : 1)
                .warmup(options.warmup() != null ? options.warmup() : Duration.ZERO)
                .timeout(options.timeout()).tcpNoDelay(options.tcpNoDelay()).workloads(workloads)
                .protocolOptions(options.protocolOptions()).connection(options.connection())
                .earlySend(options.earlySend()).statsInterval(options.statsInterval())
                .shard(shard).startAt(startAt)
                .objectives(objectives).admin(admin).build();

        BadLines bad = new BadLines(options.strict());
        VerbTable verbs = new VerbTable(plan.verbs);
        LogStats stats = new LogStats();
        ReaderContext ctx = plan.context(bad, verbs, stats);
        Pacer pacer = new Pacer(options.speed(), options.maxWait() == null ? 0 : options.maxWait().toNanos(),
                options.rateCap());
        // --scale: every pass reads the log once per copy, each copy in its own key namespace
        // where the format splits, several threads read the log in parts (SplitLogReader), put back in order;
        // a capture splits by connection (its format's own reader on threads)
        int readerThreads = SplitLogReader.threadsFor(options.readerThreads(), plan.prepared, options.log(), options.scale());
        ReplaySource.Opener opener = options.scale() > 1 ? c -> ScaledReader.open(plan, c, options.scale())
                : readerThreads > 1 && plan.prepared.splits() ? splitOpener(options.log(), plan.prepared, readerThreads)
                : readerThreads > 1 ? c -> plan.prepared.open(c, readerThreads) : plan::open;
        ReplaySource source = new ReplaySource(opener, ctx, options.threads(), pacer, options.loops(),
                options.readAheadOf(plan.format), options.anyConnection(), plan.only, workloadByVerb, other).shard(shard)
                .backlogBytes(options.readAheadBudget());
        Finisher finisher = new Finisher(plan, config, verbs, stats, bad, source);
        RunConfig placed = this.out == null ? config : place.apply(config.toBuilder().out(this.out).build());
        RunDirectoryWriter directory = this.out == null ? null
                : RunDirectoryWriter.open(placed.out(), overwrite, config, "replay", commandLine, "--out");
        if (directory != null) {
            record.accept(directory, placed);
        }
        // a bare --trace goes into the run directory: this agent's own when it is placed
        Path traceDir = directory != null && traceInside ? directory.traceDirectory() : options.trace();
        ReplayRunReport report = new ReplayRunReport(directory != null ? directory.tee(out) : out, err, plan, source, finisher);
        RunOrchestrator orchestrator = new RunOrchestrator(config, report).source(source)
                .outputs(new RunOutputs(options.json(), null, traceDir, false))
                .tuning(tuning).liveSamples(options.live()).junit(junit)
                .floorProbe(false); // the server sees the log's commands exactly once, and nothing else (invariant 12)
        if (directory != null) {
            orchestrator.runDirectory(directory);
        }
        ReplaySource warm = null;
        ReplaySource first = null;
        if (tuning.warmsUp()) {
            // the log's first commands, paced or as fast as they go, through the same reader, lanes and connections
            first = warmSource(plan, workloadByVerb, other, RunOrchestrator.FIRST_ROUND_REQUESTS);
            warm = warmSource(plan, workloadByVerb, other, WARMUP_COMMANDS);
            orchestrator.warmUp(new RunOrchestrator.Warmup(WARMUP_COMMANDS, warm, first));
            first.start();
            warm.start();
        }
        source.start(); // reading starts now, so that the read-ahead is full when the first command is due
        try {
            source.onFailure(orchestrator::requestStop);
            run = orchestrator;
            if (stopRequested && stopReason != null) {
                orchestrator.requestStop(stopReason);
            } else if (stopRequested) {
                orchestrator.requestStop();
            }
            source.awaitPrimed(30_000);
            orchestrator.execute();
        } finally {
            source.close();
            if (warm != null) {
                warm.close();
                first.close();
            }
        }
        Throwable failure = source.failure();
        if (failure instanceof UserError u) {
            throw u;
        }
        if (failure != null) {
            throw new IllegalStateException("the replay reader failed", failure);
        }
        return report.result();
    }

    /** The log's first {@code commands}, read as the replay reads it, for the in-process warm-up. */
    private ReplaySource warmSource(ReplayPlan plan, int[] workloadByVerb, int other, long commands) {
        ReaderContext ctx = plan.context(new BadLines(false), new VerbTable(plan.verbs), new LogStats());
        return new ReplaySource(c -> new FirstCommands(plan.open(c), commands), ctx, options.threads(),
                new Pacer(0, 0, options.speed() > 0 ? WARMUP_RATE : 0), 1, options.readAheadOf(plan.format), options.anyConnection(),
                plan.only, workloadByVerb, other);
    }

    private static WorkloadConfig workload(String name, Command method) {
        CommandTemplate template = method == Command.COMMAND ? CommandTemplate.parse("replayed") : null;
        return WorkloadConfig.of(method, template).withName(name);
    }

    /** What a replay's report makes of the run at its end, from what the reader saw. */
    final class Finisher {
        private final ReplayPlan plan;
        private final RunConfig config;
        private final VerbTable verbs;
        private final LogStats stats;
        private final BadLines bad;
        /** Counts what its load threads sent: the commands replayed. */
        private final ReplaySource source;

        Finisher(ReplayPlan plan, RunConfig config, VerbTable verbs, LogStats stats, BadLines bad, ReplaySource source) {
            this.plan = plan;
            this.config = config;
            this.verbs = verbs;
            this.stats = stats;
            this.bad = bad;
            this.source = source;
        }

        LogStats stats() {
            return stats;
        }

        /**
         * The result as the report shows it: the log running out is how a replay completes; the
         * config shows the windows there were and, for one window, the replay's length rather than
         * the placeholder.
         */
        RunResult shown(RunResult r, Throwable failure) {
            StopReason reason = r.stopReason();
            if (failure instanceof UserError) {
                reason = StopReason.BAD_INPUT;
            } else if (reason == StopReason.SOURCE_ENDED) {
                reason = StopReason.COMPLETED;
            }
            Duration window = config.windows() == 1 ? Duration.ofNanos(r.total().endNanos() - r.total().startNanos())
                    : config.duration();
            RunConfig c = config.toBuilder().duration(window.isZero() || window.isNegative() ? Duration.ofNanos(1) : window)
                    .windows(Math.max(1, r.windows().size())).build();
            return new RunResult(c, r.target(), r.windows(), r.total(), reason, r.preloadedKeys(), r.intervals(),
                    r.threadSeconds(), r.lateness());
        }

        /**
         * @param positions where each statistics block ended in the log, in order
         * @param trust     each window's trust as the report showed it; empty when it was not checked
         */
        ReplayResult result(RunResult r, Throwable failure, List<LogPosition> positions,
                            List<io.fluxperf.engine.trust.WindowTrust> trust) {
            ReplayLimit limit = ReplayLimit.of(r, options.speed() == 0, source.readerWaitNanos(),
                    source.backlogPeakBytes(), source.backlogBudget(), trust);
            return Replay.this.result(plan, r, verbs, stats, source.replayedByVerb(verbs), source.originalReplies(), bad,
                    failure, positions, limit);
        }
    }

    /**
     * @param replayed the commands the load threads sent, per verb
     * @param originals what the original server answered those commands; null for a log without replies
     */
    /** Passes over a log read in parts by {@code threads} threads, each pass reusing the parts of the one before. */
    private static ReplaySource.Opener splitOpener(java.nio.file.Path log, io.fluxperf.engine.log.LogFormat.PreparedLog prepared,
                                                  int threads) {
        SplitLogReader.Parts parts = new SplitLogReader.Parts(threads);
        return c -> new SplitLogReader(log, prepared, c, parts);
    }

    private ReplayResult result(ReplayPlan plan, RunResult r, VerbTable verbs, LogStats stats, Map<String, Long> replayed,
                                OriginalReplies originals, BadLines bad, Throwable failure, List<LogPosition> positions,
                                ReplayLimit limit) {
        long[] lag = null;
        if (r.total().sendLag().getTotalCount() > 0) {
            LatencySummary l = r.total().summaries().sendLag();
            lag = new long[] {l.p50(), l.p99(), l.max()};
        }
        double original = stats.firstTime == LogEntry.NO_TIME ? Double.NaN : (stats.lastTime - stats.firstTime) / 1e9;
        double expected = stats.anyScheduled ? stats.lastOffsetNanos / 1e9 : Double.NaN;
        List<String> notes = new ArrayList<>(plan.notes);
        for (String o : options.only()) {
            if (verbs.names().stream().noneMatch(v -> plan.only.accepts(v) && new ReplayPlan.Only(Set.of(o)).accepts(v))) {
                notes.add("--only " + o + ": the log has no such command");
            }
        }
        if (lag != null) {
            String behind = fellBehind(r.lateness());
            if (behind != null) {
                notes.add(behind);
            }
        }
        int connections = options.threads() * options.connections();
        if (!options.anyConnection() && stats.clients > connections) {
            notes.add(stats.clients + " original clients shared " + connections + " connections: each kept its order,"
                    + " but clients on one connection share its state (SELECT, MULTI) and wait for each other;"
                    + " --connections " + (stats.clients + options.threads() - 1) / options.threads()
                    + " gives each its own");
        }
        return new ReplayResult(r, plan.name, plan.format, plan.protocol.name(), options.speedText(), options.loops(),
                lag, original, r.total().seconds(), expected, replayed, stats.commands, stats.lines,
                bad.count(), bad.first(), stats.skipped(), stats.filtered, stats.late, stats.adjusted(), notes,
                failure == null ? null : failure.getMessage(), options.warmup() != null, List.copyOf(positions),
                originals, limit);
    }

    /**
     * The note that says plainly that the replay did not keep its schedule: how far behind it fell
     * at worst, where in the log, and whether its load thread was on CPU all that time (the client
     * could not keep up) or not (it waited: for the server, the reader or a CPU); null when the
     * largest lag is {@link #FELL_BEHIND_NOTE_NANOS} or less.
     */
    static String fellBehind(SendLateness l) {
        if (l.late() == 0 || l.maxLagNanos() <= FELL_BEHIND_NOTE_NANOS) {
            return null;
        }
        String lag = l.maxLagNanos() < 10_000_000_000L ? Math.round(l.maxLagNanos() / 1e6) + " ms"
                : String.format(Locale.ROOT, "%.1f s", l.maxLagNanos() / 1e9);
        String head = "fell " + lag + " behind at " + ReplayReport.where(l.maxLagSourceNanos(), l.maxLagAtNanos());
        double cpu = l.maxLagCpuShare();
        if (cpu < 0) {
            return head + " (this JVM does not tell its load threads' CPU time)";
        }
        String share = String.format(Locale.ROOT, "; its load thread was on CPU %.0f %% of that time", 100 * cpu);
        if (cpu >= WindowResult.SATURATED_LOOP_SHARE) {
            return head + share + ": the client could not keep up (give it more --threads and CPUs, or a lower --speed)";
        }
        return head + share + ", so it also waited: for the server's replies or a connection with room"
                + " (more --connections or --pipeline), for the log's reader, or for a CPU the machine gave to others";
    }
}
