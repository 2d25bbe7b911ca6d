package io.fluxperf.engine.sweep;

import java.util.ArrayList;
import java.util.List;

/**
 * Where things go on the latency-vs-throughput plot, shared by the PNG and the SVG so that both
 * draw the same picture: achieved requests/s across (linear, from 0), latency up (log scale, ms).
 */
final class PlotFrame {
    static final int WIDTH = 960;
    static final int HEIGHT = 600;
    static final int LEFT = 90;
    static final int RIGHT = 30;
    static final int TOP = 60;
    static final int BOTTOM = 70;
    /** The series drawn: name, and which latency of a step. */
    static final String[] SERIES = {"p50", "p99", "p999"};

    final double xMax;
    final double yMinMs;
    final double yMaxMs;

    PlotFrame(SweepResult r, List<Bound> bounds) {
        double x = 0;
        double lo = Double.MAX_VALUE;
        double hi = 0;
        for (SweepStep s : r.steps()) {
            x = Math.max(x, s.achieved());
            for (String series : SERIES) {
                double v = latencyMs(s, series);
                if (v > 0) {
                    lo = Math.min(lo, v);
                    hi = Math.max(hi, v);
                }
            }
        }
        for (Bound b : bounds) {
            lo = Math.min(lo, b.ms());
            hi = Math.max(hi, b.ms());
        }
        if (hi == 0) {
            lo = 0.01;
            hi = 1;
        }
        xMax = niceCeiling(Math.max(1, x * 1.05));
        yMinMs = Math.pow(10, Math.floor(Math.log10(lo)));
        yMaxMs = Math.pow(10, Math.ceil(Math.log10(hi * 1.0001)));
    }

    /** An objective's line: its text and its latency bound. */
    record Bound(String text, String series, double ms) {
    }

    /** The latency objectives on a percentile of every request, as lines to draw. */
    static List<Bound> bounds(List<StepObjective> objectives) {
        List<Bound> out = new ArrayList<>();
        for (StepObjective o : objectives) {
            if (!Double.isNaN(o.latencyBoundNanos())) {
                out.add(new Bound(o.text(), seriesOf(o.latencyPercentile()), o.latencyBoundNanos() / 1e6));
            }
        }
        return out;
    }

    private static String seriesOf(double percentile) {
        return percentile == 50 ? "p50" : percentile == 99 ? "p99" : percentile == 99.9 ? "p999" : null;
    }

    static double latencyMs(SweepStep s, String series) {
        long ns = switch (series) {
            case "p50" -> s.p50();
            case "p99" -> s.p99();
            default -> s.p999();
        };
        return ns / 1e6;
    }

    double x(double rate) {
        return LEFT + rate / xMax * (WIDTH - LEFT - RIGHT);
    }

    double y(double ms) {
        double v = Math.max(ms, yMinMs);
        double f = (Math.log10(v) - Math.log10(yMinMs)) / (Math.log10(yMaxMs) - Math.log10(yMinMs));
        return HEIGHT - BOTTOM - f * (HEIGHT - TOP - BOTTOM);
    }

    /** Rates to label across: 0 and steps of 1, 2 or 5 × 10^k, 4 to 10 of them. */
    List<Double> xTicks() {
        double step = niceStep(xMax / 6);
        List<Double> t = new ArrayList<>();
        for (double v = 0; v <= xMax * 1.0001; v += step) {
            t.add(v);
        }
        return t;
    }

    /** Latencies to label up: 1, 2 and 5 × 10^k in range (decades alone when the range is wide). */
    List<Double> yTicks() {
        int decades = (int) Math.round(Math.log10(yMaxMs / yMinMs));
        double[] mult = decades > 4 ? new double[] {1} : new double[] {1, 2, 5};
        List<Double> t = new ArrayList<>();
        for (double d = yMinMs; d <= yMaxMs * 1.0001; d *= 10) {
            for (double m : mult) {
                if (d * m <= yMaxMs * 1.0001) {
                    t.add(d * m);
                }
            }
        }
        return t;
    }

    static String msLabel(double ms) {
        if (ms >= 1) {
            return trim(ms) + " ms";
        }
        return trim(ms * 1000) + " µs";
    }

    static String rateLabel(double rate) {
        if (rate >= 1_000_000) {
            return trim(rate / 1_000_000) + "M";
        }
        if (rate >= 1000) {
            return trim(rate / 1000) + "k";
        }
        return trim(rate);
    }

    private static String trim(double v) {
        return new java.math.BigDecimal(v).round(new java.math.MathContext(3)).stripTrailingZeros().toPlainString();
    }

    private static double niceStep(double raw) {
        double p = Math.pow(10, Math.floor(Math.log10(raw)));
        double f = raw / p;
        return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
    }

    private static double niceCeiling(double v) {
        double step = niceStep(v / 6);
        return Math.ceil(v / step) * step;
    }
}
