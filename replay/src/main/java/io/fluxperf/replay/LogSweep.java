package io.fluxperf.replay;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.host.HostTuning;
import io.fluxperf.engine.log.BadLines;
import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.log.LogReader;
import io.fluxperf.engine.log.LogStats;
import io.fluxperf.engine.log.ReaderContext;
import io.fluxperf.engine.log.VerbTable;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.sweep.OrchestratedSteps;
import io.fluxperf.engine.sweep.Rates;
import io.fluxperf.engine.sweep.StepRunner;
import io.fluxperf.engine.sweep.SweepPlan;
import io.fluxperf.engine.sweep.SweepResult;
import io.fluxperf.engine.sweep.SweepStep;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleFunction;

/**
 * A capacity sweep in multiples of a command log's own rate ({@code sweep --log}): each step is one
 * pass of the log (or of its {@code --loop}s) replayed at a speed factor, judged by the sweep's
 * objectives as a rate step is, so the knee comes out as "how many times today's traffic the server
 * takes". The sweep's rates are the factors times the log's rate, measured once before the first
 * step by reading the log through (its commands over the span of their times, times {@code --scale}).
 *
 * <p>Each step is a replay of its own (fresh connections, the same reader and pacing as
 * {@code replay}), writing its run directory into the sweep's as {@code replay --out} does; the
 * server's state carries on from step to step unless each step flushes it first ({@code --flush}).
 */
public final class LogSweep implements StepRunner {
    /** The rate of a log: its commands (one pass, every copy of --scale) over the span of their times. */
    public record LogRate(long commands, double seconds) {
        public double perSecond() {
            return commands / seconds;
        }
    }

    private final LogRate rate;
    private final DoubleFunction<ReplayOptions> atSpeed;
    private final Path sweepDir;
    private final boolean overwrite;
    private final List<String> commandLine;
    private final HostTuning tuning;
    private boolean warm;
    private volatile Replay current;
    private volatile boolean stopRequested;

    /**
     * @param atSpeed     the replay's options at a speed factor
     * @param sweepDir    the sweep's directory, each step's run directory in it; null for none
     * @param commandLine the sweep's command line, for each run directory
     */
    public LogSweep(LogRate rate, DoubleFunction<ReplayOptions> atSpeed, Path sweepDir, boolean overwrite,
                    List<String> commandLine, HostTuning tuning) {
        this.rate = rate;
        this.atSpeed = atSpeed;
        this.sweepDir = sweepDir;
        this.overwrite = overwrite;
        this.commandLine = List.copyOf(commandLine);
        this.tuning = tuning;
    }

    /**
     * Reads the log through once, as the replay reads it ({@code --only}, the format's own rules), and
     * measures its rate.
     *
     * @throws UserError when the log has no times, or all its commands share one instant
     */
    public static LogRate measure(ReplayOptions options) {
        ReplayPlan plan = ReplayPlan.make(options);
        LogStats stats = new LogStats();
        ReaderContext ctx = plan.context(new BadLines(false), new VerbTable(plan.verbs), stats);
        long commands = 0;
        long first = LogEntry.NO_TIME;
        long last = LogEntry.NO_TIME;
        LogEntry e = new LogEntry();
        try (LogReader reader = plan.open(ctx)) {
            while (true) {
                e.reset();
                if (!reader.next(e)) {
                    break;
                }
                if (plan.only != null && !plan.only.accepts(ctx.verbs.name(e.verb))) {
                    continue;
                }
                commands++;
                if (e.timeNanos != LogEntry.NO_TIME) {
                    first = first == LogEntry.NO_TIME ? e.timeNanos : Math.min(first, e.timeNanos);
                    last = last == LogEntry.NO_TIME ? e.timeNanos : Math.max(last, e.timeNanos);
                }
            }
        } catch (IOException ex) {
            throw new UserError("--log: " + options.log() + ": cannot read: " + ex.getMessage(), ex);
        }
        if (first == LogEntry.NO_TIME || last <= first || commands < 2) {
            throw new UserError("--log: " + options.log() + " has no span of times to take a rate from (" + commands
                    + " commands); a sweep in multiples of the log's rate needs a log with times");
        }
        return new LogRate(commands * options.scale(), (last - first) / 1e9);
    }

    /**
     * The sweep's plan in commands per second from speed factors: {@code from} to {@code to} times
     * the log's rate, by {@code factor} (or {@code step} factors) per step.
     */
    public static SweepPlan plan(LogRate rate, double from, double to, double step, double factor, int refine) {
        if (!(from > 0) || Double.isInfinite(from)) {
            throw new UserError("--from: the first speed must be a positive multiple of the log's rate, e.g. 1");
        }
        if (!(to >= from) || Double.isInfinite(to)) {
            throw new UserError("--to: the last speed must be a multiple of the log's rate at least --from, e.g. 16");
        }
        double r = rate.perSecond();
        return new SweepPlan(from * r, to * r, step * r, factor, refine, Duration.ofSeconds(1));
    }

    /** The speed factor of a sweep step's rate. */
    public double factor(double commandsPerSecond) {
        return commandsPerSecond / rate.perSecond();
    }

    @Override
    public RunResult run(int number, double stepRate, RunConfig config) {
        double speed = factor(stepRate);
        Replay replay = new Replay(atSpeed.apply(speed)).tuning(warm ? HostTuning.standard() : tuning);
        warm = true; // the JVM stays warm from step to step
        if (sweepDir != null) {
            replay.runDirectory(OrchestratedSteps.stepDirectory(sweepDir, number, stepRate), overwrite, false, commandLine);
        }
        current = replay;
        if (stopRequested) {
            replay.requestStop();
        }
        PrintStream nowhere = new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8);
        try {
            return replay.run(nowhere, nowhere).run();
        } finally {
            current = null;
        }
    }

    /**
     * What the pass achieved: its commands over the schedule's span plus the median send's lag
     * behind it. A pass that kept its schedule achieved its speed, however long the connecting and
     * its last replies took; one that could not keep up falls further behind as it goes, its median
     * command about half its final lag, while one stall of a shared machine delays few commands and
     * leaves the median alone (the objectives judge the stall: latency counts from the schedule).
     */
    @Override
    public double achieved(RunResult result, double stepRate) {
        io.fluxperf.engine.metrics.WindowResult w = result.total();
        long commands = w.total().outcomes().requests();
        double span = commands / stepRate;
        double lag = w.sendLag().getTotalCount() > 0 ? w.summaries().sendLag().p50() / 1e9 : 0;
        return commands / (span + lag);
    }

    /** Stops the step that runs (Ctrl-C); its result covers what ran. */
    public void requestStop() {
        stopRequested = true;
        Replay r = current;
        if (r != null) {
            r.requestStop();
        }
    }

    /** The knee as a speed factor: {@code Knee: p99<1ms holds to 5.6x the log's rate (280,000 commands/s)}. */
    public String kneeLine(SweepResult r) {
        SweepStep k = r.knee();
        String objectives = String.join(", ", r.objectives());
        if (k == null) {
            return "Knee: none: no speed tried met " + objectives + ", not even " + speed(r.byRate().get(0).target())
                    + " the log's rate";
        }
        String at = speed(k.target()) + " the log's rate (" + Rates.format(Math.round(k.target())) + " commands/s)";
        if (r.kneeAboveTo()) {
            return "Knee: " + objectives + " holds to at least " + at + ", the --to bound; raise --to to find the knee";
        }
        return "Knee: " + objectives + " holds to " + at;
    }

    /** The log's own rate, for the sweep's header. */
    public String rateLine() {
        return String.format(Locale.ROOT, "Log rate: %s commands/s (%,d commands over %.3f s)",
                Rates.format(Math.round(rate.perSecond())), rate.commands(), rate.seconds());
    }

    private String speed(double commandsPerSecond) {
        double f = factor(commandsPerSecond);
        return (f >= 10 ? String.format(Locale.ROOT, "%.0f", f) : String.format(Locale.ROOT, "%.1f", f)) + "x";
    }
}
