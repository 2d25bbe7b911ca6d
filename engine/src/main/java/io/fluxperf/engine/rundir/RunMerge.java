package io.fluxperf.engine.rundir;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxperf.engine.UserError;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.ConnectionCounts;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.SendLateness;
import io.fluxperf.engine.metrics.StopReason;
import io.fluxperf.engine.metrics.TcpHealth;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.metrics.WorkloadStats;
import io.fluxperf.engine.report.IntervalLog;
import io.fluxperf.engine.report.JsonResult;
import io.fluxperf.trace.FileErrors;
import io.fluxperf.trace.ParseErrors;
import io.fluxperf.trace.TraceFormatException;
import io.fluxperf.trace.TraceHeader;
import io.fluxperf.trace.TraceReader;
import io.fluxperf.trace.TraceRecord;
import io.fluxperf.trace.TraceWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * One run directory from runs made at the same time on several machines ({@code fluxperf merge}):
 * counts add exactly, histograms add losslessly (HdrHistogram's {@code add}), nothing is averaged.
 * Window N of every input makes window N of the merge (the inputs ran the same config together, so
 * their windows overlap in wall-clock time, which is checked); seconds line up by their window and
 * their place in it; traces are copied into one, their times moved onto one clock by each trace's
 * own clock origin. A merged directory reads like any other ({@code report}, {@code compare}).
 *
 * <p>Inputs must share their config (config.toml's hash) and overlap in time; a merge of a
 * sharded run ({@code merge OUT/RUN_ID}) gives its inputs the same way and adds its own fields.
 * Replays' directories merge the same way, with their fidelity and report made by the replay
 * module ({@link CommandMerge}); a run and a replay are never merged together.
 */
public final class RunMerge {
    private final ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private final List<RunDirectory> inputs;

    private RunMerge(List<RunDirectory> inputs) {
        this.inputs = inputs;
    }

    /**
     * Checks the inputs: each a run directory, all of one config, all overlapping in time.
     *
     * @throws UserError naming the input that does not fit
     */
    public static RunMerge of(List<Path> dirs) {
        if (dirs.size() < 2) {
            throw new UserError("merge: give at least two run directories to merge, not " + dirs.size());
        }
        List<RunDirectory> inputs = new ArrayList<>();
        for (Path d : dirs) {
            inputs.add(RunDirectory.open(d));
        }
        refuseTheSameRunTwice(inputs);
        RunDirectory first = inputs.get(0);
        for (RunDirectory in : inputs) {
            if (!"run".equals(in.command()) && !"replay".equals(in.command())) {
                throw new UserError("merge: " + in.directory() + " was written by '" + in.command()
                        + "'; merge takes run directories of 'run', of 'replay' and of merges");
            }
            if (!in.command().equals(first.command())) {
                throw new UserError("merge: " + in.directory() + " was written by '" + in.command() + "' and "
                        + first.directory() + " by '" + first.command() + "'; merge runs with runs and replays with replays");
            }
            if (!in.configHash().equals(first.configHash())) {
                throw new UserError("merge: " + in.directory() + " ran another config than " + first.directory()
                        + " (their config.toml differ); merge only runs of one config");
            }
            if ("failed".equals(in.result().path("stopReason").asText())) {
                throw new UserError("merge: " + in.directory() + " is the record of a run that failed ("
                        + in.result().path("error").asText() + ")");
            }
        }
        long start = Long.MIN_VALUE;
        long end = Long.MAX_VALUE;
        for (RunDirectory in : inputs) {
            start = Math.max(start, in.result().path("startEpochMs").asLong());
            end = Math.min(end, in.result().path("endEpochMs").asLong());
        }
        if (start >= end) {
            for (RunDirectory in : inputs) {
                long s = in.result().path("startEpochMs").asLong();
                long e = in.result().path("endEpochMs").asLong();
                for (RunDirectory other : inputs) {
                    if (other != in && (e <= other.result().path("startEpochMs").asLong()
                            || s >= other.result().path("endEpochMs").asLong())) {
                        throw new UserError("merge: " + in.directory() + " ran at another time than " + other.directory()
                                + " (their measured windows do not overlap); merge runs made together");
                    }
                }
            }
            throw new UserError("merge: the inputs' measured windows do not all overlap; merge runs made together");
        }
        return new RunMerge(inputs);
    }

    /**
     * One run given twice would count every request twice: the same directory (by any path), the
     * same agent of a sharded run (run id and shard), or a copy of one run's record (the same
     * result.json, byte for byte: no two runs end with the same figures to the nanosecond).
     */
    private static void refuseTheSameRunTwice(List<RunDirectory> inputs) {
        for (int i = 0; i < inputs.size(); i++) {
            for (int j = 0; j < i; j++) {
                RunDirectory a = inputs.get(j);
                RunDirectory b = inputs.get(i);
                String same = sameRun(a, b);
                if (same != null) {
                    throw new UserError("merge: " + b.directory() + " is " + same + " " + a.directory()
                            + ", so merging would count its requests twice; give each run once");
                }
            }
        }
    }

    /** How {@code b} is the same run as {@code a}, in words, or null when it is another. */
    private static String sameRun(RunDirectory a, RunDirectory b) {
        try {
            if (Files.isSameFile(a.directory(), b.directory())) {
                return "the same directory as";
            }
        } catch (IOException e) {
            // both were read a moment ago; a path that cannot be compared is compared by content below
        }
        JsonNode sa = a.result().path("shard");
        JsonNode sb = b.result().path("shard");
        if (sa.isObject() && sb.isObject() && sa.path("runId").asText().equals(sb.path("runId").asText())
                && sa.path("index").asInt(-1) == sb.path("index").asInt(-2)) {
            return "shard " + sb.path("index").asInt() + " of run " + sb.path("runId").asText() + ", as is";
        }
        if (java.util.Arrays.equals(a.resultBytes(), b.resultBytes())) {
            return "a copy of";
        }
        return null;
    }

    /** The inputs, read. */
    public List<RunDirectory> inputs() {
        return inputs;
    }

    /** The command whose directories these are: run or replay (all inputs share it). */
    public String command() {
        return inputs.get(0).command();
    }

    /**
     * What a merge of another command's directories adds to the run's: a replay's fidelity and its
     * report, which the replay module knows (the engine does not reach up into it).
     */
    public interface CommandMerge {
        /** The merged run as the command reports it (a replay: its span as its window, its schedule's keeping). */
        RunResult shown(RunResult merged);

        /** The command's JSON result of {@code shown} (what its {@code --json} writes), for result.json. */
        JsonResult jsonResult(RunResult shown);

        /** The merged directory's report.txt, once its result.json and logs are written. */
        String report(RunDirectory merged, RunResult shown);
    }

    /**
     * Writes the merged run directory.
     *
     * @param extra sections to add to result.json (a sharded run's "shards"), in order; none: empty
     * @throws UserError naming --out when it cannot be written
     */
    public void write(Path out, boolean overwrite, List<String> commandLine, Map<String, ?> extra) {
        write(out, overwrite, commandLine, extra, null);
    }

    /**
     * Writes the merged run directory.
     *
     * @param extra   sections to add to result.json (a sharded run's "shards"), in order; none: empty
     * @param command what a replay's merge adds ({@link CommandMerge}); null for runs
     * @throws UserError naming --out when it cannot be written
     */
    public void write(Path out, boolean overwrite, List<String> commandLine, Map<String, ?> extra, CommandMerge command) {
        if (command == null && !"run".equals(command())) {
            throw new IllegalStateException("a merge of '" + command() + "' directories needs that command's merge");
        }
        RunDirectory first = inputs.get(0);
        RunConfig config = command == null ? together(first.config(), inputs.size()) : first.config();
        String configToml = command == null ? EffectiveConfig.toml(config) : first.configToml();
        List<ReportRebuild.Restored> restored = new ArrayList<>();
        for (RunDirectory in : inputs) {
            restored.add(ReportRebuild.restore(in));
        }
        List<JsonNode> inputEnvironments = new ArrayList<>();
        for (RunDirectory in : inputs) {
            inputEnvironments.add(environment(in));
        }
        RunDirectoryWriter.prepareDirectory(out, overwrite, "--out");
        try {
            Files.writeString(out.resolve(RunFiles.CONFIG), configToml, StandardCharsets.UTF_8);
            int windowCount = restored.stream().mapToInt(r -> r.windows().size()).max().orElse(0);
            List<WindowResult> windows = new ArrayList<>();
            for (int w = 0; w < windowCount; w++) {
                List<WindowResult> parts = new ArrayList<>();
                for (ReportRebuild.Restored r : restored) {
                    if (w < r.windows().size()) {
                        parts.add(r.windows().get(w));
                    }
                }
                windows.add(sum(w + 1, parts, config));
            }
            List<WindowResult> totals = restored.stream().map(r -> r.result().total()).toList();
            WindowResult total = sum(0, totals, config);
            long preloaded = restored.stream().mapToLong(r -> r.result().preloadedKeys()).sum();
            RunResult merged = new RunResult(config, target(), windows, total, stopReason(restored), preloaded,
                    List.of(), List.of(), SendLateness.NONE);
            List<String> tags = RunFiles.workloadTags(config.workloads());
            long base = Math.floorDiv(windows.isEmpty() ? total.startNanos() : windows.get(0).startNanos(), 1_000_000L);
            try (IntervalLog log = IntervalLog.create(out.resolve(RunFiles.WINDOWS), base,
                    "fluxperf: merged from " + inputs.size() + " runs; one interval per window, ns; tags as in a run's windows.hlog")) {
                for (WindowResult w : windows) {
                    RunDirectoryWriter.writeWindow(log, w, tags, w.startNanos(), w.endNanos());
                }
            }
            writeSeconds(out, base, windows);
            ObjectNode trace = mergeTraces(out);
            RunResult shown = command == null ? merged : command.shown(merged);
            // a run's merged config is the agents' together (rates summed), so its hash is the new config.toml's
            JsonResult json = command == null
                    ? RunDirectoryWriter.result(JsonResult.of(merged), "run", RunDirectory.hash(configToml), n -> n,
                    events(restored), errors(), trace, null)
                    : RunDirectoryWriter.result(command.jsonResult(shown), command(), first.configHash(), n -> n,
                    events(restored), errors(), trace, null);
            json.section("mergedFrom", inputs.stream().map(in -> in.directory().toString()).toList());
            extra.forEach(json::section);
            ObjectNode trust = mergedTrust();
            if (trust != null) {
                json.section("trust", trust);
            }
            RunDirectoryWriter.writeResult(out, json);
            ObjectNode env = RunEnvironment.describe(mapper, commandLine, System.currentTimeMillis());
            ArrayNode inputEnvs = env.putArray("inputs");
            inputEnvironments.forEach(inputEnvs::add);
            mapper.writeValue(out.resolve(RunFiles.ENVIRONMENT).toFile(), env);
            RunDirectory written = RunDirectory.open(out);
            Files.writeString(out.resolve(RunFiles.REPORT),
                    command == null ? written.reportText() : command.report(written, shown), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UserError("--out: cannot write the merged run directory " + out + ": " + FileErrors.describe(e), e);
        }
    }

    /** An input's environment.json, read before anything is written; null when it has none. */
    private JsonNode environment(RunDirectory in) {
        Path e = in.directory().resolve(RunFiles.ENVIRONMENT);
        if (!Files.exists(e)) {
            return mapper.nullNode();
        }
        try {
            return mapper.readTree(e.toFile());
        } catch (JacksonException x) {
            throw new UserError(e + " is not valid JSON (" + ParseErrors.describe(x) + "); the directory is damaged", x);
        } catch (IOException x) {
            throw new UserError(e + ": cannot read: " + FileErrors.describe(x), x);
        }
    }

    /** The windows of several machines added: counts and histograms summed, the span from the first start to the last end. */
    /**
     * The config of {@code agents} runs of {@code each} made together: every rate and a request
     * count are the agents' sum (a sharded run's agents each ran 1/N of them), so that the merged
     * report shows the run's rate, and its config.toml runs that rate on one machine.
     */
    static RunConfig together(RunConfig each, int agents) {
        if (agents == 1) {
            return each;
        }
        List<WorkloadConfig> workloads = new ArrayList<>();
        for (WorkloadConfig w : each.workloads()) {
            workloads.add(w.isRated() ? w.withRate(w.rate() * agents) : w);
        }
        return each.toBuilder().workloads(workloads).requests(each.requests() * agents).build();
    }

    static WindowResult sum(int number, List<WindowResult> parts, RunConfig config) {
        List<WorkloadStats> workloads = new ArrayList<>();
        for (int i = 0; i < config.workloads().size(); i++) {
            workloads.add(new WorkloadStats());
        }
        WorkloadStats total = new WorkloadStats();
        ConnectionCounts connections = new ConnectionCounts();
        Histogram lag = WorkloadStats.newHistogram();
        Histogram connect = WorkloadStats.newHistogram();
        TcpHealth tcp = new TcpHealth();
        long start = Long.MAX_VALUE;
        long end = Long.MIN_VALUE;
        long cpu = 0;
        List<Long> loops = new ArrayList<>();
        for (WindowResult w : parts) {
            for (int i = 0; i < workloads.size(); i++) {
                workloads.get(i).add(w.workloads().get(i));
            }
            total.add(w.total());
            connections.add(w.connections()); // open connections add up too: each machine holds its own
            lag.add(w.sendLag());
            connect.add(w.connectLatency());
            tcp.add(w.tcp());
            start = Math.min(start, w.startNanos());
            end = Math.max(end, w.endNanos());
            cpu = cpu < 0 || w.cpuNanos() < 0 ? -1 : cpu + w.cpuNanos();
            for (long n : w.loopCpuNanos()) {
                loops.add(n); // each machine's load threads, side by side: the busiest stays the busiest
            }
        }
        long[] loopCpu = loops.stream().mapToLong(Long::longValue).toArray();
        return new WindowResult(number, start, end, config.workloads(), workloads, total, connections, lag, connect, cpu,
                loopCpu).withTcp(tcp);
    }

    /** Each second of the merge: the inputs' seconds of the same window and place in it, added. */
    private void writeSeconds(Path out, long base, List<WindowResult> windows) throws IOException {
        Map<Long, Map<String, Histogram>> byKey = new TreeMap<>();
        Map<Long, long[]> bounds = new TreeMap<>();
        for (RunDirectory in : inputs) {
            JsonNode ws = in.result().path("windows");
            long origin = in.result().path("startEpochMs").asLong();
            Map<Integer, Integer> seen = new LinkedHashMap<>();
            for (RunDirectory.Interval s : in.secondIntervals()) {
                long middle = (s.startEpochMs() + s.endEpochMs()) / 2;
                int window = 0;
                for (int w = 0; w < ws.size(); w++) {
                    long ws0 = origin + ws.get(w).path("start").asLong() / 1_000_000L;
                    long ws1 = origin + ws.get(w).path("end").asLong() / 1_000_000L;
                    if (middle >= ws0 && middle <= ws1 + 1) {
                        window = w;
                        break;
                    }
                    if (middle > ws1) {
                        window = w + 1 < ws.size() ? w + 1 : w;
                    }
                }
                int place = seen.merge(window, 1, Integer::sum) - 1;
                long key = ((long) window << 32) | place;
                Map<String, Histogram> sum = byKey.computeIfAbsent(key, k -> new LinkedHashMap<>());
                for (Map.Entry<String, Histogram> e : s.histograms().entrySet()) {
                    Histogram h = sum.get(e.getKey());
                    if (h == null) {
                        sum.put(e.getKey(), e.getValue().copy());
                    } else {
                        h.add(e.getValue());
                    }
                }
                long[] b = bounds.computeIfAbsent(key, k -> new long[] {Long.MAX_VALUE, Long.MIN_VALUE});
                b[0] = Math.min(b[0], s.startEpochMs());
                b[1] = Math.max(b[1], s.endEpochMs());
            }
        }
        try (IntervalLog log = IntervalLog.create(out.resolve(RunFiles.SECONDS), base,
                "fluxperf: merged from " + inputs.size() + " runs; one interval per second, ns; tags as in windows.hlog")) {
            for (Map.Entry<Long, Map<String, Histogram>> e : byKey.entrySet()) {
                long[] b = bounds.get(e.getKey());
                Map<String, Histogram> h = e.getValue();
                Histogram untagged = h.get("");
                if (untagged != null) {
                    log.interval(b[0] * 1_000_000L, b[1] * 1_000_000L, null, untagged);
                }
                for (Map.Entry<String, Histogram> t : h.entrySet()) {
                    if (!t.getKey().isEmpty()) {
                        log.interval(b[0] * 1_000_000L, b[1] * 1_000_000L, t.getKey(), t.getValue());
                    }
                }
            }
        }
    }

    /** What the report's config echo names: the inputs' target when they share one, else all of them. */
    private String target() {
        List<String> targets = new ArrayList<>();
        for (RunDirectory in : inputs) {
            String t = in.result().path("target").asText(null);
            if (t != null && !targets.contains(t)) {
                targets.add(t);
            }
        }
        return targets.isEmpty() ? null : String.join(" + ", targets);
    }

    private static StopReason stopReason(List<ReportRebuild.Restored> restored) {
        for (ReportRebuild.Restored r : restored) {
            if (r.result().stopReason() != StopReason.COMPLETED) {
                return r.result().stopReason();
            }
        }
        return StopReason.COMPLETED;
    }

    /**
     * The report's steps for the merge: the first input's, with connections and preloads summed,
     * every window once, and no statistics blocks (their percentiles cannot be added).
     */
    private ArrayNode events(List<ReportRebuild.Restored> restored) {
        ArrayNode events = mapper.createArrayNode();
        for (JsonNode e : inputs.get(0).result().path("events")) {
            String name = e.path("event").asText();
            switch (name) {
                case "connected" -> {
                    ObjectNode c = events.addObject();
                    c.put("event", name);
                    c.put("open", sumFirst("connected", "open"));
                    c.put("failures", sumFirst("connected", "failures"));
                }
                case "preloaded" -> {
                    ObjectNode p = events.addObject();
                    p.put("event", name);
                    p.put("keys", sumFirst("preloaded", "keys"));
                    p.put("failed", sumFirst("preloaded", "failed"));
                    p.put("seconds", e.path("seconds").asDouble());
                }
                case "stats", "waterfall", "floor", "windowTrust", "trust" -> {
                    // not made again for a merge: a floor, pauses and intervals are each machine's own
                }
                case "trustVerdict" -> {
                    if (inputs.stream().allMatch(in -> in.result().path("trust").has("flags"))) {
                        events.add(e.deepCopy());
                    }
                }
                case "finished" -> {
                    if (inputs.stream().allMatch(in -> has(in, "finished"))) {
                        events.add(e.deepCopy());
                    }
                }
                default -> events.add(e.deepCopy());
            }
        }
        return events;
    }

    /**
     * A merge's trust: it trusts its figures no more than its least trusted input, so its flags are
     * every input's; null when an input has no verdict.
     */
    private ObjectNode mergedTrust() {
        java.util.EnumSet<io.fluxperf.engine.trust.TrustVerdict.Flag> flags =
                java.util.EnumSet.noneOf(io.fluxperf.engine.trust.TrustVerdict.Flag.class);
        for (RunDirectory in : inputs) {
            JsonNode t = in.result().path("trust");
            if (!t.has("flags")) {
                return null;
            }
            t.path("flags").forEach(f -> flags.add(io.fluxperf.engine.trust.TrustVerdict.Flag.ofLabel(f.asText())));
        }
        io.fluxperf.engine.trust.TrustVerdict v = new io.fluxperf.engine.trust.TrustVerdict(flags);
        ObjectNode n = mapper.createObjectNode();
        n.put("verdict", v.text());
        ArrayNode a = n.putArray("flags");
        v.ordered().forEach(f -> a.add(f.label()));
        n.put("merged", true);
        return n;
    }

    private static boolean has(RunDirectory in, String event) {
        for (JsonNode e : in.result().path("events")) {
            if (event.equals(e.path("event").asText())) {
                return true;
            }
        }
        return false;
    }

    /** The sum over the inputs of {@code field} of each one's first {@code event}. */
    private long sumFirst(String event, String field) {
        long sum = 0;
        for (RunDirectory in : inputs) {
            for (JsonNode e : in.result().path("events")) {
                if (event.equals(e.path("event").asText())) {
                    sum += e.path(field).asLong();
                    break;
                }
            }
        }
        return sum;
    }

    /**
     * The inputs' errors added: counts summed, messages with their counts summed; the hint of a
     * server of another kind when every input has it (not one reply of the whole could be read).
     */
    private ObjectNode errors() {
        ObjectNode sum = null;
        String hint = null;
        boolean everyHint = true;
        for (RunDirectory in : inputs) {
            JsonNode e = in.result().path("errors");
            everyHint &= e.path("hint").isTextual();
            if (hint == null && e.path("hint").isTextual()) {
                hint = e.path("hint").asText();
            }
            if (!e.isObject()) {
                continue;
            }
            if (sum == null) {
                sum = mapper.createObjectNode();
                sum.put("protocol", 0L);
                sum.put("connection", 0L);
                sum.put("request", 0L);
                sum.putObject("messages");
            }
            for (String f : List.of("protocol", "connection", "request")) {
                sum.put(f, sum.path(f).asLong() + e.path(f).asLong());
            }
            ObjectNode messages = (ObjectNode) sum.get("messages");
            Iterator<Map.Entry<String, JsonNode>> it = e.path("messages").fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> m = it.next();
                messages.put(m.getKey(), messages.path(m.getKey()).asLong() + m.getValue().asLong());
            }
        }
        if (sum != null && everyHint && hint != null) {
            sum.put("hint", hint);
        }
        return sum;
    }

    /**
     * The inputs' traces as one, in {@code out/trace}: every record copied, its times moved from its
     * trace's origin to the first trace's by the origins' wall-clock times; null when an input has
     * no trace.
     */
    private ObjectNode mergeTraces(Path out) {
        List<Path> traces = new ArrayList<>();
        for (RunDirectory in : inputs) {
            Path t = in.directory().resolve(RunFiles.TRACE);
            if (!Files.isDirectory(t)) {
                return null;
            }
            traces.add(t);
        }
        Path merged = out.resolve(RunFiles.TRACE);
        TraceHeader h0;
        try (TraceReader first = TraceReader.open(traces.get(0))) {
            h0 = first.header();
        } catch (TraceFormatException e) {
            throw new UserError("merge: " + e.getMessage(), e);
        }
        TraceHeader header = TraceHeader.builder().fluxperfVersion(h0.fluxperfVersion()).configJson(h0.configJson())
                .clockOrigin(h0.clockOriginEpochNanos(), h0.clockOriginMonotonicNanos())
                .workloads(h0.workloads()).commands(h0.commands()).protocols(h0.protocols()).build();
        long lost = 0;
        boolean failed = false;
        TraceWriter writer;
        try {
            writer = TraceWriter.open(merged, header);
        } catch (TraceFormatException e) {
            throw new UserError("--out: " + e.getMessage(), e);
        }
        try (TraceWriter w = writer) {
            TraceRecord r = new TraceRecord();
            for (Path t : traces) {
                try (TraceReader reader = TraceReader.open(t)) {
                    TraceHeader h = reader.header();
                    // record times count from their trace's origin: the origins' wall-clock times give the move
                    long shift = h.clockOriginEpochNanos() - h0.clockOriginEpochNanos();
                    while (reader.next(r)) {
                        r.intendedSendNanos(r.intendedSendNanos() + shift).actualSendNanos(r.actualSendNanos() + shift)
                                .completionNanos(r.completionNanos() + shift);
                        if (!h.workloads().equals(h0.workloads()) || !h.commands().equals(h0.commands())) {
                            r.workload(h0.workloadCode(h.workloadName(r.workload())));
                            r.command(h0.commandCode(h.commandName(r.command())));
                        }
                        w.append(r);
                    }
                    lost += reader.footer().map(f -> f.recordsLost()).orElse(0L);
                } catch (TraceFormatException e) {
                    throw new UserError("merge: " + e.getMessage(), e);
                }
            }
            w.flush();
            failed = w.failed();
        }
        ObjectNode node = mapper.createObjectNode();
        node.put("directory", merged.toString());
        node.put("records", writer.recordsWritten());
        node.put("lost", lost + writer.recordsLost());
        node.put("failed", failed);
        node.put("failure", writer.failure().orElse(null));
        return node;
    }
}
