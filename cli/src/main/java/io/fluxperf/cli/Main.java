package io.fluxperf.cli;

import io.fluxperf.engine.Printable;
import io.fluxperf.engine.UserError;
import io.fluxperf.engine.Version;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The only {@code main}: picocli commands, and the rule that a user's mistake is one sentence and exit 2. */
@Command(name = "fluxperf",
        mixinStandardHelpOptions = true,
        versionProvider = Main.VersionProvider.class,
        description = "Load generator and latency analyzer for memcached, Redis and HTTP servers.",
        subcommands = {RunCommand.class, ReplayCommand.class, ProfileCommand.class, ServeCommand.class, McbCommand.class, ConvertCommand.class, ReportCommand.class, CompareCommand.class, MergeCommand.class, K8sCommand.class, SweepCommand.class, io.fluxperf.cli.trace.TraceCommand.class, io.fluxperf.cli.trace.HeatmapCommand.class, CommandLine.HelpCommand.class},
        footer = {"",
                "Examples:",
                "  fluxperf run                                   # get load against an embedded memcache server",
                "  fluxperf run -s 127.0.0.1:11211 --method get --hit --rate 50000 -d 10",
                "  fluxperf run --config samples/default.toml -s 127.0.0.1:11211",
                "  fluxperf serve --port 11211                    # the embedded memcache server, standalone",
                "  fluxperf mcb -c set -t 10 -n 1000 -l 100       # mcb's memcached benchmark",
                "  fluxperf replay -s 127.0.0.1:6379 -l monitor.log --speed 2   # replay a redis MONITOR log",
                "  fluxperf profile cluster52.0.zst --config-out c52.toml       # a log's figures, and a workload fitted to it",
                "  fluxperf run -s 127.0.0.1:11211 --rate 20000 --trace /tmp/t && fluxperf heatmap /tmp/t --out h.png",
                "  fluxperf run -s 127.0.0.1:11211 --rate 20000 --out runs/a && fluxperf report runs/a",
                "  fluxperf sweep -s 127.0.0.1:11211 --from 10000 --factor 1.5 --to 400000 --slo 'p99<1ms' --out sweeps/a",
                "",
                "Run 'fluxperf COMMAND --help' for a command's options."})
public final class Main implements Runnable {

    /** True when this JVM runs one command line and exits (main), not a test's many. */
    private static volatile boolean ownProcess;

    public static void main(String[] args) {
        ownProcess = true;
        System.exit(execute(args, Streams.system()));
    }

    /**
     * Whether the command has this JVM to itself: only then may it change what outlives it, such
     * as the JIT threads' priority ({@code HostTuning.ownProcess}).
     */
    static boolean ownsProcess() {
        return ownProcess;
    }

    /** Runs a command line and returns its exit code; tests call this directly. */
    public static int execute(String[] args, Streams streams) {
        quietChronicle();
        pacingTimersOnTimerFd();
        nettyJfrEventsOff();
        return commandLine(streams).execute(args);
    }

    /** Every command, printing to {@code streams}, with the house's help layout and error handling. */
    static CommandLine commandLine(Streams streams) {
        CommandLine cli = new CommandLine(new Main());
        UsageHelp.apply(cli);
        cli.setOut(new PrintWriter(streams.out(), true));
        cli.setErr(new PrintWriter(streams.err(), true));
        for (CommandLine sub : cli.getSubcommands().values()) {
            if (sub.getCommand() instanceof Streams.Aware aware) {
                aware.streams(streams);
            }
        }
        cli.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            if (ex instanceof UserError) {
                // a message may quote a file, a log line or a server's words: escaped for the terminal
                commandLine.getErr().println("fluxperf: " + Printable.message(ex.getMessage()));
                return UserError.EXIT_CODE;
            }
            throw ex;
        });
        cli.setParameterExceptionHandler((ex, args1) -> {
            CommandLine c = ex.getCommandLine();
            String unknown = UnknownCommand.message(ex);
            if (unknown != null) {
                c.getErr().println("fluxperf: " + Printable.message(unknown)); // it quotes the user's word
                return UserError.EXIT_CODE;
            }
            c.getErr().println("fluxperf: " + Printable.message(ex.getMessage())); // it quotes the user's words
            c.getErr().println("Run '" + c.getCommandSpec().qualifiedName() + " --help' for the options.");
            return UserError.EXIT_CODE;
        });
        return cli;
    }

    /** Chronicle Queue phones home and prints a banner unless told not to; this must run before it loads. */
    private static void quietChronicle() {
        // Netty's leak detector records a stack trace for a sample of buffers: a cost on the hot
        // path that a load generator does not pay in production (tests keep it on)
        if (System.getProperty("io.netty.leakDetection.level") == null) {
            System.setProperty("io.netty.leakDetection.level", "disabled");
            // and its per-access buffer checks, about half of a reply's decode time (codecs check bounds themselves)
            System.setProperty("io.netty.buffer.checkAccessible", "false");
            System.setProperty("io.netty.buffer.checkBounds", "false");
        }
        System.setProperty("chronicle.analytics.disable", "true");
        System.setProperty("chronicle.announcer.disable", "true");
        System.setProperty("chronicle.disk.monitor.disable", "true");
        System.setProperty("org.slf4j.simpleLogger.log.net.openhft", "warn");
    }

    /**
     * Netty's epoll loop ends a wait shorter than {@code io.netty.channel.epoll.epollWaitThreshold}
     * (10 ms) with epoll_pwait2's own timeout and a longer one with its timerfd. Paced sends wait
     * well under 10 ms, and on these VMs the timerfd ends them on time more often: send lag p99
     * 0.57 against 1.25 ms at 5,000/s (medians of 8 alternating runs, the CPU per request the same).
     * Must run before Netty's epoll classes load; a value the user set is kept.
     */
    static void pacingTimersOnTimerFd() {
        if (System.getProperty(EPOLL_WAIT_THRESHOLD) == null) {
            System.setProperty(EPOLL_WAIT_THRESHOLD, "0");
        }
    }

    static final String EPOLL_WAIT_THRESHOLD = "io.netty.channel.epoll.epollWaitThreshold";

    /**
     * Netty 4.2 emits Flight Recorder events from its buffer allocator whenever the JVM has JFR,
     * and the first of them makes the JVM set up its event machinery: 200-300 ms of a 1-request
     * run's start on a slow machine (exec to first request 0.79-0.94 s without, 1.02-1.12 s with).
     * Off unless the user sets {@code -Dio.netty.jfr.enabled=true}; set before Netty loads.
     */
    static void nettyJfrEventsOff() {
        if (System.getProperty(NETTY_JFR) == null) {
            System.setProperty(NETTY_JFR, "false");
        }
    }

    static final String NETTY_JFR = "io.netty.jfr.enabled";

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    static final class VersionProvider implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"fluxperf " + Version.get()};
        }
    }
}
