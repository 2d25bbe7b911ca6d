package io.fluxperf.replay;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.load.LoadRun;
import io.fluxperf.engine.load.RunListener;
import io.fluxperf.engine.load.ServerAddress;
import io.fluxperf.engine.log.BadLines;
import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.log.LogStats;
import io.fluxperf.engine.log.ReaderContext;
import io.fluxperf.engine.log.VerbTable;
import io.fluxperf.engine.metrics.LiveSample;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.protocol.ProtocolOptions;
import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.engine.report.JsonReport;
import io.fluxperf.engine.report.LatencySummary;
import io.fluxperf.engine.report.TextReport;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.CommandTemplate;
import io.fluxperf.engine.target.TargetOptions;
import io.fluxperf.engine.target.TargetServer;
import io.fluxperf.engine.trace.RunTrace;
import io.fluxperf.trace.TraceFormatException;
import java.io.IOException;
import java.io.PrintStream;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code fluxperf replay}: a command log sent to a server with its original timing (or faster),
 * measured and reported as {@code run} is, plus how faithfully it was replayed. The log becomes a
 * {@link ReplaySource}; everything below the request flux (connections, pacing, metrics, reports,
 * trace) is {@code run}'s.
 *
 * <p>Workloads: one per command the log holds (its verb), so the report's per-workload breakdown
 * is the per-command breakdown; a command first met after the plan's scan is counted under
 * "other". Every workload is unrated: requests carry their own send times.
 */
public final class Replay {
    /** The window of a replay reported as one block: longer than any log (30 days). */
    private static final Duration WHOLE_REPLAY = Duration.ofDays(30);
    private static final String OTHER = "other";

    private final ReplayOptions options;
    private volatile LoadRun run;
    private volatile boolean stopRequested;
    private boolean yieldToLoops;

    public Replay(ReplayOptions options) {
        this.options = options;
    }

    /**
     * For a replay in a process of its own: it settles before the load ({@link LoadRun#settleBeforeLoad})
     * and, when paced, lowers the JIT's priority ({@link LoadRun#yieldToLoops}).
     */
    public Replay yieldToLoops(boolean yield) {
        this.yieldToLoops = yield;
        return this;
    }

    /** Ends the replay early (Ctrl-C): sending stops, replies in flight are waited for, the report covers what ran. */
    public void requestStop() {
        stopRequested = true;
        LoadRun r = run;
        if (r != null) {
            r.requestStop();
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
        List<Command> commands = plan.commands();
        List<WorkloadConfig> workloads = new ArrayList<>();
        int[] workloadByVerb = new int[plan.verbs.size()];
        for (int i = 0; i < plan.verbs.size(); i++) {
            workloads.add(workload(plan.verbs.get(i), commands.get(i)));
            workloadByVerb[i] = i;
        }
        int other = 0;
        if (!plan.complete) {
            other = workloads.size();
            workloads.add(workload(plan.verbs.contains(OTHER) ? OTHER + "-commands" : OTHER, Command.COMMAND));
        }
        ProtocolOptions protocolOptions = ProtocolOptions.none();
        if (options.user() != null) {
            protocolOptions = protocolOptions.with("user", options.user(), "--user");
        }
        if (options.password() != null) {
            protocolOptions = protocolOptions.with("password", options.password(), "--password");
        }
        RunConfig config = RunConfig.builder().server(options.server()).protocol(plan.protocol.name())
                .threads(options.threads()).connections(options.connections()).pipeline(options.pipeline())
                .duration(options.window() != null ? options.window() : WHOLE_REPLAY)
                .windows(options.window() != null ? Integer.MAX_VALUE : 1)
                .warmup(options.warmup() != null ? options.warmup() : Duration.ZERO)
                .timeout(options.timeout()).tcpNoDelay(options.tcpNoDelay()).workloads(workloads)
                .protocolOptions(protocolOptions).build();

        try (TargetServer target = options.server() == null ? startEmbedded(plan) : null) {
            SocketAddress address = target != null ? target.address() : ServerAddress.parse(options.server(), "--server");
            String description = target != null ? target.describe() : options.server();
            ReplayReport replayReport = new ReplayReport(out);
            TextReport report = new TextReport(out);
            replayReport.configEcho(config, description, plan);

            BadLines bad = new BadLines(options.strict());
            VerbTable verbs = new VerbTable(plan.verbs);
            LogStats stats = new LogStats();
            ReaderContext ctx = plan.context(bad, verbs, stats);
            Pacer pacer = new Pacer(options.speed(), options.maxWait() == null ? 0 : options.maxWait().toNanos(),
                    options.rateCap());
            ReplaySource source = new ReplaySource(plan::open, ctx, options.threads(), pacer, options.loops(),
                    options.readAhead(), options.anyConnection(), plan.only, workloadByVerb, other);
            source.start(); // reading starts now, so that the read-ahead is full when the first command is due
            LoadRun loadRun;
            RunTrace trace = null;
            RunResult result;
            try {
                long[] started = {System.nanoTime()};
                loadRun = new LoadRun(config, new RunListener() {
                    @Override
                    public void connected(long open, long failures) {
                        report.connections(open, failures);
                        started[0] = System.nanoTime();
                    }

                    @Override
                    public void warmupComplete() {
                        report.warmupComplete();
                    }

                    @Override
                    public void live(LiveSample sample) {
                        if (options.live()) {
                            err.println(ReplayReport.progressLine(sample, System.nanoTime() - started[0],
                                    source.progress(), stats.size, options.loops(), plan.format == TraceFormat.INSTANCE));
                        }
                    }

                    @Override
                    public void window(WindowResult window) {
                        report.window(window, config);
                        replayReport.scheduleLines(window, true);
                    }
                });
                trace = options.trace() != null ? openTrace(config) : null;
                if (trace != null) {
                    loadRun.trace(trace);
                }
                loadRun.yieldToLoops(yieldToLoops && options.speed() > 0);
                loadRun.settleBeforeLoad(yieldToLoops);
                loadRun.liveSamples(options.live());
                source.onFailure(loadRun::requestStop);
                run = loadRun;
                if (stopRequested) {
                    loadRun.requestStop();
                }
                source.awaitPrimed(30_000);
                result = loadRun.execute(address, description, source);
            } finally {
                source.close();
                if (trace != null) {
                    trace.close();
                }
            }
            Throwable failure = source.failure();
            result = shown(result, config, failure);
            report.summary(result);
            replayReport.scheduleLines(result.total(), false);
            if (trace != null) {
                out.println(trace.statusLine());
            }
            if (loadRun.errors().any()) {
                out.println(loadRun.errors().summary());
            }
            ReplayResult replay = result(plan, result, verbs, stats, bad, failure);
            replayReport.fidelity(replay, plan.notes);
            if (options.json() != null) {
                try {
                    ReplayReport.writeJson(replay, options.json());
                } catch (IOException e) {
                    throw new UserError("--json: cannot write " + options.json() + ": " + e.getMessage());
                }
            }
            out.flush();
            if (failure instanceof UserError u) {
                throw u;
            }
            if (failure != null) {
                throw new IllegalStateException("the replay reader failed", failure);
            }
            return replay;
        }
    }

    private static WorkloadConfig workload(String name, Command method) {
        CommandTemplate template = method == Command.COMMAND ? CommandTemplate.parse("replayed") : null;
        return WorkloadConfig.of(method, template).withName(name);
    }

    private static TargetServer startEmbedded(ReplayPlan plan) {
        try {
            return Protocols.startTarget(plan.protocol.name(), TargetOptions.defaults());
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new UserError("--server: no embedded " + plan.protocol.name() + " server to replay against ("
                    + e.getMessage() + "); name one with --server HOST:PORT");
        }
    }

    private RunTrace openTrace(RunConfig config) {
        try {
            return RunTrace.open(options.trace(), config, new JsonReport().configJson(config));
        } catch (TraceFormatException e) {
            throw new UserError("--trace: " + e.getMessage());
        }
    }

    /**
     * The result as the report shows it: the log running out is how a replay completes (not a
     * request limit); the config shows the windows there were and, for one window, the replay's
     * length rather than the placeholder.
     */
    private static RunResult shown(RunResult r, RunConfig config, Throwable failure) {
        String reason = r.stopReason();
        if (failure instanceof UserError) {
            reason = "a bad line under --strict (below)";
        } else if ("requests".equals(reason)) {
            reason = "completed";
        }
        Duration window = config.windows() == 1 ? Duration.ofNanos(r.total().endNanos() - r.total().startNanos())
                : config.duration();
        RunConfig c = config.toBuilder().duration(window.isZero() ? Duration.ofNanos(1) : window)
                .windows(Math.max(1, r.windows().size())).build();
        return new RunResult(c, r.target(), r.windows(), r.total(), reason, r.preloadedKeys(), r.intervals(),
                r.threadSeconds());
    }

    private ReplayResult result(ReplayPlan plan, RunResult r, VerbTable verbs, LogStats stats, BadLines bad,
                                Throwable failure) {
        long[] lag = null;
        if (r.total().sendLag().getTotalCount() > 0) {
            LatencySummary l = LatencySummary.of(r.total().sendLag());
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
        int connections = options.threads() * options.connections();
        if (!options.anyConnection() && stats.clients > connections) {
            notes.add(stats.clients + " original clients shared " + connections + " connections: each kept its order,"
                    + " but clients on one connection share its state (SELECT, MULTI) and wait for each other;"
                    + " --connections " + (stats.clients + options.threads() - 1) / options.threads()
                    + " gives each its own");
        }
        return new ReplayResult(r, plan.name, plan.format, plan.protocol.name(), options.speedText(), options.loops(),
                lag, original, r.total().seconds(), expected, stats.replayedByVerb(verbs), stats.commands, stats.lines,
                bad.count(), bad.first(), stats.skipped(), stats.filtered, stats.late, stats.adjusted(), notes,
                failure == null ? null : failure.getMessage(), options.warmup() != null);
    }
}
