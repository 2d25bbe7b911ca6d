package io.fluxperf.cli.mcb;

import io.fluxperf.engine.metrics.OutcomeCounts;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.request.Command;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * mcb's report, in its words (seeds/mcb.txt): the {@code condition =>} block before the run and
 * the {@code result =>} block after it, numbers as C's {@code %f} prints them. Lines mcb does not
 * have are added only when there is something to say: failed commands ({@code error =}), misses
 * ({@code miss =}, not errors) and why the run stopped early.
 */
public final class McbReport {
    private final PrintStream out;

    public McbReport(PrintStream out) {
        this.out = out;
    }

    /** The figures of the result block. */
    public record Result(long commands, double intervalSeconds, List<Double> threadSeconds, long ok, long miss,
                         long error, long timeout, long closed, boolean interrupted) {
        public Result {
            threadSeconds = List.copyOf(threadSeconds);
        }

        /**
         * From a run: the interval is the time until the last thread was done when the engine
         * records per-thread times (mcb: all commands sent and answered), else the run's window.
         */
        public static Result of(RunResult run, ThreadTimes times) {
            OutcomeCounts o = run.total().total().outcomes();
            List<Double> threads = times.seconds(run);
            // the window's end is found by polling (up to 20 ms late); the last thread's end is exact
            double interval = run.total().seconds();
            if (!threads.isEmpty() && threads.stream().allMatch(Double::isFinite)) {
                double last = threads.stream().mapToDouble(Double::doubleValue).max().orElse(0);
                if (last > 0) {
                    interval = last;
                }
            }
            return new Result(o.requests(), interval, threads, o.ok(), o.miss(), o.error(), o.timeout(), o.closed(),
                    run.interrupted());
        }

        /** Commands per second over the interval. */
        public double performance() {
            return intervalSeconds > 0 ? commands / intervalSeconds : 0;
        }

        /** Commands that failed: an error reply, no reply in time, or a connection that closed under them. */
        public long failed() {
            return error + timeout + closed;
        }
    }

    /** {@code condition =>}: what is about to run. */
    public void condition(McbSettings s) {
        out.println("condition =>");
        out.println(switch (s.transport()) {
            case TCP -> "connect to " + s.address() + " TCP port " + s.port();
            case UDP -> "connect to " + s.address() + " UDP port " + s.port();
            case UNIX_SOCKET -> "connect to unix socket " + s.socketPath();
        });
        if (s.single()) {
            out.println("single command: a new connection for every command");
        }
        out.println("command = " + s.command().label());
        out.println(s.threads() + " thread run");
        out.println("send " + s.perThread() + " command a thread, total " + s.totalCommands() + " command");
        if (s.writes()) {
            out.println("data length = " + s.length());
        }
    }

    /** {@code result =>}: interval, performance and thread info, then failures and misses if any. */
    public void result(Result r, Command command) {
        out.println("result =>");
        out.println("interval = " + f(r.intervalSeconds()) + " [sec]");
        out.println("performance = " + f(r.performance()) + " [command/sec]");
        out.println("thread info:");
        List<Double> finished = r.threadSeconds().stream().filter(Double::isFinite).toList();
        if (finished.isEmpty()) {
            out.println(r.threadSeconds().isEmpty()
                    ? "ave. = -, min = -, max = - (per-thread times are not recorded by this engine)"
                    : "ave. = -, min = -, max = - (no thread finished)");
        } else {
            double sum = 0;
            double min = Double.MAX_VALUE;
            double max = 0;
            for (double s : finished) {
                sum += s;
                min = Math.min(min, s);
                max = Math.max(max, s);
            }
            out.println("ave. = " + f(sum / finished.size()) + "[sec], min = " + f(min) + "[sec], max = " + f(max) + "[sec]"
                    + (finished.size() < r.threadSeconds().size()
                    ? " (" + (r.threadSeconds().size() - finished.size()) + " threads did not finish)" : ""));
        }
        if (r.failed() > 0) {
            List<String> kinds = new ArrayList<>();
            if (r.error() > 0) {
                kinds.add("error reply " + r.error());
            }
            if (r.timeout() > 0) {
                kinds.add("timeout " + r.timeout());
            }
            if (r.closed() > 0) {
                kinds.add("connection closed " + r.closed());
            }
            out.println("error = " + r.failed() + " (" + String.join(", ", kinds) + ")");
        }
        if (r.miss() > 0) {
            out.println("miss = " + r.miss() + " (" + switch (command) {
                case GET -> "get found no value";
                case ADD -> "add found the key there already: NOT_STORED";
                default -> "NOT_STORED";
            } + "; answered, not counted as errors)");
        }
        if (r.interrupted()) {
            out.println("stopped: interrupted after " + r.commands() + " command");
        }
    }

    /**
     * The config echo's line on what bounds the run (-v): the command counts, not the window's
     * duration, which is only a placeholder long enough that the counts end the run.
     */
    public static String configBound(McbSettings s, long seed) {
        return "Config: Requests: " + s.perThread() + " per thread, " + s.totalCommands() + " in all (no time limit)"
                + " Seed: " + seed;
    }

    /**
     * After fluxperf's report (-v): what its Rate and mcb's performance each count, as they divide
     * the same commands by two spans that differ by how the run's end is seen.
     */
    public void rates(Result r, double windowSeconds) {
        out.println("Rates: Rate counts the " + r.commands() + " requests over the measured window, " + f(windowSeconds)
                + " s (until the run saw its end); performance counts them over interval, " + f(r.intervalSeconds())
                + " s (until the last thread's last reply)");
    }

    /** As C's printf("%f"): six decimals. */
    static String f(double v) {
        return String.format(Locale.ROOT, "%f", v);
    }
}
