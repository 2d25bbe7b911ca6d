package io.fluxperf.replay;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxperf.engine.Printable;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.log.LogInput;
import io.fluxperf.engine.metrics.IntervalSample;
import io.fluxperf.engine.metrics.LiveSample;
import io.fluxperf.engine.metrics.SendLateness;
import io.fluxperf.engine.report.JsonResult;
import io.fluxperf.engine.report.TextReport;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The replay's own lines around {@code run}'s report (which {@link io.fluxperf.engine.report.TextReport}
 * prints): the config echo with what is replayed and how, the progress line, the lines each
 * statistics block adds (send lag, place in the log), and the fidelity block; and the
 * {@code replay} object and the intervals' positions added to the JSON result.
 */
final class ReplayReport {
    private static final String RULE = "-----";

    private final PrintStream out;

    ReplayReport(PrintStream out) {
        this.out = out;
    }

    /** @param floorLine the latency floor's line ({@code Config: Floor: ...}), or null when it was not measured */
    void configEcho(RunConfig config, String target, ReplayPlan plan, String floorLine) {
        ReplayOptions o = plan.options;
        out.println(RULE);
        out.println("Config:");
        out.println("Config: Server: " + target + " Protocol: " + config.protocol());
        out.println("Config: TCP_NODELAY: " + config.tcpNoDelay() + " Timeout: " + config.timeout().toMillis()
                + " ms Pipeline: " + config.pipeline());
        out.println("Config: Threads: " + config.threads() + " Connections: " + config.connections());
        out.println("Config: Window: " + (o.window() == null ? "the whole replay" : nanosAsSeconds(o.window().toNanos()) + " s"));
        if (floorLine != null) {
            out.println(floorLine);
        }
        out.println(RULE);
        out.println("Replay:");
        out.println("Replay: Log: " + plan.name + " Format: " + plan.format.label()
                + (plan.format != TraceFormat.INSTANCE ? compressionNote(plan) : ""));
        out.println("Replay: Speed: " + o.speedText() + " Max wait: " + (o.maxWait() == null ? "none" : nanosAsSeconds(o.maxWait().toNanos()) + " s")
                + " Loop: " + o.loops() + " Rate cap: " + (o.rateCap() > 0 ? number(o.rateCap()) + "/s" : "none")
                + " Warmup: " + (o.warmup() == null ? "none" : nanosAsSeconds(o.warmup().toNanos()) + " s"));
        out.println("Replay: Only: " + (plan.only == null ? "all" : plan.only) + " Key prefix: "
                + (o.keyPrefix() == null ? "none" : o.keyPrefix()) + " Read-ahead: " + o.readAheadOf(plan.format) + " commands"
                + " Strict: " + o.strict());
        out.println("Replay: Clients: " + (o.anyConnection() ? "any free connection (--any-connection)"
                : "each original client on one connection")
                + (o.scale() > 1 ? " Scale: " + o.scale() + " copies of each, keys in " + ScaledReader.namespace(1)
                        + " … " + ScaledReader.namespace(o.scale()) : ""));
        for (String note : plan.notes) {
            out.println("Replay: Note: " + Printable.quote(note));
        }
        out.println(RULE);
        out.println("Workload:");
        List<WorkloadConfig> w = config.workloads();
        for (int i = 0; i < w.size(); i++) {
            out.println("Workload " + i + ": Name: " + w.get(i).name() + " Method: " + w.get(i).method().label());
        }
        out.println(RULE);
    }

    /**
     * The config echo as a replay printed it, from the start of its report: the echo's four rules
     * (before Config, Replay, Workload and after the workloads) and the lines between them; null
     * when the text does not start with one.
     */
    static String printedEcho(String report) {
        StringBuilder echo = new StringBuilder();
        int rules = 0;
        for (String line : report.split("\n", -1)) {
            if (rules == 0 && !line.equals(RULE)) {
                return null;
            }
            echo.append(line).append('\n');
            if (line.equals(RULE) && ++rules == 4) {
                return echo.toString();
            }
        }
        return null;
    }

    /** The notes an echo printed ("Replay: Note: …"), which the fidelity block does not repeat. */
    static List<String> echoNotes(String echo) {
        String prefix = "Replay: Note: ";
        return echo.lines().filter(l -> l.startsWith(prefix)).map(l -> l.substring(prefix.length())).toList();
    }

    private static String compressionNote(ReplayPlan plan) {
        try (LogInput in = LogInput.open(plan.options.log())) {
            return in.compression() == LogInput.Compression.NONE ? "" : " (" + in.compression().label() + ")";
        }
    }

    /**
     * After a window's block (and the total's): the lines {@code run} prints in open loop, for the
     * requests that had a send time — service time from the write, and send lag (the total's send lag
     * is in the fidelity block).
     */
    void scheduleLines(io.fluxperf.engine.metrics.WindowResult w, boolean withLag) {
        if (w.sendLag().getTotalCount() == 0) {
            return;
        }
        io.fluxperf.engine.metrics.LatencySummary service = w.summaries().service();
        out.println("Service: p50: " + service.p50() + " ns p99: " + service.p99() + " ns p999: " + service.p999()
                + " ns (from the actual write)");
        if (withLag) {
            out.println(io.fluxperf.engine.report.TextReport.sendLagLine(w));
        }
    }

    /** What a place in a log of {@code format} is counted in: a trace's records, a capture's packets, else lines. */
    static String placeUnit(io.fluxperf.engine.log.LogFormat format) {
        return format == TraceFormat.INSTANCE ? "record"
                : format == io.fluxperf.engine.log.capture.CaptureFormat.INSTANCE ? "packet" : "line";
    }

    /**
     * The progress line, stderr. A timed replay's ETA is what its schedule has left, by the log's own
     * clock at its speed; one without a schedule (or past its schedule's end, behind it) extrapolates
     * from how much of the log it got through in the time so far. Within a long gap of the log, it
     * says how long the replay waits for the log's next command.
     *
     * @param unit     what {@code at.line()} counts ({@link #placeUnit})
     * @param schedule where the schedule is ({@link ScheduleProgress#at}), or {@link ScheduleProgress.At#UNKNOWN}
     * @param speed    the speed as the report names it ({@code 1x}, {@code max})
     * @param maxWait  --max-wait was given (it caps the gaps already)
     */
    static String progressLine(LiveSample sample, long elapsedNanos, LogPosition at, int loops, String unit,
                               ScheduleProgress.At schedule, String speed, boolean maxWait) {
        StringBuilder b = new StringBuilder();
        b.append("[replay ").append(Math.round(elapsedNanos / 1e9)).append("s] ")
                .append(unit).append(' ').append(at.line());
        if (at.sizeKnown()) {
            b.append(" (").append(at.percent()).append(" %)");
        }
        if (loops > 1) {
            b.append(" loop ").append(at.loop()).append('/').append(loops);
        }
        b.append(", ").append(Math.round(sample.rate())).append(" rps, errors ").append(sample.errors());
        if (schedule.leftNanos() > 0) {
            b.append(", ETA ").append(span(schedule.leftNanos()));
        } else if (at.sizeKnown() && at.fraction() > 0.001) {
            b.append(", ETA ").append(span((long) (elapsedNanos * (1 - at.fraction()) / at.fraction())));
        }
        // a replay still sending late commands from before the gap is not waiting for it
        if (schedule.waitNanos() > 0 && Math.round(sample.rate()) == 0) {
            b.append("; waiting ").append(span(schedule.waitNanos())).append(" for the log's next command at ").append(speed)
                    .append(maxWait ? "" : "; --max-wait caps such gaps");
        }
        return b.toString();
    }

    /** A time to wait, in the unit that keeps it short: {@code 42s}, {@code 12.5 min}, {@code 27.8 h}, {@code 3.2 d}. */
    static String span(long nanos) {
        double s = nanos / 1e9;
        if (s < 100) {
            return Math.round(s) + "s";
        }
        if (s < 6_000) {
            return String.format(Locale.ROOT, "%.1f min", s / 60);
        }
        if (s < 360_000) {
            return String.format(Locale.ROOT, "%.1f h", s / 3_600);
        }
        return String.format(Locale.ROOT, "%.1f d", s / 86_400);
    }

    /**
     * The two lines a replay adds to each statistics block ({@code --stats-interval}), in its
     * columns: the send lag of the interval's commands, and the place in the log after it.
     *
     * @param paced the replay has a schedule (not {@code --speed max} without a rate cap)
     */
    static String[] statsLines(IntervalSample s, LogPosition at, boolean paced, int loops, String unit) {
        boolean lagKnown = paced && s.sent() > 0;
        String lag = TextReport.columns("sendLagP50", lagKnown ? TextReport.group(s.sendLagP50()) + " ns" : "n/a",
                "sendLagP99", lagKnown ? TextReport.group(s.sendLagP99()) + " ns" : "n/a",
                "sendLagMax", lagKnown ? TextReport.group(s.sendLagMax()) + " ns" : "n/a");
        List<String> place = new ArrayList<>(List.of(unit, TextReport.group(at.line())));
        if (at.sizeKnown()) {
            place.addAll(List.of("percent", at.percent() + " %"));
        }
        if (loops > 1) {
            place.addAll(List.of("loop", at.loop() + "/" + loops));
        }
        return new String[] {lag, TextReport.columns(place.toArray(String[]::new))};
    }

    /** @param printed notes the config echo showed already */
    void fidelity(ReplayResult r, List<String> printed) {
        out.println(RULE);
        out.println("Fidelity:");
        if (r.sendLagNanos() != null) {
            out.println("Send lag: p50: " + r.sendLagNanos()[0] + " ns p99: " + r.sendLagNanos()[1] + " ns max: "
                    + r.sendLagNanos()[2] + " ns (actual minus scheduled send time)");
            out.println(behindLine(r));
            out.println(lateSendsLine(r.run().lateness()));
        } else {
            out.println("Send lag: n/a (--speed max sends as fast as the connections allow; latency from the write)");
        }
        if (r.limit() != null) {
            out.println(r.limit().inFlightLine());
            if (r.limit().why() != null) {
                out.println("Limited by: " + r.limit().why());
            }
        }
        out.println(durationLine(r));
        out.println("Commands: " + (r.commands().isEmpty() ? "none" : r.commands().entrySet().stream()
                .map(e -> Printable.quote(e.getKey()) + " " + e.getValue()).collect(Collectors.joining(" ")))
                + (r.warmup() ? " (the warm-up's included)" : ""));
        if (r.originalReplies() != null) {
            out.println(hitRateLine(r));
            out.println(repliesLine(r));
        }
        out.println("Lines: read " + r.lines() + " commands " + r.commandsRead() + " replayed " + r.replayed()
                + " skipped " + r.linesSkipped() + " (bad " + r.badLines() + ", --only " + r.filtered()
                + ", not replayable " + sum(r.skipped()) + ") late " + r.late());
        for (Map.Entry<String, Long> s : r.skipped().entrySet()) {
            out.println("Skipped: " + s.getValue() + " " + Printable.quote(s.getKey()));
        }
        for (Map.Entry<String, Long> a : r.adjusted().entrySet()) {
            out.println("Adjusted: " + a.getValue() + " " + Printable.quote(a.getKey()));
        }
        if (r.badLines() > 0) {
            out.println("Bad lines: " + r.badLines() + (r.badLines() > r.firstBadLines().size() ? ", the first "
                    + r.firstBadLines().size() + ":" : ":"));
            for (String b : r.firstBadLines()) {
                out.println("Bad line: " + Printable.quote(b)); // it quotes the log
            }
        }
        for (String note : r.notes()) {
            if (!printed.contains(note)) {
                out.println("Note: " + Printable.quote(note));
            }
        }
        if (r.late() > 0) {
            out.println("Late: " + r.late() + " commands came later than the read-ahead of --read-ahead commands could"
                    + " sort; they were sent at once");
        }
    }

    /**
     * The log's span, the replay's, and what the schedule should have taken; a replay without a
     * schedule ({@code --speed max}, a log without times) is not timed, so it has no expected span.
     */
    static String durationLine(ReplayResult r) {
        String expected = Double.isNaN(r.expectedSeconds()) ? "not timed" : "expected " + seconds(r.expectedSeconds()) + " s";
        return "Duration: original " + seconds(r.originalSeconds()) + " s replay " + seconds(r.replaySeconds()) + " s "
                + expected + " (speed " + r.speed() + (r.loops() > 1 ? ", " + r.loops() + " loops" : "") + ")";
    }

    /**
     * The hit rate of reads as the original server answered them (from the replies in the log) beside
     * the replay's, e.g. {@code Hit rate: original 93.1 %, replay 92.8 %}.
     */
    static String hitRateLine(ReplayResult r) {
        Double replay = io.fluxperf.engine.report.WindowFigures.hitratePercent(r.run().total(), r.run().config().workloads());
        return "Hit rate: original " + percent(r.originalReplies().hitRatePercent()) + ", replay " + percent(replay)
                + " (reads; the original from the server's replies in the log)";
    }

    /** Every command's outcome, original and replayed, e.g. {@code Replies: original ok 9 miss 1 error 0 unknown 0, replay ok 9 …}. */
    static String repliesLine(ReplayResult r) {
        OriginalReplies o = r.originalReplies();
        io.fluxperf.engine.report.Counts c = io.fluxperf.engine.report.Counts.of(r.run().total().total().outcomes());
        return "Replies: original ok " + o.ok() + " miss " + o.miss() + " error " + o.error() + " unknown " + o.unknown()
                + ", replay ok " + c.ok() + " miss " + c.miss() + " error " + c.error() + " timeout " + c.timeout()
                + " closed " + c.closed();
    }

    private static String percent(Double p) {
        return p == null ? "n/a" : String.format(Locale.ROOT, "%.1f %%", p);
    }

    /**
     * The longest stretch behind the schedule: how long, and where it began in the log (and in the
     * replay, when that is another time: another speed, a later pass, idle gaps cut).
     */
    static String behindLine(ReplayResult r) {
        SendLateness l = r.run().lateness();
        if (l.longestBehindNanos() == 0) {
            return "Behind: never more than 1 ms behind the schedule";
        }
        return String.format(Locale.ROOT, "Behind: longest %.1f ms from %s (commands sent more than 1 ms late, back to back)",
                l.longestBehindNanos() / 1e6, where(l.longestBehindSourceNanos(), l.longestBehindStartNanos()));
    }

    static String lateSendsLine(SendLateness l) {
        return String.format(Locale.ROOT, "Late sends: %d of %d commands (%.2f %%) left more than 1 ms after their scheduled time",
                l.late(), l.paced(), 100 * l.lateShare());
    }

    /**
     * A place as seconds into the log, and into the replay too where the two differ by more than a
     * millisecond; into the replay alone when the log has no times.
     *
     * @param sourceNanos  ns into the log's pass, -1 when unknown
     * @param replayNanos  ns after the replay's schedule began
     */
    static String where(long sourceNanos, long replayNanos) {
        String replay = seconds(replayNanos / 1e9) + " s into the replay";
        if (sourceNanos < 0) {
            return replay;
        }
        String log = seconds(sourceNanos / 1e9) + " s into the log";
        return Math.abs(sourceNanos - replayNanos) > 1_000_000 ? log + ", " + replay : log;
    }

    /**
     * The JSON result of {@code r}'s run with the replay's own sections: each statistics interval
     * with where in the log the replay was ({@code "position"}), and {@code "replay"}, the fidelity.
     */
    static JsonResult jsonResult(ReplayResult r) {
        JsonResult json = JsonResult.of(r.run());
        List<IntervalSample> samples = r.run().intervals();
        List<PositionedInterval> intervals = new ArrayList<>();
        for (int i = 0; i < samples.size(); i++) {
            LogPosition p = i < r.intervalPositions().size() ? r.intervalPositions().get(i) : null;
            intervals.add(new PositionedInterval(samples.get(i), p == null ? null
                    : new Position(p.loop(), p.line(), p.sizeKnown() ? Math.round(p.fraction() * 1e5) / 1e3 : null)));
        }
        return json.section("intervals", intervals).section("replay", replaySection(r));
    }

    /** A statistics interval and the log position the replay had reached at its end (none past the last known). */
    record PositionedInterval(@JsonUnwrapped IntervalSample sample,
                              @JsonInclude(JsonInclude.Include.NON_NULL) Position position) {
    }

    /** @param percent how far into the log, in percent; null when its size is not known */
    record Position(int loop, long line, Double percent) {
    }

    /** The {@code "replay"} section: the log, the speed, and how faithfully it was replayed. */
    private static ObjectNode replaySection(ReplayResult r) {
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode replay = mapper.createObjectNode();
        replay.put("log", r.log());
        replay.put("format", r.format().label());
        replay.put("protocol", r.protocol());
        replay.put("speed", r.speed());
        replay.put("loops", r.loops());
        if (r.sendLagNanos() != null) {
            ObjectNode lag = replay.putObject("sendLagNanos");
            lag.put("p50", r.sendLagNanos()[0]);
            lag.put("p99", r.sendLagNanos()[1]);
            lag.put("max", r.sendLagNanos()[2]);
        } else {
            replay.putNull("sendLagNanos");
        }
        ArrayNode windows = replay.putArray("windowSendLagNanos");
        for (io.fluxperf.engine.metrics.WindowResult w : r.run().windows()) {
            ObjectNode n = windows.addObject();
            n.put("window", w.number());
            if (w.sendLag().getTotalCount() > 0) {
                io.fluxperf.engine.metrics.LatencySummary l = w.summaries().sendLag();
                n.put("p50", l.p50());
                n.put("p99", l.p99());
                n.put("max", l.max());
            }
        }
        putLateness(replay, r);
        putLimit(replay, r.limit());
        putSeconds(replay, "originalSeconds", r.originalSeconds());
        putSeconds(replay, "replaySeconds", r.replaySeconds());
        putSeconds(replay, "expectedSeconds", r.expectedSeconds());
        ObjectNode commands = replay.putObject("commands");
        r.commands().forEach(commands::put);
        if (r.originalReplies() != null) {
            OriginalReplies o = r.originalReplies();
            ObjectNode original = replay.putObject("originalReplies");
            original.put("ok", o.ok());
            original.put("miss", o.miss());
            original.put("error", o.error());
            original.put("unknown", o.unknown());
            original.put("readHits", o.readHits());
            original.put("readMisses", o.readMisses());
        } else {
            replay.putNull("originalReplies");
        }
        ObjectNode lines = replay.putObject("lines");
        lines.put("read", r.lines());
        lines.put("commands", r.commandsRead());
        lines.put("replayed", r.replayed());
        lines.put("skipped", r.linesSkipped());
        lines.put("bad", r.badLines());
        lines.put("filtered", r.filtered());
        lines.put("late", r.late());
        ObjectNode skipped = replay.putObject("skipped");
        r.skipped().forEach(skipped::put);
        ObjectNode adjusted = replay.putObject("adjusted");
        r.adjusted().forEach(adjusted::put);
        ArrayNode bad = replay.putArray("firstBadLines");
        r.firstBadLines().forEach(bad::add);
        ArrayNode notes = replay.putArray("notes");
        r.notes().forEach(notes::add);
        if (r.failure() != null) {
            replay.put("failure", r.failure());
        }
        return replay;
    }

    /** Commands in flight and what held the replay back ({@link ReplayLimit}); null without figures. */
    private static void putLimit(ObjectNode replay, ReplayLimit l) {
        if (l == null) {
            replay.putNull("inFlight");
            replay.putNull("limit");
            return;
        }
        ObjectNode f = replay.putObject("inFlight");
        f.put("mean", l.inFlightMean());
        f.put("most", l.inFlightMost());
        f.put("readerWaitShare", l.readerWaitShare());
        f.put("readerWaitNanos", l.readerWaitNanos());
        f.put("loopCpuShare", l.loopShare());
        f.put("readAheadPeakBytes", l.readAheadPeak());
        f.put("readAheadBudgetBytes", l.readAheadBudget());
        if (l.limit() == null) {
            replay.putNull("limit");
        } else {
            ObjectNode n = replay.putObject("limit");
            n.put("reason", l.limit());
            n.put("text", l.why());
        }
    }

    /** A replay's {@link ReplayLimit} as {@link #jsonResult} wrote it; null when it holds none. */
    static ReplayLimit readLimit(JsonNode replay) {
        JsonNode f = replay.path("inFlight");
        if (!f.isObject()) {
            return null;
        }
        JsonNode n = replay.path("limit");
        return new ReplayLimit(f.path("mean").asDouble(), f.path("most").asLong(), f.path("readerWaitShare").asDouble(),
                f.path("readerWaitNanos").asLong(), f.path("loopCpuShare").asDouble(-1), f.path("readAheadPeakBytes").asLong(),
                f.path("readAheadBudgetBytes").asLong(), n.isObject() ? n.path("reason").asText() : null,
                n.isObject() ? n.path("text").asText() : null);
    }

    /** The schedule's keeping: null figures when there was no schedule (--speed max). */
    private static void putLateness(ObjectNode replay, ReplayResult r) {
        SendLateness l = r.run().lateness();
        replay.put("lateThresholdNanos", SendLateness.LATE_NANOS);
        if (r.sendLagNanos() == null) {
            replay.putNull("lateSends");
            replay.putNull("pacedSends");
            replay.putNull("lateShare");
            replay.putNull("longestBehind");
            replay.putNull("largestLag");
            return;
        }
        replay.put("lateSends", l.late());
        replay.put("pacedSends", l.paced()); // what the share is of: merge adds both up
        replay.put("lateShare", l.lateShare());
        if (l.longestBehindNanos() > 0) {
            ObjectNode behind = replay.putObject("longestBehind");
            behind.put("nanos", l.longestBehindNanos());
            putSeconds(behind, "startLogSeconds", l.longestBehindSourceNanos() < 0 ? Double.NaN : l.longestBehindSourceNanos() / 1e9);
            putSeconds(behind, "startReplaySeconds", l.longestBehindStartNanos() / 1e9);
        } else {
            replay.putNull("longestBehind");
        }
        if (l.late() > 0) {
            ObjectNode lag = replay.putObject("largestLag");
            lag.put("nanos", l.maxLagNanos());
            putSeconds(lag, "atLogSeconds", l.maxLagSourceNanos() < 0 ? Double.NaN : l.maxLagSourceNanos() / 1e9);
            putSeconds(lag, "atReplaySeconds", l.maxLagAtNanos() / 1e9);
            if (l.maxLagCpuShare() >= 0) {
                lag.put("loadThreadCpuShare", Math.round(l.maxLagCpuShare() * 1e4) / 1e4);
            } else {
                lag.putNull("loadThreadCpuShare");
            }
        } else {
            replay.putNull("largestLag");
        }
    }

    private static void putSeconds(ObjectNode node, String name, double v) {
        if (Double.isNaN(v)) {
            node.putNull(name);
        } else {
            node.put(name, Math.round(v * 1e6) / 1e6);
        }
    }

    private static long sum(Map<String, Long> m) {
        return m.values().stream().mapToLong(Long::longValue).sum();
    }

    static String seconds(double s) {
        return Double.isNaN(s) ? "n/a" : String.format(Locale.ROOT, "%.3f", s);
    }

    static String nanosAsSeconds(long nanos) {
        return number(nanos / 1e9);
    }

    static String number(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return java.math.BigDecimal.valueOf(v).setScale(3, java.math.RoundingMode.HALF_UP).stripTrailingZeros().toPlainString();
    }
}
