package io.fluxperf.cli;

import io.fluxperf.cli.mcb.McbReport;
import io.fluxperf.cli.mcb.McbSettings;
import io.fluxperf.cli.mcb.McbTransport;
import io.fluxperf.cli.mcb.ThreadTimes;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.connection.ServerAddress;
import io.fluxperf.engine.load.RunErrors;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.StopReason;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.report.TextReport;
import io.fluxperf.engine.run.RunOrchestrator;
import io.fluxperf.engine.run.RunReport;
import io.fluxperf.engine.trace.RunTrace;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fluxperf mcb}: mcb's memcached benchmark (seeds/mcb.txt) with its options and its result
 * block. Each thread has its own connection and sends exactly {@code -n} commands, one at a time;
 * {@code -s} makes a new connection for every command.
 */
@Command(name = "mcb",
        header = "mcb's memcached benchmark, with mcb's options and result block.",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {"mcb's memcached benchmark: THREADS threads, each with its own connection, each sending",
                "PER_THREAD commands one after the other; prints mcb's condition and result blocks",
                "(interval, commands per second, and how long the threads took: ave., min, max)."},
        footer = {"",
                "Examples:",
                "  fluxperf mcb -c set -a 192.168.1.100 -p 11211 -t 10 -n 1000 -l 100",
                "  fluxperf mcb -c get -t 10 -n 1000                  # against 127.0.0.1:11211",
                "  fluxperf mcb -c set -t 10 -n 1000 -l 100 -T UDP    # memcached -U 11211",
                "  fluxperf mcb -c set -t 10 -n 1000 -l 100 -T UNIX_SOCKET -f /tmp/memcached",
                "  fluxperf mcb -c set -t 4 -n 500 -s                 # a new connection per command",
                "",
                "-s opens and closes a connection for every command: many sockets end in TIME_WAIT, so",
                "run it against test servers only. -v adds fluxperf's full report (latency percentiles)."})
public final class McbCommand implements Callable<Integer>, Streams.Aware {
    /** Requests of the warm-up against the embedded target; enough for the JIT's first tier. */
    static final long WARMUP_REQUESTS = 2_000;
    /** With -s, each warm-up request costs a connection (about 1.5 ms cold): fewer. */
    static final long WARMUP_REQUESTS_SINGLE = 300;

    private Streams streams = Streams.system();
    /** Per-thread times for {@code thread info}; replaceable so the report can be tested without the engine's record. */
    private final ThreadTimes threadTimes;

    public McbCommand() {
        this(ThreadTimes.recorded());
    }

    McbCommand(ThreadTimes threadTimes) {
        this.threadTimes = threadTimes;
    }

    @Override
    public void streams(Streams streams) {
        this.streams = streams;
    }

    @Option(names = "-c", required = true, paramLabel = "set|add|get", description = "Command to send: set, add or get.")
    private String command;

    @Option(names = "-a", paramLabel = "ADDRESS", defaultValue = McbSettings.DEFAULT_ADDRESS,
            description = "memcached's address (default ${DEFAULT-VALUE}).")
    private String address;

    @Option(names = "-p", paramLabel = "PORT", defaultValue = "" + McbSettings.DEFAULT_PORT,
            description = "memcached's TCP or UDP port (default ${DEFAULT-VALUE}).")
    private int port;

    @Option(names = "-T", paramLabel = "TCP|UDP|UNIX_SOCKET", defaultValue = "TCP",
            description = "Connection type (default ${DEFAULT-VALUE}).")
    private String transport;

    @Option(names = "-f", paramLabel = "PATH", description = "Unix socket path, with -T UNIX_SOCKET.")
    private String socketPath;

    @Option(names = "-t", paramLabel = "THREADS", defaultValue = "1", description = "Threads, each with its own connection (default ${DEFAULT-VALUE}).")
    private int threads;

    @Option(names = "-n", paramLabel = "PER_THREAD", defaultValue = "1", description = "Commands each thread sends (default ${DEFAULT-VALUE}).")
    private long perThread;

    @Option(names = "-m", paramLabel = "MAX_KEY", defaultValue = "1000", description = "Keys are 0 to MAX_KEY-1, at random (default ${DEFAULT-VALUE}).")
    private long maxKey;

    @Option(names = "-l", paramLabel = "LENGTH", defaultValue = "10", description = "Data length of set and add, bytes (default ${DEFAULT-VALUE}).")
    private int length;

    @Option(names = "-s", description = "Single command: a new connection for every command (default: one per thread).")
    private boolean single;

    @Option(names = "-v", description = "Verbose: fluxperf's full report after mcb's.")
    private boolean verbose;

    @Option(names = "--no-warmup", description = "Skip the JVM warm-up against an embedded server (about 0.3 s) before the run.")
    private boolean noWarmup;

    @Override
    public Integer call() {
        McbSettings settings = McbSettings.of(command, address, port, transport, socketPath, threads, perThread,
                maxKey, length, single);
        RunConfig config = settings.runConfig();
        PrintStream out = streams.out();
        String flag = settings.transport() == McbTransport.UNIX_SOCKET ? "-f" : "-a";
        ServerAddress.parse(config.server(), flag); // an unknown host is a mistake before the warm-up, named by its flag

        McbReport report = new McbReport(out);
        report.condition(settings);
        out.flush();
        McbRunReport runReport = new McbRunReport(report, settings, out, streams.err(), threadTimes, verbose);
        // mcb's users count the server's connections and commands: no floor probe beside them
        RunOrchestrator run = new RunOrchestrator(config, runReport).floorProbe(false);
        if (!noWarmup) {
            // mcb is a C program: its figures carry no warm-up, and fluxperf's should not carry a cold JVM
            run.warmUp(new RunOrchestrator.Warmup(single ? WARMUP_REQUESTS_SINGLE : WARMUP_REQUESTS, null));
        }
        RunResult result;
        int interruptExit;
        try (Interrupts interrupts = Interrupts.install((StopReason why) -> run.requestStop(why))) {
            result = run.execute();
            interruptExit = interrupts.exitCode();
        }
        return result.interrupted() ? (interruptExit != 0 ? interruptExit : RunCommand.EXIT_INTERRUPTED) : 0;
    }

    /** mcb's result block after the run; with -v, fluxperf's own report of it too. */
    private static final class McbRunReport implements RunReport {
        private final McbReport report;
        private final McbSettings settings;
        private final PrintStream out;
        private final PrintStream err;
        private final ThreadTimes threadTimes;
        private final boolean verbose;
        private final List<WindowResult> windows = new ArrayList<>();
        private long open;
        private long failures;
        private String target;

        McbRunReport(McbReport report, McbSettings settings, PrintStream out, PrintStream err, ThreadTimes threadTimes,
                     boolean verbose) {
            this.report = report;
            this.settings = settings;
            this.out = out;
            this.err = err;
            this.threadTimes = threadTimes;
            this.verbose = verbose;
        }

        @Override
        public void starting(RunConfig config, String description) {
            target = description;
        }

        @Override
        public void connected(long opened, long failed) {
            open = opened;
            failures = failed;
        }

        @Override
        public void window(WindowResult window) {
            windows.add(window);
        }

        @Override
        public void warmupSkipped(String reason) {
            err.println("fluxperf: warm-up skipped (" + reason + "); the first commands run on a cold JVM");
        }

        @Override
        public void finished(RunResult result, RunErrors errors, RunTrace trace) {
            McbReport.Result figures = McbReport.Result.of(result, threadTimes);
            report.result(figures, settings.command());
            if (verbose) {
                TextReport text = new TextReport(out);
                text.configEcho(result.config(), target, McbReport.configBound(settings, result.config().seed()));
                text.connections(open, failures);
                for (WindowResult w : windows) {
                    text.window(w, result.config());
                }
                text.summary(result);
                report.rates(figures, result.total().seconds());
            }
            if (errors.any()) {
                out.println(errors.summary());
            }
            out.flush();
        }
    }

}
