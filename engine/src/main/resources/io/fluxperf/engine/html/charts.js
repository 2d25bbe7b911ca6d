// fluxperf's charts for its HTML pages: inline SVG drawn from the page's data, no libraries, no network.
// Each drawn chart adds one to <body data-charts>, which a headless browser test reads back.
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
  function sig3(v) { return v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2); }
  function nanos(ns) {
    if (ns < 1e3) return ns.toFixed(0) + " ns";
    if (ns < 1e6) return sig3(ns / 1e3) + " µs";
    if (ns < 1e9) return sig3(ns / 1e6) + " ms";
    return sig3(ns / 1e9) + " s";
  }
  function count(v) { return v >= 1e6 ? sig3(v / 1e6) + "M" : v >= 1e3 ? sig3(v / 1e3) + "k" : String(Math.round(v * 10) / 10); }
  // About five round steps from 0 to max.
  function ticks(max) {
    if (!(max > 0)) max = 1;
    var step = Math.pow(10, Math.floor(Math.log10(max)) - 1);
    var ms = [1, 2, 5, 10, 20, 50, 100];
    for (var i = 0; i < ms.length; i++) { if (max / (step * ms[i]) <= 5) { step *= ms[i]; break; } }
    var out = [];
    // about five steps: multiples of step counted, not summed, so labels stay round (0.3, not 0.30000000000000004)
    for (var i = 0; i <= 11; i++) {
      var v = Math.round(i * step * 1e6) / 1e6;
      out.push(v);
      if (v >= max) break;
    }
    return out;
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
  function grid(P, yTicks, yOf, fmt, xTicks, xOf) {
    var g = el("g", { "class": "axes" }, P.svg);
    yTicks.forEach(function (v) {
      var y = yOf(v);
      el("line", { x1: P.x, x2: P.x + P.w, y1: y, y2: y, stroke: "#ddd" }, g);
      text(g, P.x - 6, y + 4, fmt(v), "end");
    });
    xTicks.forEach(function (t) {
      var x = xOf(t[0]);
      el("line", { x1: x, x2: x, y1: P.y, y2: P.y + P.h, stroke: "#ddd" }, g);
      text(g, x, P.y + P.h + 16, t[1]);
    });
    el("rect", { x: P.x, y: P.y, width: P.w, height: P.h, fill: "none", stroke: "#888" }, g);
  }
  function legend(P, series) {
    series.forEach(function (s, i) {
      var y = P.y + 10 + i * 18;
      el("line", { x1: P.x + P.w + 12, x2: P.x + P.w + 32, y1: y, y2: y, stroke: s.color, "stroke-width": 3,
        "stroke-dasharray": s.dash || "" }, P.svg);
      text(P.svg, P.x + P.w + 38, y + 4, s.name, "start");
    });
  }
  function line(P, pts, color, dash) {
    if (pts.length === 0) return;
    var d = "";
    pts.forEach(function (p, i) { d += (i === 0 ? "M" : "L") + p[0].toFixed(1) + "," + p[1].toFixed(1); });
    el("path", { d: d, fill: "none", stroke: color, "stroke-width": 2, "stroke-dasharray": dash || "", "class": "series" }, P.svg);
  }
  function done() {
    var b = document.body;
    b.setAttribute("data-charts", String(Number(b.getAttribute("data-charts") || 0) + 1));
  }

  // Latency by percentile: x = log10(1/(1-p)), HdrHistogram's "nines"; 100% sits one step past the last point.
  function spectrum(container, title, series) {
    var P = frame(container, title);
    var maxX = 1, maxY = 0;
    var mapped = series.map(function (s, i) {
      var pts = [], last = 0;
      s.points.forEach(function (p) {
        var x = p[0] >= 100 ? last + 0.1 : Math.log10(1 / (1 - p[0] / 100));
        last = x; pts.push([x, p[1]]);
        maxX = Math.max(maxX, x); maxY = Math.max(maxY, p[1]);
      });
      return { name: s.name, color: s.color || PALETTE[i % PALETTE.length], dash: s.dash, pts: pts };
    });
    maxX = Math.ceil(maxX);
    var yt = ticks(maxY), top = yt[yt.length - 1] || 1;
    var xOf = function (x) { return P.x + x / maxX * P.w; };
    var yOf = function (v) { return P.y + P.h - v / top * P.h; };
    var xt = [];
    for (var n = 0; n <= maxX; n++) {
      var label = n === 0 ? "0%" : (100 - Math.pow(10, 2 - n)).toFixed(Math.max(0, n - 2)) + "%";
      xt.push([n, label]);
    }
    grid(P, yt, yOf, nanos, xt, xOf);
    text(P.svg, P.x + P.w / 2, H - 4, "percentile");
    mapped.forEach(function (s) { line(P, s.pts.map(function (p) { return [xOf(p[0]), yOf(p[1])]; }), s.color, s.dash); });
    legend(P, mapped);
    done();
    return P.svg;
  }

  // Values over time: x seconds since the run's start, y from 0; unit "ns" formats times.
  function timeSeries(container, title, unit, series) {
    var P = frame(container, title);
    var maxX = 1, maxY = 0;
    series.forEach(function (s) { s.points.forEach(function (p) { maxX = Math.max(maxX, p[0]); maxY = Math.max(maxY, p[1]); }); });
    var yt = ticks(maxY), top = yt[yt.length - 1] || 1;
    var xOf = function (x) { return P.x + x / maxX * P.w; };
    var yOf = function (v) { return P.y + P.h - v / top * P.h; };
    var xt = ticks(maxX).filter(function (v) { return v <= maxX; }).map(function (v) { return [v, v + " s"]; });
    grid(P, yt, yOf, unit === "ns" ? nanos : count, xt, xOf);
    text(P.svg, P.x + P.w / 2, H - 4, "seconds since the start");
    series.forEach(function (s, i) {
      s.color = s.color || PALETTE[i % PALETTE.length];
      line(P, s.points.map(function (p) { return [xOf(p[0]), yOf(p[1])]; }), s.color, s.dash);
    });
    legend(P, series);
    done();
    return P.svg;
  }

  return { spectrum: spectrum, timeSeries: timeSeries, nanos: nanos, palette: PALETTE };
})();
