package io.fluxperf.engine.trust;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxperf.engine.pause.PauseCause;
import io.fluxperf.engine.pause.PauseDetector;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

/**
 * The JSON result's {@code trust} object (docs/results.md), written from a {@link RunTrust} and
 * read back into one, so that {@code fluxperf report DIR} prints the same lines. Latencies are ns,
 * times of the run ns after the first window's start.
 */
public final class TrustJson {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final String[] NAMES = {"p50", "p90", "p99", "p999", "p9999"};

    private TrustJson() {
    }

    public static ObjectNode of(RunTrust t) {
        ObjectNode root = F.objectNode();
        root.put("verdict", t.verdict().text());
        ArrayNode flags = root.putArray("flags");
        t.verdict().ordered().forEach(f -> flags.add(f.label()));
        root.set("floor", t.floor() == null ? F.nullNode() : floor(t.floor())); // null: not probed (replay, mcb)
        root.put("pauseThresholdNanos", PauseDetector.THRESHOLD_NANOS);
        ArrayNode pauses = root.putArray("pauses");
        t.pauses().forEach(p -> pauses.add(pause(p)));
        ArrayNode windows = root.putArray("windows");
        t.windows().forEach(w -> windows.add(window(w)));
        root.putObject("total").set("intervals", intervals(t.totalIntervals()));
        ArrayNode unstable = root.putArray("unstable");
        t.findings().forEach(f -> unstable.add(finding(f)));
        ArrayNode seconds = root.putArray("seconds");
        t.seconds().forEach(s -> seconds.add(second(s)));
        return root;
    }

    public static ObjectNode floor(LatencyFloor f) {
        ObjectNode n = F.objectNode();
        n.put("measured", f.measured());
        n.put("noOp", f.noOp());
        n.put("roundTrips", f.roundTrips());
        n.put("p50", f.p50());
        n.put("p99", f.p99());
        n.put("min", f.min());
        n.put("reason", f.reason());
        return n;
    }

    public static LatencyFloor floor(JsonNode n) {
        return new LatencyFloor(n.path("measured").asBoolean(), text(n.path("noOp")), n.path("roundTrips").asLong(),
                n.path("p50").asLong(), n.path("p99").asLong(), n.path("min").asLong(), text(n.path("reason")));
    }

    public static ObjectNode window(WindowTrust w) {
        ObjectNode n = F.objectNode();
        n.put("window", w.window());
        n.set("intervals", intervals(w.intervals()));
        ArrayNode pauses = n.putArray("pauses");
        w.pauses().forEach(p -> pauses.add(pause(p)));
        n.put("runQueueShare", w.runQueueShare());
        n.put("sendLagP99Nanos", w.sendLagP99Nanos());
        ArrayNode limits = n.putArray("clientLimited");
        w.limits().forEach(l -> limits.add(l.label()));
        ArrayNode drift = n.putArray("unstable");
        w.drift().forEach(f -> drift.add(finding(f)));
        return n;
    }

    public static WindowTrust window(JsonNode n) {
        List<NamedPause> pauses = new ArrayList<>();
        n.path("pauses").forEach(p -> pauses.add(pause(p)));
        List<ClientLimit> limits = new ArrayList<>();
        n.path("clientLimited").forEach(l -> limits.add(ClientLimit.ofLabel(l.asText())));
        List<Finding> drift = new ArrayList<>();
        n.path("unstable").forEach(f -> drift.add(finding(f)));
        return new WindowTrust(n.path("window").asInt(), intervals(n.path("intervals")), pauses,
                n.path("runQueueShare").asDouble(-1), n.path("sendLagP99Nanos").asLong(), limits, drift);
    }

    /** A run's trust read back from its JSON. */
    public static RunTrust read(JsonNode n) {
        List<WindowTrust> windows = new ArrayList<>();
        n.path("windows").forEach(w -> windows.add(window(w)));
        List<Finding> findings = new ArrayList<>();
        n.path("unstable").forEach(f -> findings.add(finding(f)));
        EnumSet<TrustVerdict.Flag> flags = EnumSet.noneOf(TrustVerdict.Flag.class);
        n.path("flags").forEach(f -> flags.add(TrustVerdict.Flag.ofLabel(f.asText())));
        return new RunTrust(floor(n.path("floor")), windows, intervals(n.path("total").path("intervals")), seconds(n.path("seconds")),
                findings, new TrustVerdict(flags));
    }

    public static List<SecondSummary> seconds(JsonNode n) {
        List<SecondSummary> out = new ArrayList<>();
        for (JsonNode s : n) {
            List<SecondSummary.Workload> parts = new ArrayList<>();
            s.path("workloads").forEach(w -> parts.add(new SecondSummary.Workload(w.path("requests").asLong(), percentiles(w))));
            out.add(new SecondSummary(s.path("window").asInt(), s.path("start").asLong(), s.path("seconds").asDouble(),
                    s.path("requests").asLong(), percentiles(s), s.path("p99Low").asLong(), s.path("p99High").asLong(),
                    s.path("compileMillis").asLong(-1), parts));
        }
        return out;
    }

    private static ObjectNode second(SecondSummary s) {
        ObjectNode n = F.objectNode();
        n.put("window", s.window());
        n.put("start", s.startNanos());
        n.put("seconds", s.seconds());
        n.put("requests", s.requests());
        putPercentiles(n, s.percentiles());
        n.put("p99Low", s.p99Low());
        n.put("p99High", s.p99High());
        n.put("compileMillis", s.compileMillis());
        if (!s.workloads().isEmpty()) {
            ArrayNode ws = n.putArray("workloads");
            for (SecondSummary.Workload w : s.workloads()) {
                ObjectNode wn = ws.addObject();
                wn.put("requests", w.requests());
                putPercentiles(wn, w.percentiles());
            }
        }
        return n;
    }

    private static void putPercentiles(ObjectNode n, long[] values) {
        for (int i = 0; i < NAMES.length; i++) {
            n.put(NAMES[i], values[i]);
        }
    }

    private static long[] percentiles(JsonNode n) {
        long[] out = new long[NAMES.length];
        for (int i = 0; i < NAMES.length; i++) {
            out[i] = n.path(NAMES[i]).asLong();
        }
        return out;
    }

    public static ArrayNode intervals(List<LatencyInterval> intervals) {
        ArrayNode a = F.arrayNode();
        for (LatencyInterval i : intervals) {
            ObjectNode n = a.addObject();
            n.put("percentile", i.percentile());
            n.put("value", i.value());
            n.put("low", i.low());
            n.put("high", i.high());
            n.put("openAbove", i.openAbove());
            n.put("beyond", i.beyond());
            n.put("requests", i.requests());
            n.put("fewSamples", i.fewSamples());
        }
        return a;
    }

    public static List<LatencyInterval> intervals(JsonNode a) {
        List<LatencyInterval> out = new ArrayList<>();
        for (JsonNode n : a) {
            out.add(new LatencyInterval(n.path("percentile").asDouble(), n.path("value").asLong(), n.path("low").asLong(),
                    n.path("high").asLong(), n.path("openAbove").asBoolean(), n.path("beyond").asLong(),
                    n.path("requests").asLong()));
        }
        return out;
    }

    private static ObjectNode pause(NamedPause p) {
        ObjectNode n = F.objectNode();
        n.put("window", p.window());
        n.put("atNanos", p.atNanos());
        n.put("durationNanos", p.durationNanos());
        n.put("cause", p.cause().label());
        n.put("startEpochMs", p.epochMillis());
        return n;
    }

    private static NamedPause pause(JsonNode n) {
        PauseCause cause = PauseCause.ofLabel(n.path("cause").asText());
        return new NamedPause(n.path("window").asInt(), n.path("atNanos").asLong(), n.path("durationNanos").asLong(),
                cause == null ? PauseCause.STOPPED : cause, n.path("startEpochMs").asLong());
    }

    private static ObjectNode finding(Finding f) {
        ObjectNode n = F.objectNode();
        n.put("check", f.kind().label());
        n.put("window", f.window());
        n.put("text", f.text());
        return n;
    }

    private static Finding finding(JsonNode n) {
        return new Finding(Finding.Kind.ofLabel(n.path("check").asText()), n.path("window").asInt(), n.path("text").asText());
    }

    private static String text(JsonNode n) {
        return n.isTextual() ? n.asText() : null;
    }
}
