package io.fluxperf.engine.html;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxperf.engine.UserError;
import io.fluxperf.engine.compare.ComparisonText;
import io.fluxperf.engine.compare.ConfigKeys;
import io.fluxperf.engine.compare.RunDirectoryFigures;
import io.fluxperf.engine.compare.SecondSeries;
import io.fluxperf.engine.compare.Spectrum;
import io.fluxperf.engine.rundir.RunDirectory;
import io.fluxperf.engine.rundir.RunFiles;
import io.fluxperf.trace.HeatmapAggregator;
import io.fluxperf.trace.HeatmapHtmlRenderer;
import io.fluxperf.trace.Latency;
import io.fluxperf.trace.TraceFormatException;
import io.fluxperf.trace.TraceReader;
import io.fluxperf.trace.TraceRecord;
import io.fluxperf.trace.TraceStats;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * {@code report DIR --html FILE}: one self-contained page of a run directory: the config and the
 * environment, the windows, requests/s and p50/p99/p999 over time per workload (from seconds.hlog),
 * the percentile spectrum, the workloads and outcomes, and the trace's heatmap when the directory
 * holds one (the page {@code fluxperf heatmap} draws, embedded whole).
 */
public final class RunHtmlReport {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String[] OUTCOMES = {"ok", "miss", "error", "timeout", "closed"};

    private RunHtmlReport() {
    }

    public static String render(RunDirectory dir) {
        JsonNode r = dir.result();
        HtmlPage page = new HtmlPage("fluxperf report " + dir.directory());
        page.h1("fluxperf run " + dir.directory());
        page.p("Stopped by: " + r.path("stopReason").asText("?") + (r.path("target").isTextual()
                ? " · target " + r.path("target").asText() : ""));

        page.h2("Config");
        page.pre(dir.configToml());
        page.h2("Environment");
        page.table(keyValues(environment(dir)));

        page.h2("Windows");
        page.table(windows(r));
        measurement(page, r);

        ObjectNode data = JSON.createObjectNode();
        ArrayNode workloads = data.putArray("workloads");
        List<RunDirectory.Interval> seconds = dir.secondIntervals();
        // the whole run's histograms are the windows' (always written); the seconds give the figures over time
        List<RunDirectory.Interval> windows = dir.windowIntervals();
        List<String> names = RunDirectoryFigures.workloadNames(windows);
        long origin = seconds.isEmpty() ? 0 : seconds.get(0).startEpochMs();
        for (String name : names) {
            ObjectNode w = workloads.addObject();
            w.put("name", name);
            ArrayNode rate = w.putArray("rate");
            ArrayNode[] ps = {w.putArray("p50"), w.putArray("p99"), w.putArray("p999")};
            double[] levels = {50, 99, 99.9};
            double[] lengths = RunDirectoryFigures.lengths(seconds);
            for (int i = 0; i < seconds.size(); i++) {
                RunDirectory.Interval s = seconds.get(i);
                Histogram h = s.get(name + "/" + RunFiles.INTENDED);
                double len = lengths[i];
                double t = (s.startEpochMs() - origin) / 1000.0 + len;
                rate.addArray().add(round(t)).add(round((h == null ? 0 : h.getTotalCount()) / len));
                if (h != null && h.getTotalCount() > 0) {
                    for (int k = 0; k < levels.length; k++) {
                        ps[k].addArray().add(round(t)).add(h.getValueAtPercentile(levels[k]));
                    }
                }
            }
            spectrum(w.putArray("spectrum"), RunDirectoryFigures.series(windows, List.of(name + "/" + RunFiles.INTENDED)));
            spectrum(w.putArray("service"), RunDirectoryFigures.series(windows, List.of(name + "/" + RunFiles.SERVICE)));
        }
        sendLagSeconds(data.putObject("sendLag"), seconds, origin);
        page.h2("Over time (per second)");
        if (seconds.isEmpty()) {
            page.p("This directory has no " + RunFiles.SECONDS + ".");
        }
        page.div("time");
        page.h2("Latency by percentile");
        page.p("HdrHistogram's \"nines\" axis: x is 1/(1-p) on a log scale. Intended latency counts from the intended"
                + " send time (open loop) or the write; service time from the actual send.");
        page.div("spectrum");

        page.h2("Workloads");
        page.table(workloadTable(r));
        page.h2("Outcomes");
        page.table(outcomeTable(r));
        JsonNode classes = r.path("total").path("replyClasses");
        if (classes.isObject() && classes.size() > 0) {
            page.h3("Reply classes");
            List<String[]> rows = new ArrayList<>();
            rows.add(new String[] {"class", "replies"});
            classes.fields().forEachRemaining(e -> rows.add(new String[] {e.getKey(), e.getValue().asText()}));
            page.table(rows);
        }

        Path trace = dir.directory().resolve(RunFiles.TRACE);
        data.put("heatmap", Files.isDirectory(trace));
        if (Files.isDirectory(trace)) {
            page.h2("Heatmap of the trace");
            Heatmap h = heatmap(trace);
            // tall enough for the page's charts and its summary; the script then fits it to what the page laid out
            page.raw("<iframe id=\"heatmap\" title=\"heatmap\" style=\"height: " + h.heightPx() + "px\" srcdoc=\""
                    + HtmlPage.escape(h.html()) + "\"></iframe>\n");
        }
        return page.render(data, SCRIPT);
    }

    /**
     * The lines of the text report that are not about the requests' outcomes and latency: the
     * service time, the send lag (open loop), this process's CPU and the load connections' TCP
     * health, each a table of the windows and the whole run.
     */
    private static void measurement(HtmlPage page, JsonNode r) {
        List<JsonNode> rows = new ArrayList<>();
        r.path("windows").forEach(rows::add);
        rows.add(r.path("total"));

        page.h2("Service time");
        page.p("From the actual write to the reply. In open loop latency counts from the intended send time, so"
                + " latency minus service time is time spent waiting in the client; in closed loop the two are one.");
        List<String[]> service = new ArrayList<>();
        service.add(new String[] {"window", "p50", "p90", "p99", "p999", "p9999", "max"});
        for (JsonNode w : rows) {
            JsonNode s = w.path("service");
            service.add(new String[] {label(w), time(s, "p50"), time(s, "p90"), time(s, "p99"), time(s, "p999"),
                    time(s, "p9999"), time(s, "max")});
        }
        page.table(service);

        page.h2("Send lag");
        if (r.path("total").path("sendLag").isObject()) {
            page.p("How late paced requests left against their schedule, and how long due requests waited for a"
                    + " connection with room (the server held every connection); the part of that wait that began with a"
                    + " request already 1 ms behind is a backlog going out. Latency includes the lag.");
            List<String[]> lag = new ArrayList<>();
            lag.add(new String[] {"window", "p50", "p90", "p99", "p999", "max", "waited for a connection",
                    "of it once behind"});
            for (JsonNode w : rows) {
                JsonNode l = w.path("sendLag");
                JsonNode c = w.path("connections");
                lag.add(new String[] {label(w), time(l, "p50"), time(l, "p90"), time(l, "p99"), time(l, "p999"),
                        time(l, "max"), time(c, "roomWaitNanos"), time(c, "roomWaitBehindNanos")});
            }
            page.table(lag);
            page.div("sendlag");
        } else {
            page.p("Closed loop: each connection sends as replies free it, so there is no schedule to lag behind.");
        }

        page.h2("CPU");
        String whose = r.path("mergedFrom").isArray() && r.path("mergedFrom").size() > 0
                ? "the " + r.path("mergedFrom").size() + " merged runs' processes"
                : "this process" + (r.path("config").path("server").isTextual() ? "" : ", with the embedded target");
        page.p("CPU time of " + whose + " in each window, per request and in cores; the busiest load thread's share"
                + " of the window (at 90 % or more the client set the pace, and requests waited in it).");
        List<String[]> cpu = new ArrayList<>();
        cpu.add(new String[] {"window", "CPU time", "per request", "cores", "busiest load thread"});
        for (JsonNode w : rows) {
            JsonNode n = w.path("cpuNanos");
            double seconds = w.path("seconds").asDouble();
            JsonNode share = w.path("busiestLoadThreadCpuShare");
            cpu.add(new String[] {label(w), n.isNumber() ? fixed(n.asDouble() / 1e6, 0) + " ms" : "-",
                    time(w, "cpuNanosPerRequest"), n.isNumber() && seconds > 0 ? fixed(n.asDouble() / 1e9 / seconds, 2) : "-",
                    share.isNumber() ? fixed(100 * share.asDouble(), 0) + " %" : "-"});
        }
        page.table(cpu);

        page.h2("TCP");
        if (rows.stream().anyMatch(w -> w.path("tcp").path("samples").asLong() > 0)) {
            page.p("The kernel's TCP_INFO of the load connections, sampled once a second: segments retransmitted, the most"
                    + " marked lost at once, and the smoothed round-trip time. On a real network it tells packet loss from a"
                    + " slow server.");
            List<String[]> tcp = new ArrayList<>();
            tcp.add(new String[] {"window", "retransmits", "lost", "srtt p50", "srtt max", "connection samples"});
            for (JsonNode w : rows) {
                JsonNode t = w.path("tcp");
                tcp.add(t.path("samples").asLong() == 0 ? new String[] {label(w), "-", "-", "-", "-", "0"}
                        : new String[] {label(w), t.path("retransmits").asText(), t.path("lost").asText(),
                        ComparisonText.nanos(t.path("rttP50Micros").asDouble() * 1000),
                        ComparisonText.nanos(t.path("rttMaxMicros").asDouble() * 1000), t.path("samples").asText()});
            }
            page.table(tcp);
        } else {
            page.p("No connection was sampled (UDP, Unix sockets, or windows shorter than the one-second sampling period).");
        }
    }

    private static String label(JsonNode window) {
        int n = window.path("number").asInt();
        return n == 0 ? "total" : Integer.toString(n);
    }

    /** Each second's send lag (p50, p99, max) of every workload together, from seconds.hlog's send-lag tag. */
    private static void sendLagSeconds(ObjectNode out, List<RunDirectory.Interval> seconds, long origin) {
        ArrayNode[] series = {out.putArray("p50"), out.putArray("p99"), out.putArray("max")};
        double[] lengths = RunDirectoryFigures.lengths(seconds);
        String tag = RunFiles.tag(RunFiles.ALL_WORKLOADS, RunFiles.SEND_LAG);
        for (int i = 0; i < seconds.size(); i++) {
            Histogram h = seconds.get(i).get(tag);
            if (h == null || h.getTotalCount() == 0) {
                continue;
            }
            double t = round((seconds.get(i).startEpochMs() - origin) / 1000.0 + lengths[i]);
            series[0].addArray().add(t).add(h.getValueAtPercentile(50));
            series[1].addArray().add(t).add(h.getValueAtPercentile(99));
            series[2].addArray().add(t).add(h.getMaxValue());
        }
    }

    /** Writes the page to {@code out}. */
    public static void write(RunDirectory dir, Path out, String place) {
        String html = render(dir);
        try {
            Files.writeString(out, html);
        } catch (IOException e) {
            throw new UserError(place + ": cannot write " + out + ": " + io.fluxperf.trace.FileErrors.describe(e), e);
        }
    }

    /** The heatmap's own page, and the height its frame needs: its three charts and a line per summary line. */
    private record Heatmap(String html, int heightPx) {
    }

    private static Heatmap heatmap(Path trace) {
        try (TraceReader reader = TraceReader.open(trace)) {
            HeatmapAggregator h = new HeatmapAggregator(HeatmapAggregator.DEFAULT_BUCKET_NANOS, Latency.INTENDED)
                    .pauses(io.fluxperf.trace.TracePauses.read(trace));
            TraceStats stats = new TraceStats(reader.header(), Latency.INTENDED, false);
            TraceRecord rec = new TraceRecord();
            while (reader.next(rec)) {
                h.add(rec);
                stats.add(rec);
            }
            List<String> lines = new ArrayList<>();
            reader.warning().ifPresent(w -> lines.add("WARNING: " + w));
            lines.addAll(stats.reportLines());
            return new Heatmap(new HeatmapHtmlRenderer().render(h, "fluxperf latency heatmap - " + trace, lines),
                    HeatmapHtmlRenderer.CHARTS_HEIGHT_PX + 18 * (lines.size() + 2));
        } catch (TraceFormatException e) {
            throw new UserError(e.getMessage(), e);
        }
    }

    private static void spectrum(ArrayNode out, SecondSeries s) {
        for (double[] p : Spectrum.of(s)) {
            out.addArray().add(p[0]).add(p[1]);
        }
    }

    private static JsonNode environment(RunDirectory dir) {
        Path file = dir.directory().resolve(RunFiles.ENVIRONMENT);
        try {
            return JSON.readTree(file.toFile());
        } catch (IOException e) {
            return JSON.createObjectNode().put("environment.json", "missing or unreadable");
        }
    }

    private static List<String[]> keyValues(JsonNode tree) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"key", "value"});
        ConfigKeys.flatten(tree).forEach((k, v) -> rows.add(new String[] {k, v}));
        return rows;
    }

    private static List<String[]> windows(JsonNode r) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"window", "seconds", "requests", "ok", "miss", "error", "timeout", "closed", "rate/s",
                "success", "hit rate", "p50", "p90", "p99", "p999", "p9999", "max"});
        for (JsonNode w : r.path("windows")) {
            rows.add(windowRow(Integer.toString(w.path("number").asInt()), w));
        }
        rows.add(windowRow("total", r.path("total")));
        return rows;
    }

    private static String[] windowRow(String name, JsonNode w) {
        JsonNode l = w.path("latency");
        return new String[] {name, fixed(w.path("seconds").asDouble(), 1), w.path("requests").asText(),
                w.path("ok").asText(), w.path("miss").asText(), w.path("error").asText(), w.path("timeout").asText(),
                w.path("closed").asText(), fixed(w.path("rate").asDouble(), 1), percent(w.path("successPercent")),
                percent(w.path("hitratePercent")), time(l, "p50"), time(l, "p90"), time(l, "p99"), time(l, "p999"),
                time(l, "p9999"), time(l, "max")};
    }

    private static List<String[]> workloadTable(JsonNode r) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"workload", "method", "target rate", "requests", "rate/s", "hit rate", "p50", "p99",
                "p999", "p9999", "service p50", "service p99"});
        for (JsonNode w : r.path("total").path("workloads")) {
            JsonNode l = w.path("latency");
            JsonNode s = w.path("service");
            double target = w.path("targetRate").asDouble();
            rows.add(new String[] {w.path("name").asText(), w.path("method").asText(),
                    target > 0 ? fixed(target, 0) : "closed loop", w.path("requests").asText(),
                    fixed(w.path("rate").asDouble(), 1), percent(w.path("hitratePercent")), time(l, "p50"),
                    time(l, "p99"), time(l, "p999"), time(l, "p9999"), time(s, "p50"), time(s, "p99")});
        }
        return rows;
    }

    private static List<String[]> outcomeTable(JsonNode r) {
        List<String[]> rows = new ArrayList<>();
        List<String> head = new ArrayList<>(List.of("outcome", "all workloads", "share"));
        JsonNode workloads = r.path("total").path("workloads");
        workloads.forEach(w -> head.add(w.path("name").asText()));
        rows.add(head.toArray(String[]::new));
        long requests = r.path("total").path("requests").asLong();
        for (String o : OUTCOMES) {
            long n = r.path("total").path(o).asLong();
            List<String> row = new ArrayList<>(List.of(o, Long.toString(n),
                    requests == 0 ? "-" : fixed(100.0 * n / requests, 3) + " %"));
            workloads.forEach(w -> row.add(w.path(o).asText()));
            rows.add(row.toArray(String[]::new));
        }
        List<String> total = new ArrayList<>(List.of("requests", Long.toString(requests), requests == 0 ? "-" : "100 %"));
        workloads.forEach(w -> total.add(w.path("requests").asText()));
        rows.add(total.toArray(String[]::new));
        return rows;
    }

    private static String time(JsonNode latency, String field) {
        JsonNode v = latency.path(field);
        return v.isNumber() ? ComparisonText.nanos(v.asDouble()) : "-";
    }

    private static String percent(JsonNode v) {
        return v.isNumber() ? fixed(v.asDouble(), 2) + " %" : "-";
    }

    private static String fixed(double v, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }

    private static final String SCRIPT = """
            const time = document.getElementById("time");
            if (D.workloads.length > 0 && D.workloads[0].rate.length > 0) {
              FluxCharts.timeSeries(time, "Requests per second", "count",
                D.workloads.map(function (w) { return { name: w.name, points: w.rate }; }));
            }
            D.workloads.forEach(function (w) {
              if (w.rate.length === 0) return;
              FluxCharts.timeSeries(time, "Latency per second, " + w.name + " (intended)", "ns", [
                { name: "p50", points: w.p50, color: "#1f77b4" },
                { name: "p99", points: w.p99, color: "#d62728" },
                { name: "p999", points: w.p999, color: "#9467bd", dash: "6 4" }], { log: true });
            });
            const lag = document.getElementById("sendlag");
            if (lag && D.sendLag.max.length > 0) {
              FluxCharts.timeSeries(lag, "Send lag per second (every workload)", "ns", [
                { name: "p50", points: D.sendLag.p50, color: "#1f77b4" },
                { name: "p99", points: D.sendLag.p99, color: "#d62728" },
                { name: "max", points: D.sendLag.max, color: "#9467bd", dash: "6 4" }],
                { log: true, floorNote: "0 on the floor" });
            }
            const spec = document.getElementById("spectrum");
            D.workloads.forEach(function (w) {
              const series = [{ name: "intended", points: w.spectrum }];
              if (w.service.length > 0) series.push({ name: "service", points: w.service, dash: "6 4" });
              FluxCharts.spectrum(spec, "Latency by percentile, " + w.name, series);
            });
            if (D.heatmap) {
              // the heatmap's own page draws in its frame; say how many cells it drew, for tests and for a reader of the DOM
              const frame = document.getElementById("heatmap");
              const mark = function () {
                try {
                  const n = frame.contentDocument && frame.contentDocument.body
                    && frame.contentDocument.body.getAttribute("data-rendered");
                  if (n !== null && n !== undefined) document.body.setAttribute("data-heatmap-cells", n);
                } catch (e) { /* a browser that keeps the frame apart: the frame still draws */ }
              };
              // the frame as tall as the page in it, so that nothing (the trace's summary) is cut off
              const fit = function () {
                try {
                  const doc = frame.contentDocument;
                  if (!doc || !doc.body || !doc.body.getAttribute("data-rendered")) return;
                  const needed = doc.documentElement.scrollHeight;
                  frame.style.height = (needed + 4) + "px";
                  document.body.setAttribute("data-heatmap-fits", String(frame.clientHeight >= needed));
                } catch (e) { /* kept apart: the frame keeps its estimated height */ }
              };
              frame.addEventListener("load", function () { mark(); fit(); });
              mark();
              fit();
            }
            """;
}
