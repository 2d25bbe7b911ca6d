// fluxperf's charts for its HTML pages: inline SVG drawn from the page's data, no libraries, no network.
// Each drawn chart adds one to <body data-charts>, which a headless browser test reads back; each <svg>
// says its y scale (data-scale, data-y-range) and where its plot area lies on the page (data-plot), so a
// test can find what it drew in a screenshot.
var FluxCharts = (function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var W = 900, H = 320, M = { l: 70, r: 150, t: 14, b: 40 };
  var PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"];

  function el(name, attrs, parent) {
    var e = document.createElementNS(NS, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function text(parent, x, y, s, anchor, extra) {
    var t = el("text", Object.assign({ x: x, y: y, "text-anchor": anchor || "middle", "font-size": 12, fill: "#222" }, extra || {}), parent);
    t.textContent = s;
    return t;
  }
  // Three significant digits without trailing zeros: a round tick reads "2 ms", not "2.00 ms".
  function sig3(v) { return String(parseFloat(v.toPrecision(3))); }
  function nanos(ns) {
    if (ns < 1e3) return sig3(ns) + " ns";
    if (ns < 1e6) return sig3(ns / 1e3) + " µs";
    if (ns < 1e9) return sig3(ns / 1e6) + " ms";
    return sig3(ns / 1e9) + " s";
  }
  function count(v) { return v >= 1e6 ? sig3(v / 1e6) + "M" : v >= 1e3 ? sig3(v / 1e3) + "k" : sig3(v); }
  // About five round steps from 0 to max.
  function ticks(max) {
    if (!(max > 0)) max = 1;
    var step = Math.pow(10, Math.floor(Math.log10(max)) - 1);
    var ms = [1, 2, 5, 10, 20, 50, 100];
    for (var i = 0; i < ms.length; i++) { if (max / (step * ms[i]) <= 5) { step *= ms[i]; break; } }
    var out = [];
    // multiples of step counted, not summed, so labels stay round (0.3, not 0.30000000000000004)
    for (var i = 0; i <= 11; i++) {
      var v = Math.round(i * step * 1e6) / 1e6;
      out.push(v);
      if (v >= max) break;
    }
    return out;
  }
  // A log axis from the decade at or below half the least positive value (so that the least one sits clearly above
  // the floor) to the decade at or above the largest: ticks at 1, 2 and 5 of each decade over up to three decades,
  // at each decade beyond.
  function logAxis(least, max) {
    var e0 = Math.floor(Math.log10(least / 2)), e1 = Math.ceil(Math.log10(max));
    if (e1 <= e0) e1 = e0 + 1;
    var steps = e1 - e0 <= 3 ? [1, 2, 5] : [1];
    var t = [];
    for (var e = e0; e <= e1; e++) {
      steps.forEach(function (m) { if (e < e1 || m === 1) t.push(m * Math.pow(10, e)); });
    }
    return { lo: Math.pow(10, e0), hi: Math.pow(10, e1), ticks: t };
  }
  // The y scale of a chart: log when asked and some value is above 0 (values at or below 0 sit on its floor), else linear from 0.
  function yScale(P, values, log) {
    var max = 0, least = Infinity;
    values.forEach(function (v) { if (v > max) max = v; if (v > 0 && v < least) least = v; });
    if (log && max > 0) {
      var a = logAxis(least, max), l0 = Math.log10(a.lo), span = Math.log10(a.hi) - l0;
      return { log: true, lo: a.lo, hi: a.hi, ticks: a.ticks,
        y: function (v) { return P.y + P.h - (v > a.lo ? (Math.log10(v) - l0) / span : 0) * P.h; } };
    }
    var yt = ticks(max), top = yt[yt.length - 1] || 1;
    return { log: false, lo: 0, hi: top, ticks: yt, y: function (v) { return P.y + P.h - v / top * P.h; } };
  }
  function frame(container, title) {
    var box = document.createElement("div");
    box.className = "chart";
    if (title) { var h = document.createElement("h3"); h.textContent = title; box.appendChild(h); }
    var svg = el("svg", { width: W, height: H, viewBox: "0 0 " + W + " " + H, role: "img" });
    el("rect", { x: 0, y: 0, width: W, height: H, fill: "#fff" }, svg);
    box.appendChild(svg);
    container.appendChild(box);
    return { svg: svg, x: M.l, y: M.t, w: W - M.l - M.r, h: H - M.t - M.b };
  }
  function describe(P, scale) {
    P.svg.setAttribute("data-scale", scale.log ? "log" : "linear");
    P.svg.setAttribute("data-y-range", scale.lo + " " + scale.hi);
    var r = P.svg.getBoundingClientRect();
    P.svg.setAttribute("data-plot", [Math.round(r.left + window.scrollX + P.x), Math.round(r.top + window.scrollY + P.y),
      P.w, P.h].join(" "));
  }
  function grid(P, yTicks, yOf, fmt, xTicks, xOf) {
    var g = el("g", { "class": "axes" }, P.svg);
    yTicks.forEach(function (v) {
      var y = yOf(v);
      el("line", { x1: P.x, x2: P.x + P.w, y1: y, y2: y, stroke: "#ddd" }, g);
      text(g, P.x - 6, y + 4, fmt(v), "end", { "class": "ytick" });
    });
    xTicks.forEach(function (t) {
      var x = xOf(t[0]);
      el("line", { x1: x, x2: x, y1: P.y, y2: P.y + P.h, stroke: "#ddd" }, g);
      text(g, x, P.y + P.h + 16, t[1]);
    });
    el("rect", { x: P.x, y: P.y, width: P.w, height: P.h, fill: "none", stroke: "#888" }, g);
  }
  function yTitle(P, s) {
    text(P.svg, 0, 0, s, "middle", { transform: "translate(14," + (P.y + P.h / 2) + ") rotate(-90)", "class": "ytitle" });
  }
  function legend(P, series) {
    series.forEach(function (s, i) {
      var y = P.y + 10 + i * 18;
      el("line", { x1: P.x + P.w + 12, x2: P.x + P.w + 32, y1: y, y2: y, stroke: s.color, "stroke-width": 3,
        "stroke-dasharray": s.dash || "" }, P.svg);
      text(P.svg, P.x + P.w + 38, y + 4, s.name, "start");
    });
  }
  function line(P, pts, color, dash, name) {
    if (pts.length === 0) return;
    var d = "";
    pts.forEach(function (p, i) { d += (i === 0 ? "M" : "L") + p[0].toFixed(1) + "," + p[1].toFixed(1); });
    el("path", { d: d, fill: "none", stroke: color, "stroke-width": 2, "stroke-dasharray": dash || "", "class": "series",
      "data-name": name || "" }, P.svg);
  }
  function done() {
    var b = document.body;
    b.setAttribute("data-charts", String(Number(b.getAttribute("data-charts") || 0) + 1));
  }

  // Latency by percentile: x = log10(1/(1-p)), HdrHistogram's "nines"; 100% sits one step past the last point.
  // y is latency on a log scale, so that p50 and the tail show on one chart.
  function spectrum(container, title, series) {
    var P = frame(container, title);
    var maxX = 1, values = [];
    var mapped = series.map(function (s, i) {
      var pts = [], last = 0;
      s.points.forEach(function (p) {
        var x = p[0] >= 100 ? last + 0.1 : Math.log10(1 / (1 - p[0] / 100));
        last = x; pts.push([x, p[1]]);
        maxX = Math.max(maxX, x); values.push(p[1]);
      });
      return { name: s.name, color: s.color || PALETTE[i % PALETTE.length], dash: s.dash, pts: pts };
    });
    maxX = Math.ceil(maxX);
    var scale = yScale(P, values, true);
    var xOf = function (x) { return P.x + x / maxX * P.w; };
    var xt = [];
    for (var n = 0; n <= maxX; n++) {
      var label = n === 0 ? "0%" : (100 - Math.pow(10, 2 - n)).toFixed(Math.max(0, n - 2)) + "%";
      xt.push([n, label]);
    }
    grid(P, scale.ticks, scale.y, nanos, xt, xOf);
    text(P.svg, P.x + P.w / 2, H - 4, "percentile");
    yTitle(P, scale.log ? "latency (log scale)" : "latency");
    mapped.forEach(function (s) {
      line(P, s.pts.map(function (p) { return [xOf(p[0]), scale.y(p[1])]; }), s.color, s.dash, s.name);
    });
    legend(P, mapped);
    describe(P, scale);
    done();
    return P.svg;
  }

  // Values over time: x seconds since the run's start; unit "ns" formats times. opts.log: a log y axis
  // (latencies that span decades), else linear from 0 (counts and rates).
  function timeSeries(container, title, unit, series, opts) {
    var P = frame(container, title);
    var maxX = 1, values = [];
    series.forEach(function (s) { s.points.forEach(function (p) { maxX = Math.max(maxX, p[0]); values.push(p[1]); }); });
    var scale = yScale(P, values, !!(opts && opts.log));
    var xOf = function (x) { return P.x + x / maxX * P.w; };
    var xt = ticks(maxX).filter(function (v) { return v <= maxX; }).map(function (v) { return [v, v + " s"]; });
    grid(P, scale.ticks, scale.y, unit === "ns" ? nanos : count, xt, xOf);
    text(P.svg, P.x + P.w / 2, H - 4, "seconds since the start");
    if (scale.log) yTitle(P, "log scale" + (opts.floorNote ? "; " + opts.floorNote : ""));
    series.forEach(function (s, i) {
      s.color = s.color || PALETTE[i % PALETTE.length];
      line(P, s.points.map(function (p) { return [xOf(p[0]), scale.y(p[1])]; }), s.color, s.dash, s.name);
    });
    legend(P, series);
    describe(P, scale);
    done();
    return P.svg;
  }

  return { spectrum: spectrum, timeSeries: timeSeries, nanos: nanos, palette: PALETTE };
})();
