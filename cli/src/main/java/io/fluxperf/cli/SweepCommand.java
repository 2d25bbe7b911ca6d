package io.fluxperf.cli;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.config.ConfigResolver;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.host.HostTuning;
import io.fluxperf.engine.report.HumanUnits;
import io.fluxperf.engine.sweep.OrchestratedSteps;
import io.fluxperf.engine.sweep.Rates;
import io.fluxperf.engine.sweep.SloStepObjective;
import io.fluxperf.engine.sweep.StepObjective;
import io.fluxperf.engine.sweep.Sweep;
import io.fluxperf.engine.sweep.SweepFiles;
import io.fluxperf.engine.sweep.SweepPlan;
import io.fluxperf.engine.sweep.SweepResult;
import io.fluxperf.engine.sweep.SweepTable;
import io.fluxperf.replay.LogSweep;
import io.fluxperf.replay.ReplayOptions;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code fluxperf sweep}: the run's load at rising rates, one window each, until a rate breaks an
 * objective or cannot be reached; reports the knee (mutilate's {@code --search}). Takes every
 * option of {@code run} (the same class, as a mixin), less the ones the sweep sets itself.
 */
@Command(name = "sweep",
        header = "Finds the highest rate a server holds within its objectives.",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        modelTransformer = SettingOptions.Sweep.class,
        description = {"Finds the highest rate that meets the objectives: one window per rate, from",
                "--from up by --step or --factor to --to; stops at the first rate that breaks",
                "an --slo or cannot be reached, then bisects between the last good and the",
                "first bad rate (--refine). With --log FILE each step replays the command log",
                "once at a speed: --from, --to and --step are then multiples of the log's",
                "rate, and the knee is a speed factor. Prints a table and the knee; with --out DIR also",
                "a run directory per step, sweep.txt, sweep.json, and the latency-vs-",
                "throughput plot as sweep.png and sweep.html. Takes the options of run",
                "except --rate, --ramp, --duration, --windows, --requests, run's files",
                "(--json, --hdr-log, --trace, --waterfall, --junit) and a shard's (--shard,",
                "--shards, --start-at, --run-id)."},
        footer = {"",
                "Examples:",
                "  fluxperf sweep -s 127.0.0.1:11211 --hit --from 10000 --factor 1.5 \\",
                "      --to 400000 --window 2s --slo 'p99<1ms'",
                "  fluxperf sweep -s 127.0.0.1:11211 --from 20000 --step 20000 --to 200000 \\",
                "      --slo 'p99<1ms' --slo 'p999<5ms' --refine 3 --out sweeps/mc-get",
                "  fluxperf sweep --config samples/default.toml -s 127.0.0.1:11211 \\",
                "      --from 5000 --factor 2 --to 80000 --slo 'p99<2ms'",
                "  fluxperf sweep --protocol redis -s 127.0.0.1:6379 --method set \\",
                "      --from 10000 --factor 1.25 --to 300000 --slo 'p99<500us' \\",
                "      --slo 'errors<=0.1%%'",
                "  fluxperf sweep --log monitor.log -s 127.0.0.1:6379 -c 50 \\",
                "      --from 1 --to 16 --factor 2 --refine 3 --slo 'p99<1ms' --out sweeps/x",
                "  fluxperf sweep --log watch.log -s 127.0.0.1:11211 --loop 3 --flush \\",
                "      --from 0.5 --to 8 --factor 2 --slo 'p999<5ms'",
                "",
                "With --log, each step is one pass of the log (--loop N passes); the",
                "server's state carries on from step to step unless --flush flushes it",
                "before each. --scale N replays N copies of every client, each in its own",
                "key namespace.",
                "",
                "A step is good when it met every objective and was reached: the window",
                "ended at least 99 %% of the target's requests and no load thread was",
                "saturated. A first step that is not good is tried once more (row 2a), since",
                "a cold server or one stall of the machine would leave no knee. With no",
                "step failing up to --to, the knee lies above --to. Workloads with rates",
                "keep their shares of each step's rate; workloads without share it by",
                "weight. Each step prints a live line on stderr (not with --no-live).",
                "Ctrl-C ends the sweep after what ran (exit 130)."})
public final class SweepCommand implements Callable<Integer>, Streams.Aware {
    /** Each step's window when --window is not given. */
    static final Duration DEFAULT_WINDOW = Duration.ofSeconds(5);
    /**
     * Without --warmup, the first step warms the server and its fresh connections up this long at
     * its own rate: a cold first step that breaks an objective would leave the sweep without a knee.
     */
    static final Duration DEFAULT_FIRST_WARMUP = Duration.ofSeconds(2);

    /** run's flags that a sweep sets itself, or whose files a sweep writes per step in its own way. */
    private static final List<String> NOT_IN_SWEEP = List.of("--rate", "--ramp", "--duration", "--windows", "--requests",
            "--json", "--hdr-log", "--trace", "--waterfall", "--trace-required", "--junit");
    /** run's flags for an agent of a sharded run: a sweep's steps run here, one after another. */
    private static final List<String> NOT_SHARDED = List.of("--shard", "--shards", "--start-at", "--run-id");

    private Streams streams = Streams.system();

    @Mixin
    private RunCommand run = new RunCommand();

    @Option(names = "--from", paramLabel = "RATE", required = true, description = "The first rate, requests/s in total.")
    private double from;

    @Option(names = "--to", paramLabel = "RATE", required = true,
            description = "The highest rate tried, requests/s in total (tried itself when the steps do not land on it).")
    private double to;

    @Option(names = "--step", paramLabel = "N", description = "Add N requests/s from step to step (or --factor).")
    private double step;

    @Option(names = "--factor", paramLabel = "F", description = "Multiply the rate by F from step to step, e.g. 1.5 (or --step).")
    private double factor;

    @Option(names = "--window", paramLabel = "TIME", converter = DurationConverter.class,
            description = "Length of each step's measured window (default 5s); --warmup runs before each (without it, 2 s at the"
                    + " first rate before the first step only).")
    private Duration window;

    @Option(names = "--log", paramLabel = "FILE",
            description = "Sweep by replaying this command log at rising speeds; --from, --to and --step are multiples of"
                    + " its rate.")
    private Path log;

    @Option(names = "--loop", paramLabel = "N", description = "With --log: passes over the log per step (default 1).")
    private int loops = 1;

    @Option(names = "--scale", paramLabel = "N",
            description = "With --log: N copies of every original client per pass, each in its own key namespace (default 1).")
    private int scale = 1;

    @Option(names = "--refine", paramLabel = "N",
            description = "After the first bad rate, N bisection steps between it and the last good one (default 0).")
    private int refine;

    @Spec
    private CommandSpec spec;

    @Override
    public void streams(Streams streams) {
        this.streams = streams;
        run.streams(streams);
    }

    @Override
    public Integer call() {
        for (String flag : NOT_IN_SWEEP) {
            if (spec.commandLine().getParseResult().hasMatchedOption(flag)) {
                throw new UserError(flag + ": a sweep sets each step's rate and length and writes its files with --out;"
                        + " leave " + flag + " out");
            }
        }
        for (String flag : NOT_SHARDED) {
            if (spec.commandLine().getParseResult().hasMatchedOption(flag)) {
                throw new UserError(flag + ": a sweep runs its steps on this machine, one after another, not as a shard of"
                        + " a run; leave " + flag + " out");
            }
        }
        RunConfig base = ConfigResolver.resolve(run.flags(), note -> streams.err().println("fluxperf: note: " + note));
        if (log != null) {
            return logSweep(base);
        }
        for (String flag : List.of("--loop", "--scale")) {
            if (spec.commandLine().getParseResult().hasMatchedOption(flag)) {
                throw new UserError(flag + ": goes with --log (a sweep that replays a command log)");
            }
        }
        SweepPlan plan = new SweepPlan(from, to, step, factor, refine, window != null ? window : DEFAULT_WINDOW);
        if (base.ramps().stream().anyMatch(java.util.Objects::nonNull)) {
            throw new UserError("--config: a workload's [workload.ratelimit] ramps its rate, and a sweep sets each step's"
                    + " rate; give the ramp's start as the workload's rate, or sweep without the config's ramp");
        }
        List<StepObjective> objectives = SloStepObjective.of(base.objectives());
        if (objectives.isEmpty()) {
            throw new UserError("--slo: a sweep needs at least one objective to find the knee by, e.g. --slo 'p99<1ms'");
        }
        Path dir = base.out();
        boolean overwrite = spec.commandLine().getParseResult().hasMatchedOption("--overwrite");
        if (dir != null) {
            checkDirectory(dir, overwrite);
        }
        boolean tune = !spec.commandLine().getParseResult().hasMatchedOption("--no-host-tuning");
        HostTuning tuning = Main.ownsProcess() ? HostTuning.ownProcess(true, tune) : HostTuning.standard();
        // the steps' run directories hold the sweep's own settings, so each stands alone
        RunConfig stepsBase = base.toBuilder().out(null).build();
        OrchestratedSteps steps = new OrchestratedSteps(tuning, dir, overwrite, RunDirectories.commandLine(spec),
                tuning.warmsUp());
        if (!spec.commandLine().getParseResult().hasMatchedOption("--no-live")) {
            steps.progress(streams.err());
        }
        Sweep sweep = new Sweep(stepsBase, plan, objectives, steps);
        boolean warmupGiven = spec.commandLine().getParseResult().hasMatchedOption("--warmup") || !base.warmup().isZero();
        if (!warmupGiven) {
            sweep.warmUpFirstStep(DEFAULT_FIRST_WARMUP);
        }
        streams.out().println("Sweep: " + title(base) + ", objectives " + String.join(", ",
                objectives.stream().map(StepObjective::text).toList()));
        streams.out().println(warmupLine(base, warmupGiven, plan));
        streams.out().println(SweepTable.header());
        sweep.onStep(s -> streams.out().println(SweepTable.row(s)));
        sweep.onRetry(s -> streams.out().println("Step " + s.label() + " was not good, and a first step may meet a cold"
                + " server or a stall of this machine: " + Rates.format(s.target()) + "/s once more"));
        SweepResult result;
        int interruptExit;
        try (Interrupts interrupts = Interrupts.install(() -> {
            sweep.requestStop();
            steps.requestStop();
        })) {
            result = sweep.execute();
            interruptExit = interrupts.exitCode();
        }
        streams.out().println();
        SweepTable.printAfterRows(result, streams.out());
        if (dir != null) {
            SweepFiles.write(dir, result, objectives, "fluxperf sweep: " + title(base));
            streams.out().println("Plot: " + dir.resolve(SweepFiles.PNG) + ", " + dir.resolve(SweepFiles.HTML)
                    + "; steps' run directories in " + dir);
        }
        if (result.interrupted()) {
            return interruptExit != 0 ? interruptExit : RunCommand.EXIT_INTERRUPTED;
        }
        return 0;
    }

    /**
     * {@code sweep --log}: each step one replay of the log at a speed factor ({@link LogSweep}); the
     * table, plot and directory as a rate sweep writes them, the knee as a factor of the log's rate.
     */
    private int logSweep(RunConfig base) {
        for (String flag : List.of("--window", "--warmup", "--config", "--method", "--command")) {
            if (spec.commandLine().getParseResult().hasMatchedOption(flag)) {
                throw new UserError(flag + ": a sweep with --log replays the log once per step; leave " + flag + " out");
            }
        }
        List<StepObjective> objectives = SloStepObjective.of(base.objectives());
        if (objectives.isEmpty()) {
            throw new UserError("--slo: a sweep needs at least one objective to find the knee by, e.g. --slo 'p99<1ms'");
        }
        Path dir = base.out();
        boolean overwrite = spec.commandLine().getParseResult().hasMatchedOption("--overwrite");
        if (dir != null) {
            checkDirectory(dir, overwrite);
        }
        String protocol = spec.commandLine().getParseResult().hasMatchedOption("--protocol") ? base.protocol() : null;
        java.util.function.DoubleFunction<ReplayOptions> atSpeed = speed -> ReplayOptions.builder(log)
                .server(base.server()).pool(base.pool()).protocol(protocol).speed(speed).loops(loops).scale(scale)
                .threads(base.threads()).connections(base.connections()).pipeline(base.pipeline())
                .timeout(base.timeout()).tcpNoDelay(base.tcpNoDelay()).connection(base.connection())
                .protocolOptions(base.protocolOptions()).earlySend(base.earlySend()).flush(base.needsFlush())
                .live(false).build();
        LogSweep.LogRate rate = LogSweep.measure(atSpeed.apply(1));
        SweepPlan plan = LogSweep.plan(rate, from, to, step, factor, refine);
        boolean tune = !spec.commandLine().getParseResult().hasMatchedOption("--no-host-tuning");
        HostTuning tuning = Main.ownsProcess() ? HostTuning.ownProcess(true, tune) : HostTuning.standard();
        LogSweep steps = new LogSweep(rate, atSpeed, dir, overwrite, RunDirectories.commandLine(spec), tuning);
        RunConfig stepsBase = base.toBuilder().out(null).build();
        Sweep sweep = new Sweep(stepsBase, plan, objectives, steps);
        String title = log + " replayed against " + (base.server() != null ? base.server() : "the embedded server");
        streams.out().println("Sweep: " + title + ", objectives " + String.join(", ",
                objectives.stream().map(StepObjective::text).toList()));
        streams.out().println(steps.rateLine() + "; each step one pass" + (loops > 1 ? " of " + loops + " loops" : "")
                + (base.needsFlush() ? ", the server flushed before each" : ", the server's state carried on"));
        streams.out().println(SweepTable.header());
        sweep.onStep(s -> streams.out().println(SweepTable.row(s) + "  (" + String.format(java.util.Locale.ROOT, "%.2fx",
                steps.factor(s.target())) + ")"));
        sweep.onRetry(s -> streams.out().println("Step " + s.label() + " was not good, and a first step may meet a cold"
                + " server or a stall of this machine: once more"));
        SweepResult result;
        int interruptExit;
        try (Interrupts interrupts = Interrupts.install(() -> {
            sweep.requestStop();
            steps.requestStop();
        })) {
            result = sweep.execute();
            interruptExit = interrupts.exitCode();
        }
        streams.out().println();
        SweepTable.printAfterRows(result, streams.out());
        streams.out().println(steps.kneeLine(result));
        if (dir != null) {
            SweepFiles.write(dir, result, objectives, "fluxperf sweep: " + title);
            streams.out().println("Plot: " + dir.resolve(SweepFiles.PNG) + ", " + dir.resolve(SweepFiles.HTML)
                    + "; steps' run directories in " + dir);
        }
        if (result.interrupted()) {
            return interruptExit != 0 ? interruptExit : RunCommand.EXIT_INTERRUPTED;
        }
        return 0;
    }

    /** What warms up before the steps, unreported: --warmup before each, or by default the first step's own. */
    static String warmupLine(RunConfig base, boolean given, SweepPlan plan) {
        if (!given) {
            return "Warm-up: " + HumanUnits.seconds(DEFAULT_FIRST_WARMUP.toNanos() / 1e9) + " at " + Rates.format(plan.rates().get(0))
                    + "/s before step 1, unreported (without --warmup; --warmup TIME warms up before every step)";
        }
        if (base.warmup().isZero()) {
            return "Warm-up: none (--warmup 0)";
        }
        return "Warm-up: " + HumanUnits.seconds(base.warmup().toNanos() / 1e9) + " before every step, unreported (--warmup)";
    }

    /** What was swept: the server (or the embedded one) and the workloads. */
    private static String title(RunConfig c) {
        String workloads = c.workloads().stream().map(WorkloadConfig::name).collect(Collectors.joining(", "));
        return (c.server() != null ? c.server() : "the embedded " + c.protocol() + " server") + " (" + workloads + ")";
    }

    /** The sweep's directory: new, empty, or (with --overwrite) one to write over. */
    private static void checkDirectory(Path dir, boolean overwrite) {
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new UserError("--out: " + dir + " is a file, not a directory");
        }
        if (Files.isDirectory(dir) && !overwrite) {
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
                if (entries.iterator().hasNext()) {
                    throw new UserError("--out: " + dir + " exists and is not empty; name a new directory, or add --overwrite");
                }
            } catch (IOException e) {
                throw new UserError("--out: cannot read " + dir + ": " + e.getMessage(), e);
            }
        }
    }
}
