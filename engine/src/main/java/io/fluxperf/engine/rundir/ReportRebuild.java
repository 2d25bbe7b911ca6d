package io.fluxperf.engine.rundir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxperf.engine.UserError;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.load.RunErrors;
import io.fluxperf.engine.metrics.ConnectionCounts;
import io.fluxperf.engine.metrics.HitrateWarmup;
import io.fluxperf.engine.metrics.IntervalSample;
import io.fluxperf.engine.metrics.OutcomeCounts;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.StopReason;
import io.fluxperf.engine.metrics.TcpHealth;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.metrics.WorkloadStats;
import io.fluxperf.engine.protocol.Protocol;
import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.engine.protocol.ReplyClasses;
import io.fluxperf.engine.request.Outcome;
import io.fluxperf.engine.run.TextRunReport;
import io.fluxperf.trace.FileErrors;
import io.fluxperf.trace.TraceWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The text report of a run directory, made again: the run's figures are read back into the
 * engine's own objects (counts from result.json, histograms from windows.hlog, the config from
 * config.toml) and the steps the run reported (result.json's {@code events}) go through the same
 * {@link TextRunReport} in the same order, so that the text equals what the run printed, byte
 * for byte. A new kind of line in the run's report needs its event here too.
 */
final class ReportRebuild {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private ReportRebuild() {
    }

    /**
     * A replay's report as it printed it: its fidelity and log-position blocks are not in
     * result.json's events, so report.txt, written as the replay printed, is the record.
     */
    private static String printedReport(RunDirectory dir) {
        Path file = dir.directory().resolve(RunFiles.REPORT);
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UserError(file + ": cannot read the report '" + dir.command() + "' printed: "
                    + FileErrors.describe(e), e);
        }
    }

    static String text(RunDirectory dir) {
        if (!"run".equals(dir.command())) {
            return printedReport(dir);
        }
        JsonNode r = dir.result();
        RunConfig config = dir.config();
        Restored restored = restore(dir);
        Map<Integer, WindowResult> windows = new LinkedHashMap<>();
        for (WindowResult w : restored.windows()) {
            windows.put(w.number(), w);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        TextRunReport report = new TextRunReport(out, new PrintStream(OutputStream.nullOutputStream()), false)
                .mergedFrom(r.path("mergedFrom").size());
        for (JsonNode e : r.path("events")) {
            switch (e.path("event").asText()) {
                case "floor" -> report.floor(io.fluxperf.engine.trust.TrustJson.floor(e.path("floor")));
                case "windowTrust" -> report.windowTrust(windowTrust(dir, r, e.path("window").asInt()));
                case "trust" -> report.trust(io.fluxperf.engine.trust.TrustJson.read(r.path("trust")));
                case "trustVerdict" -> report.trustVerdict(io.fluxperf.engine.trust.TrustJson.read(r.path("trust")).verdict());
                case "starting" -> report.starting(config, r.path("target").isNull() ? null : r.path("target").asText());
                case "connected" -> report.connected(e.path("open").asLong(), e.path("failures").asLong());
                case "flushed" -> report.flushed();
                case "preloaded" -> report.preloaded(e.path("keys").asLong(), e.path("failed").asLong(),
                        e.path("seconds").asDouble());
                case "warmupComplete" -> report.warmupComplete();
                case "warmupEnded" -> report.warmupEnded(new HitrateWarmup(e.path("targetPercent").asDouble(),
                        e.path("hitratePercent").isNull() ? null : e.path("hitratePercent").asDouble(),
                        e.path("seconds").asDouble(), e.path("boundSeconds").asDouble(), e.path("reached").asBoolean()));
                case "stats" -> report.stats(interval(dir, e.path("interval").asInt()));
                case "window" -> report.window(windows.get(e.path("number").asInt()));
                case "finished" -> report.finished(restored.result(), traceLine(r.path("trace")),
                        errorsLine(r.path("errors")));
                case "objectives" -> report.objectives(verdicts(restored, config.objectives()));
                case "waterfall" -> report.waterfallWritten(Path.of(e.path("file").asText()), e.path("requests").asLong());
                case "startedLate" -> report.startedLate(e.path("lateNanos").asLong());
                case "rateChanged" -> report.rateChanged(new io.fluxperf.engine.workload.RateControl.Change(
                        e.path("atNanos").asLong(), e.path("unixMillis").asLong(), e.path("workload").asInt(),
                        e.path("rate").asDouble(), e.path("cause").asText()), e.path("name").asText());
                default -> throw new UserError(dir.directory().resolve(RunFiles.RESULT) + " has an event this fluxperf"
                        + " does not know ('" + e.path("event").asText() + "')");
            }
        }
        out.flush();
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /** A window's trust as result.json keeps it. */
    private static io.fluxperf.engine.trust.WindowTrust windowTrust(RunDirectory dir, JsonNode r, int window) {
        for (JsonNode w : r.path("trust").path("windows")) {
            if (w.path("window").asInt() == window) {
                return io.fluxperf.engine.trust.TrustJson.window(w);
            }
        }
        throw new UserError(dir.directory().resolve(RunFiles.RESULT) + " has no trust for window " + window
                + "; the directory is not whole");
    }

    /**
     * {@code objectives} judged anew over a directory's windows and its whole run, as the run
     * judged them: the same {@link io.fluxperf.engine.slo.ResultFigures} over the same figures, with
     * the run's trust (its seconds widen the whole run's intervals; its verdict is named).
     */
    static io.fluxperf.engine.slo.SloVerdicts verdicts(Restored restored, List<io.fluxperf.engine.slo.Objective> objectives) {
        io.fluxperf.engine.slo.Evaluator.checkWorkloads(objectives,
                restored.config().workloads().stream().map(io.fluxperf.engine.config.WorkloadConfig::name).toList());
        io.fluxperf.engine.slo.SloVerdicts v = new io.fluxperf.engine.slo.SloVerdicts(objectives);
        for (WindowResult w : restored.windows()) {
            v.window(new io.fluxperf.engine.slo.ResultFigures(w, restored.config().workloads()));
        }
        io.fluxperf.engine.slo.ResultFigures total = new io.fluxperf.engine.slo.ResultFigures(restored.result().total(),
                restored.config().workloads());
        if (restored.trust() != null) {
            v.trust(restored.trust().verdict());
            total.withSeconds(restored.trust().seconds());
        }
        v.run(total);
        return v;
    }

    /**
     * A run directory's figures in the engine's own form: its windows and its whole run, with times
     * in ns since the epoch (so that runs of several machines line up).
     */
    record Restored(RunConfig config, List<WindowResult> windows, RunResult result,
                    io.fluxperf.engine.trust.RunTrust trust) {
    }

    static Restored restore(RunDirectory dir) {
        JsonNode r = dir.result();
        RunConfig config = dir.config();
        List<RunDirectory.Interval> logged = dir.windowIntervals();
        JsonNode windowNodes = r.path("windows"); // as many as the log's windows (RunDirectory checked)
        int workloads = r.path("total").path("workloads").size();
        if (workloads != config.workloads().size()) {
            throw new UserError(dir.directory().resolve(RunFiles.CONFIG) + " has " + config.workloads().size()
                    + " workloads and " + dir.directory().resolve(RunFiles.RESULT) + " " + workloads
                    + "; the directory is not whole");
        }
        long origin = r.path("startEpochMs").asLong() * 1_000_000L;
        List<String> tags = RunFiles.workloadTags(config.workloads());
        ReplyClasses classes = replyClasses(config);
        List<WindowResult> windows = new ArrayList<>();
        for (int i = 0; i < windowNodes.size(); i++) {
            windows.add(window(windowNodes.get(i), logged.get(i).histograms(), config, tags, classes, origin));
        }
        JsonNode trust = r.path("trust");
        return new Restored(config, windows, total(r, config, windows, classes, origin),
                trust.isObject() && trust.has("verdict") ? io.fluxperf.engine.trust.TrustJson.read(trust) : null);
    }

    private static RunResult total(JsonNode r, RunConfig config, List<WindowResult> windows, ReplyClasses classes,
                                   long origin) {
        JsonNode t = r.path("total");
        int workloads = config.workloads().size();
        List<Histogram> latency = new ArrayList<>();
        List<Histogram> service = new ArrayList<>();
        for (int i = 0; i < workloads; i++) {
            latency.add(WorkloadStats.newHistogram());
            service.add(WorkloadStats.newHistogram());
        }
        Histogram lag = WorkloadStats.newHistogram();
        Histogram connect = WorkloadStats.newHistogram();
        Histogram rtt = null;
        for (WindowResult w : windows) {
            Histogram sampled = w.tcp().rttMicros();
            if (rtt == null) {
                rtt = sampled;
            } else {
                rtt.add(sampled);
            }
            for (int i = 0; i < workloads; i++) {
                latency.get(i).add(w.workloads().get(i).latency());
                service.get(i).add(w.workloads().get(i).service());
            }
            lag.add(w.sendLag());
            connect.add(w.connectLatency());
        }
        Map<String, Histogram> servers = new LinkedHashMap<>();
        for (WindowResult w : windows) {
            if (w.pool() != null) {
                for (io.fluxperf.engine.metrics.ServerStats s : w.pool().servers()) {
                    servers.computeIfAbsent(s.name(), k -> WorkloadStats.newHistogram()).add(s.latency());
                }
            }
        }
        WindowResult total = withAddenda(withServers(window(t, config, classes, latency, service, lag, connect, rtt, origin), t,
                config, servers::get), t);
        return new RunResult(config, r.path("target").asText(null), windows, total, stopReason(r.path("stopReason").asText()),
                r.path("preloadedKeys").asLong());
    }

    private static WindowResult window(JsonNode w, Map<String, Histogram> h, RunConfig config, List<String> tags,
                                       ReplyClasses classes, long origin) {
        List<Histogram> latency = new ArrayList<>();
        List<Histogram> service = new ArrayList<>();
        for (String tag : tags) {
            latency.add(orEmpty(h.get(RunFiles.tag(tag, RunFiles.INTENDED))));
            service.add(orEmpty(h.get(RunFiles.tag(tag, RunFiles.SERVICE))));
        }
        WindowResult restored = window(w, config, classes, latency, service,
                orEmpty(h.get(RunFiles.tag(RunFiles.ALL_WORKLOADS, RunFiles.SEND_LAG))),
                orEmpty(h.get(RunFiles.tag(RunFiles.ALL_WORKLOADS, RunFiles.CONNECT))),
                h.get(RunFiles.tag(RunFiles.ALL_WORKLOADS, RunFiles.TCP_RTT)), origin);
        return withAddenda(withServers(restored, w, config, name -> h.get(RunFiles.serverTag(name))), w);
    }

    /** A window (or the total) from its JSON figures and its histograms, in the engine's own form. */
    private static WindowResult window(JsonNode w, RunConfig config, ReplyClasses classes, List<Histogram> latency,
                                       List<Histogram> service, Histogram lag, Histogram connect, Histogram rtt,
                                       long origin) {
        List<WorkloadStats> workloads = new ArrayList<>();
        JsonNode nodes = w.path("workloads");
        Histogram totalLatency = WorkloadStats.newHistogram();
        Histogram totalService = WorkloadStats.newHistogram();
        for (int i = 0; i < config.workloads().size(); i++) {
            JsonNode n = nodes.get(i);
            workloads.add(WorkloadStats.restored(outcomes(n), 0, n.path("bytesSent").asLong(),
                    n.path("bytesReceived").asLong(), null, latency.get(i), service.get(i)));
            totalLatency.add(latency.get(i));
            totalService.add(service.get(i));
        }
        long[] replies = new long[ReplyClasses.MAX + 1];
        JsonNode classNodes = w.path("replyClasses");
        for (int k = 1; k <= classes.count(); k++) {
            replies[k] = classNodes.path(classes.label(k)).asLong();
        }
        WorkloadStats total = WorkloadStats.restored(outcomes(w), 0, w.path("bytesSent").asLong(),
                w.path("bytesReceived").asLong(), replies, totalLatency, totalService);
        JsonNode c = w.path("connections");
        ConnectionCounts connections = ConnectionCounts.of(c.path("attempts").asLong(), c.path("opened").asLong(),
                c.path("failures").asLong(), c.path("closed").asLong(), c.path("open").asLong(),
                c.path("roomWaitNanos").asLong(), c.path("roomWaitBehindNanos").asLong());
        JsonNode loops = w.path("loopCpuNanos");
        long[] loopCpu = new long[loops.size()];
        for (int i = 0; i < loopCpu.length; i++) {
            loopCpu[i] = loops.get(i).asLong();
        }
        long cpu = w.path("cpuNanos").isNull() || w.path("cpuNanos").isMissingNode() ? -1 : w.path("cpuNanos").asLong();
        JsonNode tcp = w.path("tcp");
        // a window's target is the rate asked for in it (the admin endpoint and ramps change it as the run goes)
        List<io.fluxperf.engine.config.WorkloadConfig> targets = new ArrayList<>();
        for (int i = 0; i < config.workloads().size(); i++) {
            io.fluxperf.engine.config.WorkloadConfig wc = config.workloads().get(i);
            JsonNode target = nodes.get(i).path("targetRate");
            targets.add(wc.isRated() && target.isNumber() && target.asDouble() > 0 && target.asDouble() != wc.rate()
                    ? wc.withRate(target.asDouble()) : wc);
        }
        return new WindowResult(w.path("number").asInt(), origin + w.path("start").asLong(), origin + w.path("end").asLong(),
                targets, workloads, total, connections, lag, connect, cpu, loopCpu)
                .withTcp(TcpHealth.restored(tcp.path("samples").asLong(), tcp.path("retransmits").asLong(),
                        tcp.path("lost").asLong(), rtt));
    }

    /** A run with several servers: each server's figures (result.json's counts, the log's histogram) on the window. */
    private static WindowResult withServers(WindowResult w, JsonNode n, RunConfig config,
                                            java.util.function.Function<String, Histogram> latency) {
        JsonNode servers = n.path("servers");
        if (!servers.isArray()) {
            return w;
        }
        List<io.fluxperf.engine.metrics.ServerStats> list = new ArrayList<>();
        for (JsonNode s : servers) {
            String name = s.path("server").asText();
            list.add(io.fluxperf.engine.metrics.ServerStats.restored(name, s.path("role").isNull() ? null
                            : s.path("role").asText(null), outcomes(s), s.path("sent").asLong(), s.path("moved").asLong(),
                    s.path("ask").asLong(), latency.apply(name)));
        }
        JsonNode redirects = n.path("redirects");
        return w.withPool(new io.fluxperf.engine.metrics.PoolFigures(list, config.pool().cluster(),
                redirects.path("mapRefreshes").asLong()));
    }

    /** What result.json holds of a window besides its requests: a cluster's topology, a publish workload's messages. */
    private static WindowResult withAddenda(WindowResult w, JsonNode n) {
        return withMessages(withTopology(w, n.path("topology"), w.startNanos() - n.path("start").asLong()), n.path("messages"));
    }

    /** A publish workload's messages (result.json's {@code messages}) on the window. */
    private static WindowResult withMessages(WindowResult w, JsonNode m) {
        if (!m.isObject()) {
            return w;
        }
        List<io.fluxperf.engine.metrics.MessageFigures.Subscriber> subscribers = new ArrayList<>();
        int index = 0;
        for (JsonNode s : m.path("subscribers")) {
            io.fluxperf.engine.metrics.LatencySummary latency;
            try {
                latency = MAPPER.treeToValue(s.path("latency"), io.fluxperf.engine.metrics.LatencySummary.class);
            } catch (Exception e) {
                // Jackson's own message names Java types: name the field instead
                StringBuilder field = new StringBuilder("messages.subscribers[" + index + "].latency");
                if (e instanceof com.fasterxml.jackson.databind.JsonMappingException j) {
                    for (com.fasterxml.jackson.databind.JsonMappingException.Reference r : j.getPath()) {
                        field.append(r.getFieldName() != null ? "." + r.getFieldName() : "[" + r.getIndex() + "]");
                    }
                }
                throw new UserError("result.json: " + field + " cannot be read as a latency summary (numbers of nanoseconds)", e);
            }
            index++;
            subscribers.add(new io.fluxperf.engine.metrics.MessageFigures.Subscriber(s.path("subscriber").asInt(),
                    s.path("delivered").asLong(), s.path("duplicated").asLong(), s.path("lost").asLong(),
                    s.path("unconfirmed").asLong(), latency));
        }
        return w.withMessages(new io.fluxperf.engine.metrics.MessageFigures(m.path("published").asLong(), subscribers,
                m.path("reconciled").asBoolean()));
    }

    /** A cluster run's changes of layout and slots without a master (result.json's {@code topology}) on the window. */
    private static WindowResult withTopology(WindowResult w, JsonNode t, long origin) {
        if (!t.isObject()) {
            return w;
        }
        List<io.fluxperf.engine.metrics.TopologyFigures.Change> changes = new ArrayList<>();
        for (JsonNode c : t.path("changes")) {
            changes.add(new io.fluxperf.engine.metrics.TopologyFigures.Change(origin + c.path("at").asLong(),
                    c.path("change").asText()));
        }
        List<io.fluxperf.engine.metrics.TopologyFigures.Gap> gaps = new ArrayList<>();
        for (JsonNode g : t.path("gaps")) {
            gaps.add(new io.fluxperf.engine.metrics.TopologyFigures.Gap(g.path("firstSlot").asInt(), g.path("lastSlot").asInt(),
                    g.path("master").asText(), origin + g.path("start").asLong(), origin + g.path("end").asLong(),
                    g.path("open").asBoolean()));
        }
        return w.withTopology(new io.fluxperf.engine.metrics.TopologyFigures(changes, gaps));
    }

    private static OutcomeCounts outcomes(JsonNode n) {
        OutcomeCounts o = new OutcomeCounts();
        o.add(Outcome.OK, n.path("ok").asLong());
        o.add(Outcome.MISS, n.path("miss").asLong());
        o.add(Outcome.ERROR, n.path("error").asLong());
        o.add(Outcome.TIMEOUT, n.path("timeout").asLong());
        o.add(Outcome.CLOSED, n.path("closed").asLong());
        o.addMismatch(n.path("mismatch").asLong()); // a part of the errors above; absent in older files and for servers
        return o;
    }

    private static Histogram orEmpty(Histogram h) {
        return h != null ? h : WorkloadStats.newHistogram();
    }

    /** Statistics block {@code index} of result.json's intervals (ResultLayout checked that it is there). */
    private static IntervalSample interval(RunDirectory dir, int index) {
        ObjectNode copy = dir.result().path("intervals").get(index).deepCopy();
        if (!copy.has("servers")) {
            copy.putArray("servers");
        }
        try {
            return MAPPER.treeToValue(copy, IntervalSample.class);
        } catch (com.fasterxml.jackson.databind.JsonMappingException e) {
            // the field by its path in the file: Jackson's own message names Java types
            StringBuilder field = new StringBuilder("intervals[" + index + "]");
            for (com.fasterxml.jackson.databind.JsonMappingException.Reference r : e.getPath()) {
                field.append(r.getFieldName() != null ? "." + r.getFieldName() : "[" + r.getIndex() + "]");
            }
            throw new UserError(dir.directory().resolve(RunFiles.RESULT) + ": " + field
                    + " is not what a statistics block holds there (a number, or a list of servers)", e);
        } catch (Exception e) {
            throw new UserError(dir.directory().resolve(RunFiles.RESULT) + ": intervals[" + index
                    + "] cannot be read as a statistics block", e);
        }
    }

    static String traceLine(JsonNode t) {
        if (t == null || t.isNull() || t.isMissingNode()) {
            return null;
        }
        return TraceWriter.statusLine(t.path("records").asLong(), t.path("lost").asLong(), t.path("failed").asBoolean(),
                t.path("failure").isNull() ? null : t.path("failure").asText(null), Path.of(t.path("directory").asText()));
    }

    static String errorsLine(JsonNode e) {
        if (e == null || e.isNull() || e.isMissingNode()) {
            return null;
        }
        Map<String, Long> messages = new LinkedHashMap<>();
        e.path("messages").fields().forEachRemaining(m -> messages.put(m.getKey(), m.getValue().asLong()));
        return RunErrors.restored(e.path("protocol").asLong(), e.path("connection").asLong(), e.path("request").asLong(),
                messages, e.path("hint").isTextual() ? e.path("hint").asText() : null).summary();
    }

    static StopReason stopReason(String label) {
        for (StopReason s : StopReason.values()) {
            if (s.label().equals(label)) {
                return s;
            }
        }
        return StopReason.COMPLETED; // "failed": the run printed no total, so no stop line is made from this
    }

    private static ReplyClasses replyClasses(RunConfig config) {
        Protocol p = Protocols.find(config.protocol());
        return p == null ? ReplyClasses.NONE : p.replyClasses();
    }
}
