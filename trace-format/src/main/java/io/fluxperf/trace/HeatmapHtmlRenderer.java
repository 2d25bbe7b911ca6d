package io.fluxperf.trace;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes a {@link HeatmapAggregator} as one self-contained HTML file: the data inline as JSON, the
 * drawing code inline as JavaScript on {@code <canvas>} elements, the style inline; nothing is
 * fetched from the network. The page shows the heatmap (same colours, rows and lines as
 * {@link HeatmapPngRenderer}), requests per second over time (all, misses, failures; each bucket's
 * requests over the time the trace covers of it, {@link HeatmapAggregator#coveredNanos}), the per-bucket
 * p50/p99/p999 over time, and an optional summary (the {@code trace stats} lines); moving the
 * pointer over a chart shows the cell's or bucket's time, latency range and counts.
 *
 * <p>When the charts are drawn the script sets {@code data-rendered} on {@code <body>} to the number
 * of cells drawn, which a headless browser test can read back.
 */
public final class HeatmapHtmlRenderer {
    /**
     * The page's height without its summary, px (its title, three charts and their readouts): a
     * page that embeds this one in a frame adds a line per summary line.
     */
    public static final int CHARTS_HEIGHT_PX = 1260;

    /** Writes the page. */
    public void write(HeatmapAggregator h, String title, List<String> summaryLines, Path out) throws IOException {
        Files.writeString(out, render(h, title, summaryLines), StandardCharsets.UTF_8);
    }

    /**
     * The page as text.
     *
     * @param summaryLines lines shown under the charts (for example {@link TraceStats#reportLines()}), or empty
     */
    public String render(HeatmapAggregator h, String title, List<String> summaryLines) {
        String json;
        try {
            json = TraceFiles.JSON.writeValueAsString(data(h, title, summaryLines));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        // Keep the data from closing its <script> element early.
        json = json.replace("</", "<\\/").replace("<!--", "<\\!--");
        return TEMPLATE.replace("%TITLE%", escapeHtml(title)).replace("%DATA%", json);
    }

    private static ObjectNode data(HeatmapAggregator h, String title, List<String> summaryLines) {
        int rowLo = HeatmapStyle.rowLo(h);
        int rowHi = HeatmapStyle.rowHi(h);
        int rows = rowHi - rowLo + 1;
        int nT = h.timeBuckets();
        ObjectNode d = TraceFiles.JSON.createObjectNode();
        d.put("title", title);
        d.put("subtitle", h.totalCount() + " requests, " + h.latency().label() + " latency, "
                + HeatmapStyle.bucketLabel(h.bucketNanos()) + " time buckets (by intended send time)");
        d.put("latency", h.latency().label());
        d.put("nT", nT);
        d.put("rows", rows);
        d.put("bucketSeconds", h.bucketNanos() / 1e9);
        double start = nT == 0 ? 0 : h.bucketStartNanos(0) / 1e9;
        double end = nT == 0 ? 1 : h.bucketStartNanos(nT) / 1e9;
        d.put("start", start);
        d.put("end", end);

        long max = h.maxCellCount();
        d.put("maxCount", max);
        ArrayNode cells = d.putArray("cells"); // t, row - rowLo, count, palette index
        ArrayNode covered = d.putArray("covered"); // seconds of each bucket the trace covers
        ArrayNode totals = d.putArray("totals");
        ArrayNode misses = d.putArray("misses");
        ArrayNode failures = d.putArray("failures");
        ArrayNode[] pos = {d.putArray("p50"), d.putArray("p99"), d.putArray("p999")};
        ArrayNode pText = d.putArray("pText");
        double[] ps = {50, 99, 99.9};
        for (int t = 0; t < nT; t++) {
            for (int r = 0; r < rows; r++) {
                long c = h.count(t, rowLo + r);
                if (c > 0) {
                    cells.add(t).add(r).add(c).add(HeatmapStyle.paletteIndex(c, max));
                }
            }
            covered.add(h.coveredNanos(t) / 1e9);
            totals.add(h.total(t));
            misses.add(h.outcomeCount(t, Outcome.MISS));
            failures.add(h.outcomeCount(t, Outcome.ERROR) + h.outcomeCount(t, Outcome.TIMEOUT)
                    + h.outcomeCount(t, Outcome.CLOSED));
            ArrayNode texts = pText.addArray();
            for (int i = 0; i < ps.length; i++) {
                long v = h.percentileNanos(t, ps[i]);
                pos[i].add(v < 0 ? -1 : round3(HeatmapStyle.rowPosition(v, rowLo, rowHi)));
                texts.add(v < 0 ? "-" : HeatmapStyle.latencyText(v));
            }
        }
        ArrayNode rowText = d.putArray("rowText");
        for (int r = rowLo; r <= rowHi; r++) {
            String lo = HeatmapStyle.latencyText(LatencyBuckets.lowerBound(r));
            rowText.add(r == LatencyBuckets.ROWS - 1 ? "≥ " + lo
                    : lo + " – " + HeatmapStyle.latencyText(LatencyBuckets.upperBound(r)));
        }
        ArrayNode yTicks = d.putArray("yTicks");
        for (HeatmapStyle.Tick t : HeatmapStyle.latencyTicks(rowLo, rowHi)) {
            yTicks.addArray().add(round3(HeatmapStyle.rowPosition((long) t.value(), rowLo, rowHi))).add(t.label());
        }
        ArrayNode xTicks = d.putArray("xTicks");
        for (HeatmapStyle.Tick t : HeatmapStyle.timeTicks(start, end)) {
            xTicks.addArray().add(t.value()).add(t.label());
        }
        ArrayNode palette = d.putArray("palette");
        for (int i = 0; i < HeatmapStyle.PALETTE_SIZE; i++) {
            palette.add(HeatmapStyle.hex(HeatmapStyle.paletteEntry(i)));
        }
        ArrayNode legend = d.putArray("legend");
        for (long c : HeatmapStyle.legendCounts(max)) {
            legend.addArray().add(c).add(HeatmapStyle.paletteIndex(c, max));
        }
        ObjectNode colors = d.putObject("colors");
        colors.put("p50", HeatmapStyle.hex(HeatmapStyle.P50));
        colors.put("p99", HeatmapStyle.hex(HeatmapStyle.P99));
        colors.put("p999", HeatmapStyle.hex(HeatmapStyle.P999));
        ArrayNode pauses = d.putArray("pauses"); // start s, end s, cause: the client's pauses (TracePauses)
        for (TracePauses.Pause p : h.pauses()) {
            pauses.addArray().add(p.startNanos() / 1e9).add(p.endNanos() / 1e9).add(p.cause());
        }
        ArrayNode summary = d.putArray("summary");
        summaryLines.forEach(summary::add);
        return d;
    }

    private static double round3(double v) {
        return Math.round(v * 1000) / 1000.0;
    }

    private static String escapeHtml(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private static final String TEMPLATE = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>%TITLE%</title>
            <style>
            body { background: #15171e; color: #e6e6e6; font: 13px system-ui, sans-serif; margin: 16px 24px; }
            h1 { font-size: 18px; margin: 0 0 4px; }
            h2 { font-size: 14px; margin: 20px 0 4px; font-weight: 600; }
            .sub { color: #a8a8b0; margin-bottom: 10px; }
            .key span { display: inline-block; width: 18px; height: 3px; margin: 0 6px 3px 14px; vertical-align: middle; }
            canvas { display: block; }
            .readout { font: 12px ui-monospace, monospace; min-height: 17px; margin: 2px 0 6px 80px; color: #fff; }
            pre { background: #0c0d12; padding: 8px 12px; overflow-x: auto; }
            </style>
            </head>
            <body>
            <h1 id="title"></h1>
            <div class="sub" id="subtitle"></div>
            <div class="key" id="key"></div>
            <canvas id="heat" width="1160" height="480"></canvas>
            <div class="readout" id="heatReadout">Point at the heatmap for a cell's time, latency range and count.</div>
            <h2>Requests per second</h2>
            <canvas id="rate" width="1160" height="200"></canvas>
            <div class="readout" id="rateReadout"></div>
            <h2>Latency percentiles per time bucket</h2>
            <canvas id="pct" width="1160" height="240"></canvas>
            <div class="readout" id="pctReadout"></div>
            <h2>Summary</h2>
            <pre id="summary"></pre>
            <script>const D = %DATA%;</script>
            <script>
            (function () {
              "use strict";
              // the right margin holds the legends: the rate chart's longest label, "error+timeout+closed", fits in it
              const M = { l: 80, r: 190, t: 12, b: 34 };
              const TEXT = "#e6e6e6", GRID = "rgba(255,255,255,0.19)";
              function area(c) { return { x: M.l, y: M.t, w: c.width - M.l - M.r, h: c.height - M.t - M.b }; }
              function tx(P, t) { return P.x + t * P.w / Math.max(1, D.nT); }
              function secX(P, s) { return P.x + (s - D.start) / (D.end - D.start) * P.w; }
              function ry(P, pos) { return P.y + P.h - pos * P.h / D.rows; }
              function bucketAt(P, ev, c) {
                const r = c.getBoundingClientRect();
                const x = (ev.clientX - r.left) * c.width / r.width, y = (ev.clientY - r.top) * c.height / r.height;
                if (x < P.x || x >= P.x + P.w || y < P.y || y >= P.y + P.h || D.nT === 0) return null;
                return { t: Math.floor((x - P.x) / P.w * D.nT), pos: (P.y + P.h - y) / P.h * D.rows };
              }
              function fmtSec(s) {
                const d = D.bucketSeconds >= 1 ? 0 : D.bucketSeconds >= 0.1 ? 1 : D.bucketSeconds >= 0.01 ? 2 : 3;
                return s.toFixed(d) + " s";
              }
              function bucketTime(t) {
                const s = D.start + t * D.bucketSeconds;
                return fmtSec(s) + " – " + fmtSec(s + D.bucketSeconds);
              }
              function xAxis(g, P) {
                g.fillStyle = TEXT; g.strokeStyle = TEXT; g.textAlign = "center"; g.textBaseline = "top";
                g.beginPath(); g.moveTo(P.x, P.y + P.h + 0.5); g.lineTo(P.x + P.w, P.y + P.h + 0.5); g.stroke();
                for (const [s, label] of D.xTicks) {
                  const x = Math.round(secX(P, s)) + 0.5;
                  g.strokeStyle = GRID; g.beginPath(); g.moveTo(x, P.y); g.lineTo(x, P.y + P.h); g.stroke();
                  g.strokeStyle = TEXT; g.beginPath(); g.moveTo(x, P.y + P.h); g.lineTo(x, P.y + P.h + 4); g.stroke();
                  g.fillText(label, x, P.y + P.h + 7);
                }
              }
              function yAxisRows(g, P) {
                g.textAlign = "right"; g.textBaseline = "middle";
                g.strokeStyle = TEXT; g.beginPath(); g.moveTo(P.x - 0.5, P.y); g.lineTo(P.x - 0.5, P.y + P.h); g.stroke();
                for (const [pos, label] of D.yTicks) {
                  const y = Math.round(ry(P, pos)) + 0.5;
                  g.strokeStyle = GRID; g.beginPath(); g.moveTo(P.x, y); g.lineTo(P.x + P.w, y); g.stroke();
                  g.strokeStyle = TEXT; g.beginPath(); g.moveTo(P.x - 5, y); g.lineTo(P.x, y); g.stroke();
                  g.fillStyle = TEXT; g.fillText(label, P.x - 8, y);
                }
              }
              function percentileLine(g, P, values, color, dash) {
                for (const pass of [0, 1]) {
                  g.beginPath();
                  let open = false;
                  for (let t = 0; t < D.nT; t++) {
                    const v = values[t];
                    if (v < 0) { open = false; continue; }
                    const x = tx(P, t + 0.5), y = ry(P, v);
                    if (open) g.lineTo(x, y); else { g.moveTo(x, y); g.lineTo(x + 0.01, y); open = true; }
                  }
                  g.lineJoin = "round"; g.lineCap = pass === 0 ? "round" : "butt";
                  g.setLineDash(pass === 0 ? [] : dash);
                  g.strokeStyle = pass === 0 ? "rgba(0,0,0,0.67)" : color;
                  g.lineWidth = pass === 0 ? 4 : 2;
                  g.stroke();
                }
                g.setLineDash([]); g.lineWidth = 1;
              }
              function legend(g, P) {
                const x = P.x + P.w + 24, w = 16;
                for (let i = 0; i < P.h; i++) {
                  g.fillStyle = D.palette[Math.round((P.h - 1 - i) * 255 / (P.h - 1))];
                  g.fillRect(x, P.y + i, w, 1);
                }
                g.strokeStyle = TEXT; g.strokeRect(x - 0.5, P.y - 0.5, w + 1, P.h + 1);
                g.fillStyle = TEXT; g.textAlign = "left"; g.textBaseline = "middle";
                for (const [count, idx] of D.legend) {
                  const y = Math.round(P.y + P.h - 1 - idx * (P.h - 1) / 255) + 0.5;
                  g.beginPath(); g.moveTo(x + w, y); g.lineTo(x + w + 4, y); g.stroke();
                  g.fillText(String(count), x + w + 7, y);
                }
                g.save(); g.translate(x + w + 64, P.y + P.h / 2); g.rotate(Math.PI / 2);
                g.textAlign = "center"; g.fillText("requests per cell (log scale)", 0, 0); g.restore();
              }
              function yTitle(g, P, text) {
                g.save(); g.translate(14, P.y + P.h / 2); g.rotate(-Math.PI / 2);
                g.fillStyle = TEXT; g.textAlign = "center"; g.textBaseline = "middle"; g.fillText(text, 0, 0); g.restore();
              }

              document.getElementById("title").textContent = D.title;
              document.getElementById("subtitle").textContent = D.subtitle;
              const key = document.getElementById("key");
              for (const [name, dash] of [["p50", false], ["p99", false], ["p999", true]]) {
                const s = document.createElement("span");
                s.style.background = dash ? "repeating-linear-gradient(90deg," + D.colors[name] + " 0 5px,transparent 5px 9px)" : D.colors[name];
                key.appendChild(s); key.appendChild(document.createTextNode(name));
              }
              document.getElementById("summary").textContent = D.summary.length ? D.summary.join("\\n") : "(none)";

              // Heatmap
              const hc = document.getElementById("heat"), hg = hc.getContext("2d"), HP = area(hc);
              hg.font = "12px system-ui, sans-serif";
              hg.fillStyle = "#15171e"; hg.fillRect(0, 0, hc.width, hc.height);
              hg.fillStyle = "#000"; hg.fillRect(HP.x, HP.y, HP.w, HP.h);
              const dense = new Float64Array(Math.max(1, D.nT * D.rows));
              const cw = Math.max(1, HP.w / Math.max(1, D.nT)), rh = Math.max(1, HP.h / D.rows);
              let drawn = 0;
              for (let i = 0; i < D.cells.length; i += 4) {
                const t = D.cells[i], r = D.cells[i + 1];
                dense[t * D.rows + r] = D.cells[i + 2];
                hg.fillStyle = D.palette[D.cells[i + 3]];
                hg.fillRect(tx(HP, t), ry(HP, r + 1), cw, rh);
                drawn++;
              }
              yAxisRows(hg, HP); xAxis(hg, HP); legend(hg, HP);
              yTitle(hg, HP, D.latency + " latency");
              // the client's pauses: requests due in them waited in the client
              for (const [s, e, cause] of D.pauses) {
                const x0 = secX(HP, Math.max(D.start, s)), x1 = Math.max(x0 + 3, secX(HP, Math.min(D.end, e)));
                hg.fillStyle = "rgba(64,192,255,0.31)"; hg.fillRect(x0, HP.y, x1 - x0, HP.h);
                hg.strokeStyle = "rgba(64,192,255,0.75)"; hg.strokeRect(x0 + 0.5, HP.y + 0.5, x1 - x0 - 1, HP.h - 1);
                hg.fillStyle = TEXT; hg.textAlign = "left"; hg.textBaseline = "top"; hg.fillText("pause: " + cause, x0 + 3, HP.y + 3);
              }
              document.body.setAttribute("data-pauses", String(D.pauses.length));
              percentileLine(hg, HP, D.p50, D.colors.p50, []);
              percentileLine(hg, HP, D.p99, D.colors.p99, []);
              percentileLine(hg, HP, D.p999, D.colors.p999, [5, 4]);
              hc.addEventListener("mousemove", function (ev) {
                const b = bucketAt(HP, ev, hc), out = document.getElementById("heatReadout");
                if (!b) { out.textContent = ""; return; }
                const r = Math.min(D.rows - 1, Math.floor(b.pos));
                out.textContent = "time " + bucketTime(b.t) + "  ·  latency " + D.rowText[r] + "  ·  count "
                  + dense[b.t * D.rows + r] + "  (bucket: " + D.totals[b.t] + " requests, p50 " + D.pText[b.t][0]
                  + ", p99 " + D.pText[b.t][1] + ", p999 " + D.pText[b.t][2] + ")";
              });

              // Requests per second
              const rc = document.getElementById("rate"), rg = rc.getContext("2d"), RP = area(rc);
              rg.font = "12px system-ui, sans-serif";
              let maxRate = 1;
              // a bucket's rate is over the time the trace covers of it: the first and last buckets are partly filled
              const rate = (values, t) => values[t] / D.covered[t];
              for (let t = 0; t < D.nT; t++) maxRate = Math.max(maxRate, rate(D.totals, t));
              let step = Math.pow(10, Math.floor(Math.log10(maxRate)));
              for (const m of [1, 2, 5, 10]) { if (maxRate / (step * m) <= 5) { step *= m; break; } }
              const top = Math.ceil(maxRate * 1.05 / step) * step;
              const rateY = v => RP.y + RP.h - v / top * RP.h;
              rg.textAlign = "right"; rg.textBaseline = "middle";
              for (let v = 0; v <= top + 1e-9; v += step) {
                const y = Math.round(rateY(v)) + 0.5;
                rg.strokeStyle = GRID; rg.beginPath(); rg.moveTo(RP.x, y); rg.lineTo(RP.x + RP.w, y); rg.stroke();
                rg.fillStyle = TEXT; rg.fillText(v >= 1e6 ? (v / 1e6) + "M" : v >= 1e3 ? (v / 1e3) + "k" : String(v), RP.x - 8, y);
              }
              rg.strokeStyle = TEXT; rg.beginPath(); rg.moveTo(RP.x - 0.5, RP.y); rg.lineTo(RP.x - 0.5, RP.y + RP.h); rg.stroke();
              xAxis(rg, RP); yTitle(rg, RP, "requests/s");
              const series = [["all", D.totals, "#4da6ff"], ["miss", D.misses, "#ffd24d"], ["error+timeout+closed", D.failures, "#ff4d4d"]];
              let legendFits = true;
              series.forEach(function ([name, values, color], i) {
                rg.strokeStyle = color; rg.lineWidth = 2; rg.beginPath();
                const drawn = [];
                for (let t = 0; t < D.nT; t++) {
                  const v = rate(values, t), x = tx(RP, t + 0.5), y = rateY(v);
                  drawn.push(Math.round(v));
                  if (t === 0) rg.moveTo(x, y); else rg.lineTo(x, y);
                }
                rg.stroke(); rg.lineWidth = 1;
                rg.fillStyle = color; rg.fillRect(RP.x + RP.w + 14, RP.y + 8 + i * 18, 14, 3);
                rg.fillStyle = TEXT; rg.textAlign = "left"; rg.fillText(name, RP.x + RP.w + 32, RP.y + 10 + i * 18);
                legendFits = legendFits && RP.x + RP.w + 32 + rg.measureText(name).width <= rc.width;
                if (i === 0) rc.setAttribute("data-rates", drawn.join(" ")); // the requests/s drawn, for a reader of the DOM
              });
              rc.setAttribute("data-legend-fits", String(legendFits));
              const box = rc.getBoundingClientRect(); // the plot area on the page, for a test that reads a screenshot
              rc.setAttribute("data-plot", [Math.round(box.left + window.scrollX + RP.x), Math.round(box.top + window.scrollY
                + RP.y), RP.w, RP.h].join(" "));
              rc.addEventListener("mousemove", function (ev) {
                const b = bucketAt(RP, ev, rc), out = document.getElementById("rateReadout");
                if (!b) { out.textContent = ""; return; }
                const f = values => rate(values, b.t).toFixed(D.bucketSeconds >= 1 ? 0 : 1);
                const part = D.covered[b.t] < D.bucketSeconds * 0.999
                  ? "  (the trace covers " + fmtSec(D.covered[b.t]) + " of this bucket)" : "";
                out.textContent = "time " + bucketTime(b.t) + "  ·  " + f(D.totals) + " requests/s, misses "
                  + f(D.misses) + "/s, failures " + f(D.failures) + "/s" + part;
              });

              // Percentiles over time
              const pc = document.getElementById("pct"), pg = pc.getContext("2d"), PP = area(pc);
              pg.font = "12px system-ui, sans-serif";
              yAxisRows(pg, PP); xAxis(pg, PP); yTitle(pg, PP, D.latency + " latency");
              [["p50", D.p50, []], ["p99", D.p99, []], ["p999", D.p999, [5, 4]]].forEach(function ([name, values, dash], i) {
                percentileLine(pg, PP, values, D.colors[name], dash);
                pg.fillStyle = D.colors[name]; pg.fillRect(PP.x + PP.w + 14, PP.y + 8 + i * 18, 14, 3);
                pg.fillStyle = TEXT; pg.textAlign = "left"; pg.textBaseline = "middle"; pg.fillText(name, PP.x + PP.w + 32, PP.y + 10 + i * 18);
              });
              pc.addEventListener("mousemove", function (ev) {
                const b = bucketAt(PP, ev, pc), out = document.getElementById("pctReadout");
                if (!b) { out.textContent = ""; return; }
                out.textContent = "time " + bucketTime(b.t) + "  ·  p50 " + D.pText[b.t][0] + "  p99 " + D.pText[b.t][1]
                  + "  p999 " + D.pText[b.t][2] + "  (" + D.totals[b.t] + " requests)";
              });

              document.body.setAttribute("data-rendered", String(drawn));
            })();
            </script>
            </body>
            </html>
            """;
}
