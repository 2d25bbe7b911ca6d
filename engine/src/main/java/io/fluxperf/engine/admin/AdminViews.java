package io.fluxperf.engine.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxperf.engine.admin.LiveFigures.Second;
import io.fluxperf.engine.admin.LiveFigures.Snapshot;
import io.fluxperf.engine.admin.LiveFigures.Summary;
import io.fluxperf.engine.workload.RateControl;
import java.util.List;
import java.util.Locale;

/**
 * {@code GET /metrics.json} and {@code GET /vars}: the figures of {@code /metrics} as JSON (with
 * the per-second history the dashboard draws) and as rpc-perf's {@code name: value} lines.
 */
final class AdminViews {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** How many of the latest rate changes {@code /metrics.json} lists. */
    static final int MAX_CHANGES = 1000;

    private AdminViews() {
    }

    static byte[] json(Snapshot s, List<RateControl.Change> changes) {
        ObjectNode root = JSON.createObjectNode();
        root.put("kind", s.kind());
        root.put("protocol", s.protocol());
        root.put("target", s.target());
        root.put("phase", s.phase());
        root.put("steerable", s.steerable());
        root.put("elapsed_seconds", s.elapsedSeconds());
        root.put("interval_seconds", s.intervalSeconds());
        ArrayNode workloads = root.putArray("workloads");
        for (int w = 0; w < s.workloads().size(); w++) {
            ObjectNode o = workloads.addObject();
            o.put("name", s.workloads().get(w));
            o.put("target_requests_per_second", s.targets()[w]);
            o.put("achieved_requests_per_second", s.achieved()[w]);
            ObjectNode requests = o.putObject("requests");
            for (int k = 0; k < LiveFigures.OUTCOMES.size(); k++) {
                requests.put(LiveFigures.OUTCOMES.get(k), s.counts()[w][k]);
            }
            o.put("sent", s.counts()[w][LiveFigures.SENT]);
            o.put("received_bytes", s.counts()[w][LiveFigures.BYTES_IN]);
            o.put("sent_bytes", s.counts()[w][LiveFigures.BYTES_OUT]);
            summary(o.putObject("latency_seconds"), s.latency()[w]);
            summary(o.putObject("service_time_seconds"), s.service()[w]);
        }
        ObjectNode c = root.putObject("connections");
        c.put("open", s.connectionsOpen());
        c.put("opened", s.connectionsOpened());
        c.put("failed", s.connectionsFailed());
        c.put("closed", s.connectionsClosed());
        summary(root.putObject("send_lag_seconds"), s.sendLag());
        ObjectNode tcp = root.putObject("tcp");
        tcp.put("retransmitted_segments", s.tcp().retransmits());
        tcp.put("lost_segments", s.tcp().lost());
        tcp.put("smoothed_rtt_p50_seconds", s.tcp().rttP50Micros() / 1e6);
        tcp.put("smoothed_rtt_max_seconds", s.tcp().rttMaxMicros() / 1e6);
        ArrayNode bounds = root.putArray("heatmap_bounds_seconds");
        for (long b : LiveFigures.HEAT_BOUNDS_NANOS) {
            bounds.add(b / 1e9);
        }
        ArrayNode seconds = root.putArray("seconds");
        for (Second sec : s.history()) {
            ObjectNode o = seconds.addObject();
            o.put("second", sec.second());
            o.put("interval_seconds", sec.seconds());
            o.put("unix_millis", sec.unixMillis());
            numbers(o.putArray("rates"), sec.rates());
            numbers(o.putArray("targets"), sec.targets());
            ObjectNode outcomes = o.putObject("outcomes");
            for (int k = 0; k < LiveFigures.OUTCOMES.size(); k++) {
                outcomes.put(LiveFigures.OUTCOMES.get(k), sec.outcomes()[k]);
            }
            o.put("p50_seconds", sec.p50() / 1e9);
            o.put("p99_seconds", sec.p99() / 1e9);
            o.put("p999_seconds", sec.p999() / 1e9);
            o.put("connections_open", sec.openConnections());
            ArrayNode heat = o.putArray("heatmap");
            for (long h : sec.heat()) {
                heat.add(h);
            }
        }
        ArrayNode rateChanges = root.putArray("rate_changes");
        // the last changes only: a looping ramp of a long run makes thousands
        for (RateControl.Change ch : changes.subList(Math.max(0, changes.size() - MAX_CHANGES), changes.size())) {
            ObjectNode o = rateChanges.addObject();
            o.put("unix_millis", ch.unixMillis());
            o.put("workload", s.workloads().get(ch.workload()));
            o.put("rate", ch.rate());
            o.put("cause", ch.cause());
        }
        try {
            return JSON.writeValueAsBytes(root); // compact: the dashboard reads it every second
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void numbers(ArrayNode a, double[] values) {
        for (double v : values) {
            a.add(v);
        }
    }

    private static void summary(ObjectNode o, Summary s) {
        o.put("count", s.count());
        o.put("sum", s.sumSeconds());
        for (int i = 0; i < Summary.QUANTILES.length; i++) {
            o.put("p" + label(Summary.QUANTILES[i]), s.quantiles()[i]);
        }
        o.put("max", s.maxSeconds());
    }

    /** 0.5 → 50, 0.999 → 999 (the report's p50, p999). */
    private static String label(double q) {
        String digits = String.format(Locale.ROOT, "%.3f", q).substring(2).replaceAll("0+$", "");
        return digits.length() == 1 ? digits + "0" : digits;
    }

    /** rpc-perf's {@code /vars}: one {@code name: value} line per figure, names with slashes. */
    static String vars(Snapshot s) {
        StringBuilder b = new StringBuilder();
        for (int w = 0; w < s.workloads().size(); w++) {
            String p = "workload/" + s.workloads().get(w) + "/";
            for (int k = 0; k < LiveFigures.OUTCOMES.size(); k++) {
                line(b, p + "requests/" + LiveFigures.OUTCOMES.get(k), s.counts()[w][k]);
            }
            line(b, p + "requests/sent", s.counts()[w][LiveFigures.SENT]);
            line(b, p + "bytes/received", s.counts()[w][LiveFigures.BYTES_IN]);
            line(b, p + "bytes/sent", s.counts()[w][LiveFigures.BYTES_OUT]);
            line(b, p + "rate/target", s.targets()[w]);
            line(b, p + "rate/achieved", s.achieved()[w]);
            Summary l = s.latency()[w];
            for (int i = 0; i < Summary.QUANTILES.length; i++) {
                line(b, p + "latency/p" + label(Summary.QUANTILES[i]) + "_seconds", l.quantiles()[i]);
            }
        }
        line(b, "connections/open", s.connectionsOpen());
        line(b, "connections/opened", s.connectionsOpened());
        line(b, "connections/failed", s.connectionsFailed());
        line(b, "connections/closed", s.connectionsClosed());
        line(b, "send_lag/p99_seconds", s.sendLag().quantiles()[2]);
        line(b, "tcp/retransmitted_segments", s.tcp().retransmits());
        line(b, "tcp/lost_segments", s.tcp().lost());
        line(b, "tcp/smoothed_rtt_p50_seconds", s.tcp().rttP50Micros() / 1e6);
        line(b, "elapsed_seconds", s.elapsedSeconds());
        return b.toString();
    }

    private static void line(StringBuilder b, String name, double v) {
        b.append(name).append(": ");
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            b.append((long) v);
        } else {
            b.append(String.format(Locale.ROOT, "%.9g", v));
        }
        b.append('\n');
    }
}
