package io.fluxperf.replay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxperf.engine.UserError;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.log.LogFormat;
import io.fluxperf.engine.metrics.LatencySummary;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.SendLateness;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.report.JsonResult;
import io.fluxperf.engine.rundir.RunDirectory;
import io.fluxperf.engine.rundir.RunMerge;
import io.fluxperf.engine.run.TextRunReport;
import io.fluxperf.engine.trust.TrustJson;
import io.fluxperf.engine.trust.WindowTrust;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Replays' run directories as one ({@code fluxperf merge}; a sharded replay's {@code OUT/RUN_ID}):
 * {@link RunMerge} adds their counts and histograms as for runs; this adds the fidelity and the
 * report. Each agent reads the whole log and replays its own clients, so the log's own figures
 * (lines read, commands read, bad, skipped, late lines, the original and expected durations) are
 * the same on every agent and taken once, checked to agree; what each agent sent adds up: the
 * commands per verb, late and paced sends; the largest lag is the largest of any agent, the
 * stretches behind are joined where they overlap on the log's timeline, and the replay's duration
 * is the span from the first agent's start to the last one's end.
 *
 * <p>The report is made as a replay prints its own: the config echo the agents printed (the same
 * on each), then the merged windows and total through {@code run}'s text, with the replay's
 * schedule lines and its fidelity block.
 */
public final class ReplayMerge implements RunMerge.CommandMerge {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String FELL_BEHIND = "fell ";

    private final List<RunDirectory> inputs;
    private final List<JsonNode> replays;
    private ReplayResult result;

    private ReplayMerge(List<RunDirectory> inputs, List<JsonNode> replays) {
        this.inputs = inputs;
        this.replays = replays;
    }

    /**
     * The merge of {@code inputs}, checked to be replays of one log made alike.
     *
     * @throws UserError naming the input whose replay differs, or that has no replay figures
     */
    public static ReplayMerge of(List<RunDirectory> inputs) {
        List<JsonNode> replays = new ArrayList<>();
        for (RunDirectory in : inputs) {
            JsonNode r = in.result().path("replay");
            if (!r.isObject()) {
                throw new UserError("merge: " + in.directory() + " has no replay figures (result.json's \"replay\");"
                        + " the replay may have failed before its end");
            }
            replays.add(r);
        }
        JsonNode first = replays.get(0);
        for (int i = 1; i < replays.size(); i++) {
            JsonNode r = replays.get(i);
            for (String[] f : new String[][] {{"format"}, {"speed"}, {"loops"}, {"lines", "read"}, {"lines", "commands"}}) {
                JsonNode a = f.length == 1 ? first.path(f[0]) : first.path(f[0]).path(f[1]);
                JsonNode b = f.length == 1 ? r.path(f[0]) : r.path(f[0]).path(f[1]);
                if (!a.equals(b)) {
                    throw new UserError("merge: " + inputs.get(i).directory() + " replayed another log or at another"
                            + " pace than " + inputs.get(0).directory() + " (" + String.join(" ", f) + " " + b.asText()
                            + ", not " + a.asText() + "); merge the agents of one replay");
                }
            }
        }
        return new ReplayMerge(inputs, replays);
    }

    @Override
    public RunResult shown(RunResult merged) {
        RunConfig c = merged.config();
        // as a replay shows its run: one window is the replay's own length, not the placeholder's
        Duration window = c.windows() == 1 ? Duration.ofNanos(merged.total().endNanos() - merged.total().startNanos())
                : c.duration();
        RunConfig config = c.toBuilder().duration(window.isZero() || window.isNegative() ? Duration.ofNanos(1) : window)
                .windows(Math.max(1, merged.windows().size())).build();
        List<SendLateness> agents = new ArrayList<>();
        for (int i = 0; i < inputs.size(); i++) {
            agents.add(lateness(replays.get(i), inputs.get(i).result().path("total").path("requests").asLong()));
        }
        RunResult shown = new RunResult(config, merged.target(), merged.windows(), merged.total(), merged.stopReason(),
                merged.preloadedKeys(), List.of(), List.of(), SendLateness.merge(agents));
        result = replayResult(shown);
        return shown;
    }

    @Override
    public JsonResult jsonResult(RunResult shown) {
        return ReplayReport.jsonResult(result);
    }

    @Override
    public String report(RunDirectory merged, RunResult shown) {
        Path printed = inputs.get(0).directory().resolve("report.txt");
        String echo;
        try {
            echo = ReplayReport.printedEcho(Files.readString(printed, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UserError("merge: cannot read " + printed + ": " + e.getMessage(), e);
        }
        if (echo == null) {
            throw new UserError("merge: " + printed + " does not start with a replay's config echo");
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        Text text = new Text(out, echo);
        text.mergedFrom(merged.result().path("mergedFrom").size());
        ReplayReport replay = new ReplayReport(out);
        for (JsonNode e : merged.result().path("events")) {
            switch (e.path("event").asText()) {
                case "starting" -> text.starting(merged.config(), shown.target());
                case "connected" -> text.connected(e.path("open").asLong(), e.path("failures").asLong());
                case "warmupComplete" -> text.warmupComplete();
                case "window" -> {
                    WindowResult w = shown.windows().get(e.path("number").asInt() - 1);
                    text.window(w);
                    replay.scheduleLines(w, true);
                }
                case "finished" -> {
                    text.summary(shown);
                    replay.scheduleLines(shown.total(), false);
                    if (merged.traceLine() != null) {
                        out.println(merged.traceLine());
                    }
                    if (merged.errorsLine() != null) {
                        out.println(merged.errorsLine());
                    }
                    replay.fidelity(result, ReplayReport.echoNotes(echo));
                }
                case "objectives" -> text.objectives(merged.verdicts(merged.config().objectives()));
                default -> {
                    // an agent's own steps (a late start, its statistics blocks) are not the merge's
                }
            }
        }
        out.flush();
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /** The replay's figures of the merge: the log's from the first agent, what was sent added up. */
    private ReplayResult replayResult(RunResult shown) {
        JsonNode first = replays.get(0);
        LogFormat format = LogFormats.parse(first.path("format").asText());
        if (format == null) {
            throw new UserError("merge: " + inputs.get(0).directory() + " replayed a log of format '"
                    + first.path("format").asText() + "', which this fluxperf does not read");
        }
        long[] lag = null;
        if (shown.total().sendLag().getTotalCount() > 0) {
            LatencySummary l = shown.total().summaries().sendLag();
            lag = new long[] {l.p50(), l.p99(), l.max()};
        }
        Map<String, Long> commands = new LinkedHashMap<>();
        List<String> notes = new ArrayList<>();
        String failure = null;
        OriginalReplies original = null;
        for (JsonNode r : replays) {
            JsonNode o = r.path("originalReplies");
            if (o.isObject()) { // each agent counted what its own clients were answered: they add up
                OriginalReplies mine = new OriginalReplies(o.path("ok").asLong(), o.path("miss").asLong(),
                        o.path("error").asLong(), o.path("unknown").asLong(), o.path("readHits").asLong(),
                        o.path("readMisses").asLong());
                original = original == null ? mine : original.plus(mine);
            }
            r.path("commands").fields().forEachRemaining(c -> commands.merge(c.getKey(), c.getValue().asLong(), Long::sum));
            for (JsonNode n : r.path("notes")) {
                // each agent's note on how far it fell behind gives way to the merge's own
                if (!n.asText().startsWith(FELL_BEHIND) && !notes.contains(n.asText())) {
                    notes.add(n.asText());
                }
            }
            if (failure == null && r.hasNonNull("failure")) {
                failure = r.path("failure").asText();
            }
        }
        if (lag != null) {
            String behind = Replay.fellBehind(shown.lateness());
            if (behind != null) {
                notes.add(behind);
            }
        }
        JsonNode lines = first.path("lines");
        List<String> bad = new ArrayList<>();
        first.path("firstBadLines").forEach(b -> bad.add(b.asText()));
        return new ReplayResult(shown, first.path("log").asText(), format, first.path("protocol").asText(),
                first.path("speed").asText(), first.path("loops").asInt(1), lag, seconds(first.path("originalSeconds")),
                shown.total().seconds(), seconds(first.path("expectedSeconds")), commands, lines.path("commands").asLong(),
                lines.path("read").asLong(), lines.path("bad").asLong(), bad, counts(first.path("skipped")),
                lines.path("filtered").asLong(), lines.path("late").asLong(), counts(first.path("adjusted")), notes,
                failure, !shown.config().warmup().isZero(), List.of(), original, limit(shown, first));
    }

    /**
     * The agents' commands in flight and what held them back: one agent's as it wrote it (so that
     * its report made again is the one it printed), several agents' from their figures added up.
     */
    private ReplayLimit limit(RunResult shown, JsonNode first) {
        if (replays.size() == 1) {
            return ReplayReport.readLimit(first);
        }
        long readerWait = 0;
        long peak = 0;
        long budget = 0;
        for (JsonNode r : replays) {
            JsonNode f = r.path("inFlight");
            readerWait += f.path("readerWaitNanos").asLong();
            peak += f.path("readAheadPeakBytes").asLong();
            budget += f.path("readAheadBudgetBytes").asLong();
        }
        // any agent's client limits are the replay's: each agent's windows as its trust found them
        List<WindowTrust> trust = new ArrayList<>();
        for (RunDirectory in : inputs) {
            JsonNode t = in.result().path("trust");
            if (t.isObject()) {
                trust.addAll(TrustJson.read(t).windows());
            }
        }
        return ReplayLimit.of(shown, "max".equals(first.path("speed").asText()), readerWait, peak, budget, trust);
    }

    /**
     * One agent's keeping of its schedule, read back from its "replay" object; {@code requests}
     * stands for the paced sends of a directory written before they were recorded.
     */
    static SendLateness lateness(JsonNode replay, long requests) {
        if (!replay.path("lateSends").isNumber()) {
            return SendLateness.NONE; // --speed max: no schedule
        }
        long late = replay.path("lateSends").asLong();
        double share = replay.path("lateShare").asDouble();
        long paced = replay.path("pacedSends").isNumber() ? replay.path("pacedSends").asLong()
                : share > 0 ? Math.round(late / share) : requests;
        JsonNode behind = replay.path("longestBehind");
        JsonNode largest = replay.path("largestLag");
        return new SendLateness(paced, late, behind.path("nanos").asLong(0), nanos(behind.path("startReplaySeconds"), 0),
                nanos(behind.path("startLogSeconds"), -1), largest.path("nanos").asLong(0),
                nanos(largest.path("atReplaySeconds"), 0), nanos(largest.path("atLogSeconds"), -1),
                largest.path("loadThreadCpuShare").isNumber() ? largest.path("loadThreadCpuShare").asDouble() : -1);
    }

    private static long nanos(JsonNode seconds, long absent) {
        return seconds.isNumber() ? Math.round(seconds.asDouble() * 1e9) : absent;
    }

    private static double seconds(JsonNode n) {
        return n.isNumber() ? n.asDouble() : Double.NaN;
    }

    private static Map<String, Long> counts(JsonNode n) {
        Map<String, Long> out = new LinkedHashMap<>();
        n.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asLong()));
        return out;
    }

    /** {@code run}'s text with the echo the agents printed. */
    private static final class Text extends TextRunReport {
        private final String echo;

        Text(PrintStream out, String echo) {
            super(out, new PrintStream(OutputStream.nullOutputStream()), false);
            this.echo = echo;
        }

        @Override
        protected void echoConfig(RunConfig config, String target) {
            out.print(echo);
        }

        void summary(RunResult r) {
            text.summary(r);
        }
    }
}
