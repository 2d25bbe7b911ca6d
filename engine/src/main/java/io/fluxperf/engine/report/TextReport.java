package io.fluxperf.engine.report;

import io.fluxperf.engine.config.Arrivals;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.ConnectionCounts;
import io.fluxperf.engine.metrics.HitrateWarmup;
import io.fluxperf.engine.metrics.IntervalSample;
import io.fluxperf.engine.metrics.LatencySummary;
import io.fluxperf.engine.metrics.LiveSample;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.metrics.WorkloadStats;
import io.fluxperf.engine.protocol.Protocol;
import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.engine.protocol.ReplyClasses;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The human-readable report, in rpc-perf's layout and words (seeds/rpc-perf.txt) so that people
 * who read rpc-perf output can read this one: config echo, workloads, connections, warm-up, one
 * block per window and one for the whole run. Plain lines without log prefixes, so the output can
 * be diffed and grepped. Latencies are integers in ns, rates whole requests per second; the live line
 * and the total's {@code Summary:} line add the units a person reads at a glance ({@link HumanUnits}).
 */
public final class TextReport {
    static final String RULE = "-----";

    private final PrintStream out;
    /** The latency floor the config echo reports, once measured; null before. */
    private io.fluxperf.engine.trust.LatencyFloor floor;
    /** Whose CPU the CPU line counts: this process, or the runs a merge added up. */
    private String cpuOf = "this process";

    public TextReport(PrintStream out) {
        this.out = out;
    }

    /** The figures are a merge of {@code runs} runs: their CPU line counts all of their processes. */
    public TextReport mergedFrom(int runs) {
        cpuOf = runs > 1 ? "the " + runs + " merged runs' processes" : "this process";
        return this;
    }

    /** The latency floor, for the config echo that follows. */
    public void floor(io.fluxperf.engine.trust.LatencyFloor f) {
        this.floor = f;
    }

    /** The config echo's floor line ({@code Config: Floor: ...}), or null before the floor was given. */
    public String floorLine() {
        return floor == null ? null : "Config: " + floor.line();
    }

    /**
     * The effective configuration and the workloads, before anything is sent, so that a saved
     * report says what was measured.
     *
     * @param targetDescription what is measured, e.g. "127.0.0.1:11211" or
     *                          "embedded memcache on 127.0.0.1:40211"; null = the config's server
     */
    public void configEcho(RunConfig config, String targetDescription) {
        configEcho(config, targetDescription, boundLine(config));
    }

    /**
     * The same with {@code boundLine} for the line on what bounds the run (windows, duration,
     * warm-up, requests, seed): for a command whose runs only a request count ends (mcb), whose
     * duration is a placeholder that would read as a real bound.
     */
    public void configEcho(RunConfig config, String targetDescription, String boundLine) {
        String target = targetDescription != null ? targetDescription
                : config.server() != null ? config.server() : "embedded";
        out.println(RULE);
        out.println("Config:");
        out.println("Config: Server: " + target + " Protocol: " + config.protocol());
        out.println("Config: TCP_NODELAY: " + config.tcpNoDelay() + " Timeout: " + config.timeout().toMillis()
                + " ms Pipeline: " + config.pipeline());
        out.println("Config: Threads: " + config.threads() + " Connections: " + config.connections());
        out.println(boundLine);
        if (floor != null) {
            out.println(floorLine());
        }
        out.println(RULE);
        out.println("Workload:");
        List<WorkloadConfig> workloads = config.workloads();
        for (int i = 0; i < workloads.size(); i++) {
            out.println(workloadLine(i, workloads.get(i), workloads.size() > 1));
        }
        out.println(RULE);
    }

    private static String boundLine(RunConfig config) {
        return "Config: Windows: " + config.windows() + " Duration: " + seconds(config.duration())
                + " s Warmup: " + seconds(config.warmup()) + " s"
                + (config.warmupHitrate() > 0 ? " (ends early at a hit rate of " + number(config.warmupHitrate()) + " %)" : "")
                + (config.requests() > 0 ? " Requests: " + config.requests() : "")
                + " Seed: " + config.seed()
                + (config.isOpenLoop() && config.arrivals() != Arrivals.SMOOTH ? " Arrivals: " + config.arrivals().label() : "");
    }

    private static String workloadLine(int index, WorkloadConfig w, boolean several) {
        StringBuilder b = new StringBuilder();
        b.append("Workload ").append(index).append(": Name: ").append(w.name())
                .append(" Method: ").append(w.method().label())
                .append(" Bytes: ").append(w.bytes().describe())
                .append(" Rate: ").append(w.isRated() ? number(w.rate()) : "unlimited");
        if (!w.isRated() && several) {
            b.append(" Weight: ").append(w.weight());
        }
        b.append(" Hit: ").append(w.hit()).append(" Flush: ").append(w.flush())
                .append(" Keys: ").append(w.keyspace().describe());
        if (w.keysPerRequest() > 1) {
            b.append(" Keys/request: ").append(w.keysPerRequest());
        }
        if (w.ttlSeconds() > 0) {
            b.append(" TTL: ").append(w.ttlSeconds()).append(" s");
        }
        b.append(w.shape().describe());
        return b.toString();
    }

    /** After connecting (rpc-perf prints this once per thread). */
    public void connections(long open, long failures) {
        out.println("Connections: " + open + " Failures: " + failures);
    }

    /** The warm-up is over; what follows is measured. */
    public void warmupComplete() {
        out.println(RULE);
        out.println("Warmup complete");
    }

    /** A warm-up to a hit rate is over; what follows is measured. */
    public void warmupEnded(HitrateWarmup w) {
        out.println(RULE);
        out.println(warmupLine(w));
    }

    /**
     * rpc-perf's line at the end of a warm-up to a hit rate, e.g. {@code Warmup complete: hit rate
     * 91.3 % after 2.4 s (target 90 %)} or {@code Warmup ended at its bound of 5 s: hit rate 41.0 %,
     * short of the 90 % target}.
     */
    static String warmupLine(HitrateWarmup w) {
        String rate = w.hitratePercent() == null ? "no read answered"
                : String.format(Locale.ROOT, "hit rate %.1f %%", w.hitratePercent());
        if (w.reached()) {
            return String.format(Locale.ROOT, "Warmup complete: %s after %.1f s (target %s %%)", rate, w.seconds(),
                    number(w.targetPercent()));
        }
        return "Warmup ended at its bound of " + number(w.boundSeconds()) + " s: " + rate + ", short of the "
                + number(w.targetPercent()) + " % target";
    }

    /** One measured window. */
    public void window(WindowResult window, RunConfig config) {
        out.println(RULE);
        out.println("Window: " + window.number());
        block(window, config);
    }

    /** The whole run, then why it stopped when it did not run to the end. */
    public void summary(RunResult result) {
        out.println(RULE);
        out.println("Total:");
        block(result.total(), result.config());
        out.println(readableLine(result.total()));
        String stop = stopLine(result);
        if (stop != null) {
            out.println(stop);
        }
    }

    /**
     * The statistics block of one interval ({@code --stats-interval}), in dperf's style: a name
     * and a number per column, one topic per line.
     */
    public void statsBlock(IntervalSample s) {
        statsLines(s);
        out.println();
    }

    /**
     * The lines of {@link #statsBlock} without the blank line that ends it, for a command that adds
     * lines of its own to each block (replay's send lag and place in the log).
     */
    public void statsLines(IntervalSample s) {
        double per = s.seconds() > 0 ? 1 / s.seconds() : 0;
        out.println(columns("seconds", String.format(java.util.Locale.ROOT, "%.1f", s.second()), "requests", group(s.sent()),
                "responses", group(s.responses()), "rps", group(Math.round(s.responses() * per))));
        out.println(columns("ok", group(s.ok()), "miss", group(s.miss()), "error", group(s.error()),
                "timeout", group(s.timeout()), "closed", group(s.closed())));
        out.println(columns("skOpen", group(s.connectionsOpened()), "skClose", group(s.connectionsClosed()),
                "skCon", group(s.openConnections()), "skErr", group(s.connectFailures())));
        out.println(columns("bytesRx", group(s.bytesIn()), "bytesTx", group(s.bytesOut()),
                "errProtocol", group(s.protocolErrors()), "errConnection", group(s.connectionErrors())));
        out.println(columns("p50", group(s.latencyP50()) + " ns", "p99", group(s.latencyP99()) + " ns",
                "serviceP50", group(s.serviceP50()) + " ns", "serviceP99", group(s.serviceP99()) + " ns"));
        if (s.tcp().samples() > 0) {
            out.println(columns("tcpRetrans", group(s.tcp().retransmits()), "tcpLost", group(s.tcp().lost()),
                    "srttP50", group(s.tcp().rttP50Micros()) + " us", "srttMax", group(s.tcp().rttMaxMicros()) + " us"));
        }
        for (io.fluxperf.engine.metrics.ServerSample server : s.servers()) {
            out.println(ServerLines.statsLine(server));
        }
    }

    /**
     * One line of a statistics block: names and values in pairs, each pair in a column of 24
     * characters; a wider pair (a lag of seconds in ns) keeps one space before the next, so that
     * the line still splits into names and values.
     */
    public static String columns(String... nameValue) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i + 1 < nameValue.length; i += 2) {
            String cell = nameValue[i] + " " + nameValue[i + 1];
            b.append(i + 2 < nameValue.length ? String.format("%-23s ", cell) : cell);
        }
        return b.toString();
    }

    /** A count as a statistics block shows it, with thousands separators: 24,294. */
    public static String group(long v) {
        return String.format(java.util.Locale.ROOT, "%,d", v);
    }

    /**
     * The line shown about once a second while a window runs (the caller prints it to stderr): how
     * far the run has gone, then {@link #liveFigures}, e.g. {@code [window 2/6 7 s of 30 s] 49,987
     * rps, errors 0, p99 so far 3.12 ms}. A run with a request limit may end before its windows do:
     * its length is "at most".
     */
    public static String liveLine(LiveSample s, RunConfig config) {
        double window = config.duration().toNanos() / 1e9;
        double elapsed = (s.window() - 1) * window + s.elapsedNanos() / 1e9;
        return "[window " + s.window() + "/" + config.windows() + " " + Math.round(elapsed) + " s of "
                + (config.requests() > 0 ? "at most " : "") + HumanUnits.seconds(window * config.windows()) + "] "
                + liveFigures(s);
    }

    /** The running window's figures so far, for a live line: {@code 49,987 rps, errors 0, p99 so far 3.12 ms}. */
    public static String liveFigures(LiveSample s) {
        return group(Math.round(s.rate())) + " rps, errors " + group(s.errors()) + ", p99 so far "
                + (s.requests() > 0 ? HumanUnits.latency(s.p99Nanos()) : "n/a (no replies yet)");
    }

    /**
     * The whole run's figures in units a person reads at a glance, after the ns lines that rpc-perf's
     * users parse: {@code Summary: 49,987 requests/s, success 100.00 %, latency p50 31.9 us, p99 244 us,
     * p999 1.24 ms, max 3.12 ms}.
     */
    static String readableLine(WindowResult w) {
        LatencySummary l = w.summaries().latency();
        Counts c = Counts.of(w.total().outcomes());
        String latency = c.requests() == 0 ? "no requests"
                : "latency p50 " + HumanUnits.latency(l.p50()) + ", p99 " + HumanUnits.latency(l.p99()) + ", p999 "
                + HumanUnits.latency(l.p999()) + ", max " + HumanUnits.latency(l.max());
        return "Summary: " + group(Math.round(w.rate())) + " requests/s, success " + percent(c.successPercent()) + ", "
                + latency;
    }

    private void block(WindowResult w, RunConfig config) {
        List<WorkloadConfig> configs = WindowFigures.configs(w, config);
        Counts c = Counts.of(w.total().outcomes());
        out.println(counts(c));
        if (c.mismatch() > 0) {
            out.println(mismatchLine(c.mismatch()));
        }
        out.println("Rate: " + Math.round(w.rate()) + " rps Success: " + percent(c.successPercent())
                + " Hitrate: " + percent(WindowFigures.hitratePercent(w, configs)));
        LatencySummary l = w.summaries().latency();
        out.println("Latency: min: " + l.min() + " ns max: " + l.max() + " ns avg: " + l.mean()
                + " ns stddev: " + l.stddev() + " ns");
        out.println("Percentiles: p50: " + l.p50() + " ns p90: " + l.p90() + " ns p99: " + l.p99()
                + " ns p999: " + l.p999() + " ns p9999: " + l.p9999() + " ns");
        ReplyClasses classes = replyClasses(config);
        if (w.total().hasReplyClasses() && classes.count() > 0) {
            StringBuilder b = new StringBuilder(classes.title()).append(':');
            for (int k = 1; k <= classes.count(); k++) {
                b.append(' ').append(classes.label(k)).append(": ").append(w.total().replyClass(k));
            }
            out.println(b);
        }
        if (w.cpuNanosPerRequest() >= 0) {
            out.printf(java.util.Locale.ROOT, "CPU: %.0f ns/request, %.2f cores (%s%s)%n", w.cpuNanosPerRequest(),
                    w.cpuNanos() / 1e9 / w.seconds(), cpuOf, config.server() == null ? ", with the embedded target" : "");
        }
        if (w.loopSaturated()) {
            out.printf(java.util.Locale.ROOT, "Client: a load thread was on CPU %.0f %% of the window: fluxperf set this window's pace,"
                    + " and requests waited in it (give it more --threads and CPUs)%n", 100 * w.busiestLoopShare());
        }
        if (config.isOpenLoop()) {
            LatencySummary s = w.summaries().service();
            out.println("Service: p50: " + s.p50() + " ns p99: " + s.p99() + " ns p999: " + s.p999()
                    + " ns (from the actual write)");
            out.println(sendLagLine(w));
        }
        for (WindowFigures.Shortfall f : WindowFigures.shortfalls(w, configs)) {
            out.println("Rate: workload " + f.index() + " (" + f.name() + ") target " + number(f.target())
                    + "/s, achieved " + Math.round(f.achieved()) + "/s");
        }
        ConnectionCounts cc = w.connections();
        if (cc != null && (cc.failures() > 0 || cc.closedCount() > 0 || config.connection().connectPerRequest())) {
            out.println("Connections: attempts " + cc.attempts() + " opened " + cc.openedCount() + " failed "
                    + cc.failures() + " closed " + cc.closedCount() + " open " + cc.open());
        }
        if (config.connection().connectPerRequest() && w.connectLatency() != null && w.connectLatency().getTotalCount() > 0) {
            LatencySummary cl = w.summaries().connect();
            out.println("Connect: " + Math.round(w.connectRate()) + " connections/s p50: " + cl.p50() + " ns p99: " + cl.p99()
                    + " ns p999: " + cl.p999() + " ns max: " + cl.max() + " ns (connect to ready, apart from request latency)");
        }
        String tcp = tcpLine(w);
        if (tcp != null) {
            out.println(tcp);
        }
        if (w.workloads().size() > 1) {
            for (int i = 0; i < w.workloads().size(); i++) {
                WorkloadConfig wc = i < configs.size() ? configs.get(i) : null;
                out.println(workloadBreakdown(i, wc, w.workloads().get(i), w.summaries().workloadLatency().get(i), w.rate(i)));
            }
        }
        ServerLines.printWindow(out, w);
        if (w.messages() != null) {
            w.messages().lines().forEach(out::println);
        }
    }

    /**
     * A paced window's {@code Send lag:} line. When due requests found no connection with room, it
     * says for how long: they waited for the server's replies, not for the client's CPU. The part
     * that began with a request already behind its schedule is a backlog going out (after a stall
     * of the client's or the server's); the rest began on time, with every connection held by the
     * server.
     */
    public static String sendLagLine(WindowResult w) {
        LatencySummary lag = w.summaries().sendLag();
        ConnectionCounts cc = w.connections() != null ? w.connections() : new ConnectionCounts();
        return "Send lag: p50: " + lag.p50() + " ns p99: " + lag.p99() + " ns max: " + lag.max() + " ns"
                + (cc.roomWaitNanos() > 0 ? String.format(Locale.ROOT,
                " (due requests waited %.1f ms for a connection with room, %.1f ms of it once already behind)",
                cc.roomWaitNanos() / 1e6, cc.roomWaitBehindNanos() / 1e6) : "");
    }

    /**
     * A window's {@code TCP:} line, from the kernel's TCP_INFO of the load connections: segments
     * retransmitted, the most marked lost at once, and the smoothed RTT; null when no connection
     * was sampled (UDP, Unix sockets, or a window shorter than the sampling period).
     */
    public static String tcpLine(WindowResult w) {
        io.fluxperf.engine.metrics.TcpFigures t = w.tcp().figures();
        if (t.samples() == 0) {
            return null;
        }
        return "TCP: retransmits: " + t.retransmits() + " lost: " + t.lost() + " srtt p50: " + t.rttP50Micros()
                + " us max: " + t.rttMaxMicros() + " us (kernel TCP_INFO, " + t.samples() + " connection samples)";
    }

    private static String workloadBreakdown(int index, WorkloadConfig config, WorkloadStats stats, LatencySummary l,
                                            double rate) {
        String name = config != null ? config.name() : "workload-" + index;
        return "Workload " + index + " (" + name + "): " + counts(Counts.of(stats.outcomes()))
                + " Rate: " + Math.round(rate) + " rps Hitrate: " + percent(WindowFigures.hitratePercent(config, stats))
                + " p50: " + l.p50() + " ns p99: " + l.p99() + " ns p999: " + l.p999() + " ns";
    }

    /**
     * The line under the counts when some errors were reads of a value other than the one this run
     * writes for the key: the keys hold another run's values (another seed or config), which
     * happens without a flush; the connection stayed, as the reply kept the protocol.
     */
    static String mismatchLine(long mismatch) {
        return "Mismatch: " + mismatch + " of the errors read a value other than the one this run writes for the key"
                + " (keys written by another workload or run; --flush or a key-offset of its own avoids it)";
    }

    private static String counts(Counts c) {
        return "Requests: " + c.requests() + " Ok: " + c.ok() + " Miss: " + c.miss() + " Error: " + c.error()
                + " Timeout: " + c.timeout() + " Closed: " + c.closed();
    }

    private static String stopLine(RunResult r) {
        return switch (r.stopReason()) {
            case COMPLETED -> null;
            case INTERRUPTED -> "Stopped: interrupted (Ctrl-C); the report covers what ran";
            case TERMINATED -> "Stopped: terminated (SIGTERM); the report covers what ran";
            case QUIT -> "Stopped: asked to quit (POST /quitquitquit on the admin endpoint); the report covers what ran";
            case REQUEST_LIMIT -> "Stopped: request limit of " + r.config().requests() + " reached";
            case SOURCE_ENDED -> "Stopped: the requests ran out (the end of the log)";
            case TRACE_FAILED -> "Stopped: the trace could not be written (--trace-required); the Trace line says how many"
                    + " records were lost";
            case BAD_INPUT -> "Stopped: " + r.stopReason().label() + " (below)";
            case SLO_FAILED -> "Stopped: an objective failed (--slo-abort); the Objectives below say which";
        };
    }

    static String percent(Double p) {
        return p == null ? "n/a" : String.format(Locale.ROOT, "%.2f %%", p);
    }

    /** A whole number without decimals, otherwise up to 3 decimals without trailing zeros. */
    static String number(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return BigDecimal.valueOf(v).setScale(3, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString();
    }

    static String seconds(Duration d) {
        if (d == null) {
            return "0";
        }
        return BigDecimal.valueOf(d.toMillis()).movePointLeft(3).stripTrailingZeros().toPlainString();
    }

    /** The reply classes of the run's protocol, for the per-class line. */
    static ReplyClasses replyClasses(RunConfig config) {
        Protocol p = Protocols.find(config.protocol());
        return p == null ? ReplyClasses.NONE : p.replyClasses();
    }
}
