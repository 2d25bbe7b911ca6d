package io.fluxperf.cli;

import io.fluxperf.engine.config.ConfigResolver;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.Flags;
import io.fluxperf.engine.config.Settings;
import io.fluxperf.engine.host.HostTuning;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.StopReason;
import io.fluxperf.engine.run.RunOrchestrator;
import io.fluxperf.engine.run.RunOutputs;
import io.fluxperf.engine.run.TextRunReport;
import io.fluxperf.engine.rundir.RunDirectoryWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code fluxperf run}: rpc-perf's load test, against a server or the embedded target. */
@Command(name = "run",
        header = "Loads a memcache, redis or HTTP server and reports its latency.",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        modelTransformer = SettingOptions.Run.class,
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
                "  fluxperf run --config samples/rpc-perf-5-redis.toml -s 127.0.0.1:6379   # an rpc-perf config as it is",
                "  fluxperf run -s 127.0.0.1:11211 --rate 20000 --arrivals exponential --warmup-hitrate 90 --hit",
                "  fluxperf run -s 127.0.0.1:11211 --rate 20000 -d 30 --waterfall latency.png",
                "  fluxperf run -s 127.0.0.1:11211 --rate 20000 -d 10 -w 6 --out runs/a --trace && fluxperf report runs/a",
                "  fluxperf run -s 10.0.0.1:11211 -s 10.0.0.2:11211 -s 10.0.0.3:11211:2 --hit   # a ketama pool",
                "  fluxperf run --protocol redis --cluster -s 127.0.0.1:7000 --method set --rate 20000",
                "  fluxperf run --protocol redis -s 127.0.0.1:6379 --method publish --subscribers 4 --rate 10000 --keyspace 100",
                "  fluxperf run --protocol memcache-meta -s 127.0.0.1:11211 --method get --hit --meta-flags qO --pipeline 16",
                "  fluxperf run --config samples/default.toml -s 10.0.0.5:11211 --shard 2/4 --start-at 2026-12-06T03:00:00Z",
                "  fluxperf run -s 127.0.0.1:11211 --rate 50000 -d 10 -w 6 --slo 'p99<2ms' --slo 'success>=99.9%%' --junit slo.xml",
                "  fluxperf run --config samples/ci-slo.toml --slo-abort     # [[slo]] tables; exit code 3 when one fails",
                "  fluxperf run -s 127.0.0.1:11211 --rate 5000 -d 600 --admin 9090 --stats-interval 1   # then: curl -X PUT localhost:9090/ratelimit/20000",
                "  fluxperf run -s 127.0.0.1:11211 --ramp 10000:40000:10000:30s --admin 0.0.0.0:9090  # steps; open http://HOST:9090/",
                "",
                "Flags override the config file; --method, --rate and --bytes cannot be combined with",
                "[[workload]] tables in the file. Ctrl-C stops sending, waits for replies in flight and",
                "prints the report of what ran (exit code 130). Exit code 3: an objective (--slo, [[slo]])",
                "failed; 2: a mistake in the flags or the config."})
public final class RunCommand implements Callable<Integer>, Streams.Aware, SettingOptions.Owner {
    static final int EXIT_INTERRUPTED = 130;


    private Streams streams = Streams.system();
    /** The flags of the settings whose options are made from {@code Settings}. */
    private final SettingOptions settingOptions = new SettingOptions();

    @Override
    public SettingOptions settingOptions() {
        return settingOptions;
    }

    @Override
    public void streams(Streams streams) {
        this.streams = streams;
    }

    @Mixin
    private ConnectionFlags connection = new ConnectionFlags();

    @Option(names = "--json", paramLabel = "FILE", description = "Write every window, workload and the effective config as JSON.")
    private Path json;

    @Option(names = "--hdr-log", paramLabel = "FILE", description = "Write an HdrHistogram interval log (one interval per window).")
    private Path hdrLog;

    @Option(names = "--trace", paramLabel = "DIR", arity = "0..1", fallbackValue = "",
            description = "Write one record per request to a new trace directory (for trace stats, dump, heatmap, replay);"
                    + " without DIR, to the run directory's trace/ (needs --out).")
    private Path trace;

    @Option(names = "--trace-required",
            description = "Stop the run when the trace cannot be written (a full disk); without it the run goes on and reports the records lost.")
    private boolean traceRequired;

    @Option(names = "--no-live", description = "Do not print the live line every second (on stderr).")
    private boolean noLive;

    @Mixin
    private RunDirectoryFlags runDirectory = new RunDirectoryFlags();

    @picocli.CommandLine.Spec
    private picocli.CommandLine.Model.CommandSpec spec;

    @Mixin
    private ShardFlags sharding = new ShardFlags();

    @Option(names = "--junit", paramLabel = "FILE",
            description = "Write the objectives' verdicts as JUnit XML for CI: a testcase per objective and window, and one for the run.")
    private Path junit;

    @Override
    public Integer call() {
        RunConfig runConfig = config(note -> streams.err().println("fluxperf: note: " + io.fluxperf.engine.Printable.message(note)));
        checkOutputFiles();
        HostTuning tuning = Main.ownsProcess() ? HostTuning.ownProcess(runConfig.isOpenLoop(), !connection.noHostTuning)
                : HostTuning.standard();
        Path traceDir = RunDirectories.trace(trace, runConfig.out());
        RunOutputs outputs = new RunOutputs(json, hdrLog, traceDir, traceRequired);
        RunDirectoryWriter directory = RunDirectories.open(runConfig, settingOptions.has(Settings.OUT), runDirectory.overwrite, "run", spec);
        RunOrchestrator run = new RunOrchestrator(runConfig, new TextRunReport(
                directory != null ? directory.tee(streams.out()) : streams.out(), streams.err(), !noLive))
                .outputs(outputs)
                .junit(junit)
                .tuning(tuning)
                .liveSamples(!noLive);
        if (directory != null) {
            run.runDirectory(directory);
            sharding.record(directory, runConfig);
        }
        if (tuning.warmsUp()) {
            // a cold JVM's first seconds would be reported as the server's latency
            run.warmUp(new RunOrchestrator.Warmup(RunOrchestrator.Warmup.RUN_REQUESTS, null));
        }
        sharding.announceStart(streams.err());
        RunResult result;
        int interruptExit;
        try (Interrupts interrupts = Interrupts.install((StopReason why) -> run.requestStop(why))) {
            result = run.execute();
            interruptExit = interrupts.exitCode();
        }
        if (directory != null) {
            // complete by now; on stderr, so that what was printed stays report.txt (a failed run's
            // error is its one sentence there instead)
            streams.err().println(directoryLine(directory.directory()));
        }
        if (result.stopReason() == StopReason.TRACE_FAILED) {
            return 1; // the report says what was lost; the run did not do what was asked
        }
        return result.interrupted() ? (interruptExit != 0 ? interruptExit : EXIT_INTERRUPTED) : objectivesExit(run.verdicts());
    }

    /**
     * Refuses an output file in a directory that does not exist, before the run directory is made
     * and any request sent: a mistyped path is told at once rather than made, wherever it points.
     * --json alone makes its missing directories, as docs/run.md promises.
     */
    private void checkOutputFiles() {
        if (hdrLog != null) {
            OutputFiles.check("--hdr-log", hdrLog);
        }
        if (junit != null) {
            OutputFiles.check("--junit", junit);
        }
    }

    /** Where a run directory is, once written: {@code fluxperf: run directory /abs/runs/a ('fluxperf report runs/a' …)}. */
    static String directoryLine(Path dir) {
        return "fluxperf: run directory " + dir.toAbsolutePath().normalize() + " ('fluxperf report " + dir
                + "' prints this report again)";
    }

    /** The config from the flags and the file, checked, as this agent runs it; k8s checks its pods' config through it. */
    RunConfig config(java.util.function.Consumer<String> notes) {
        return sharding.placeOut(sharding.apply(ConfigResolver.resolve(flags(), notes)));
    }

    /** 3 when an objective failed (--slo, [[slo]]), else 0. */
    static int objectivesExit(io.fluxperf.engine.slo.SloVerdicts verdicts) {
        return verdicts != null && verdicts.failed() ? io.fluxperf.engine.slo.SloVerdicts.EXIT_CODE : 0;
    }

    /** The flags given, under their settings, for {@code ConfigResolver}; sweep reads run's flags through it too. */
    Flags flags() {
        return settingOptions.addTo(connection.applyTo(Flags.builder())).build();
    }
}
