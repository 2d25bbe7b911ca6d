package io.fluxperf.trace;

import java.awt.Color;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What the PNG and the HTML heatmap share, so that they look alike: the colour scale, the latency
 * rows shown, tick positions and labels. After rpc-perf's waterfall: a black plot, empty cells
 * black, counts from dark blue (few) through cyan, green and yellow to red (most), on a log scale.
 */
final class HeatmapStyle {
    static final int PALETTE_SIZE = 256;
    static final Color PLOT_BACKGROUND = Color.BLACK;
    static final Color PAGE_BACKGROUND = new Color(0x15, 0x17, 0x1e);
    static final Color TEXT = new Color(0xe6, 0xe6, 0xe6);
    static final Color GRID = new Color(0xff, 0xff, 0xff, 0x30);
    static final Color P50 = Color.WHITE;
    static final Color P99 = new Color(0xff, 0x4d, 0xff);
    static final Color P999 = new Color(0xb0, 0xb0, 0xb0);
    /** A client pause: a translucent band with a brighter edge, apart from the cells' palette. */
    static final Color PAUSE_FILL = new Color(0x40, 0xc0, 0xff, 0x50);
    static final Color PAUSE_EDGE = new Color(0x40, 0xc0, 0xff, 0xc0);

    private static final Color[] PALETTE = new Color[PALETTE_SIZE];

    static {
        for (int i = 0; i < PALETTE_SIZE; i++) {
            float f = i / (float) (PALETTE_SIZE - 1);
            PALETTE[i] = Color.getHSBColor((1 - f) * 236f / 360f, 1f, 0.55f + 0.45f * f);
        }
    }

    private HeatmapStyle() {
    }

    /** The colour of a non-empty cell: log(count) / log(max) picks the palette entry. */
    static Color color(long count, long max) {
        return PALETTE[paletteIndex(count, max)];
    }

    static int paletteIndex(long count, long max) {
        if (max <= 1 || count >= max) {
            return PALETTE_SIZE - 1;
        }
        double f = Math.log(Math.max(1, count)) / Math.log(max);
        return (int) Math.round(f * (PALETTE_SIZE - 1));
    }

    static Color paletteEntry(int i) {
        return PALETTE[i];
    }

    static String hex(Color c) {
        return String.format(Locale.ROOT, "#%02x%02x%02x", c.getRed(), c.getGreen(), c.getBlue());
    }

    /** First latency row shown: the start of the lowest occupied octave (1 µs when empty). */
    static int rowLo(HeatmapAggregator h) {
        return h.minRow() < 0 ? LatencyBuckets.row(1_000) : LatencyBuckets.octaveStart(h.minRow());
    }

    /** Last latency row shown: the end of the highest occupied octave (about 1 s when empty). */
    static int rowHi(HeatmapAggregator h) {
        return h.maxRow() < 0 ? LatencyBuckets.row(1_000_000_000) : LatencyBuckets.octaveEnd(h.maxRow());
    }

    /** Where a latency falls on the shown rows, 0 (bottom of rowLo) .. rows (top of rowHi). */
    static double rowPosition(long nanos, int rowLo, int rowHi) {
        int r = Math.max(rowLo, Math.min(rowHi, LatencyBuckets.row(nanos)));
        long lo = LatencyBuckets.lowerBound(r);
        long hi = LatencyBuckets.upperBound(r);
        double frac = Math.max(0, Math.min(1, (nanos - lo) / (double) (hi - lo)));
        return r - rowLo + frac;
    }

    /** A labelled tick: a value (ns or s) and its text. */
    record Tick(double value, String label) {
    }

    /** Latency ticks at 1-2-5 steps (only powers of ten when that is too many) within the shown rows. */
    static List<Tick> latencyTicks(int rowLo, int rowHi) {
        long lo = LatencyBuckets.lowerBound(rowLo);
        long hi = LatencyBuckets.upperBound(rowHi);
        List<Tick> ticks = new ArrayList<>();
        for (int pass = 0; pass < 2; pass++) {
            ticks.clear();
            int[] steps = pass == 0 ? new int[]{1, 2, 5} : new int[]{1};
            for (long decade = 1; decade <= 100_000_000_000L; decade *= 10) {
                for (int s : steps) {
                    long v = s * decade;
                    if (v >= lo && v < hi) {
                        ticks.add(new Tick(v, latencyLabel(v)));
                    }
                }
            }
            if (ticks.size() <= 12) {
                break;
            }
        }
        return ticks;
    }

    /** A round latency as text: {@code 500 ns}, {@code 20 µs}, {@code 5 ms}, {@code 2 s}. */
    static String latencyLabel(long nanos) {
        if (nanos < 1_000) {
            return nanos + " ns";
        }
        if (nanos < 1_000_000) {
            return trim(nanos / 1e3) + " µs";
        }
        if (nanos < 1_000_000_000) {
            return trim(nanos / 1e6) + " ms";
        }
        return trim(nanos / 1e9) + " s";
    }

    /** Any latency as text with 3 significant digits: {@code 98.3 µs}. */
    static String latencyText(long nanos) {
        if (nanos < 1_000) {
            return nanos + " ns";
        }
        if (nanos < 1_000_000) {
            return sig3(nanos / 1e3) + " µs";
        }
        if (nanos < 1_000_000_000) {
            return sig3(nanos / 1e6) + " ms";
        }
        return sig3(nanos / 1e9) + " s";
    }

    private static String sig3(double v) {
        if (v >= 100) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        if (v >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        return String.format(Locale.ROOT, "%.2f", v);
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }

    private static final double[] TIME_STEPS = {0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10,
        15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400};

    /** Time ticks (seconds since the clock origin) at a round step, at most about 10 of them. */
    static List<Tick> timeTicks(double fromSeconds, double toSeconds) {
        double span = Math.max(toSeconds - fromSeconds, 1e-3);
        double step = TIME_STEPS[TIME_STEPS.length - 1];
        for (double s : TIME_STEPS) {
            if (span / s <= 10) {
                step = s;
                break;
            }
        }
        List<Tick> ticks = new ArrayList<>();
        for (double v = Math.ceil(fromSeconds / step - 1e-9) * step; v <= toSeconds + 1e-9; v += step) {
            ticks.add(new Tick(v, timeLabel(v, step)));
        }
        return ticks;
    }

    static String timeLabel(double seconds, double step) {
        if (step >= 60) {
            long s = Math.round(seconds);
            long h = s / 3600;
            long m = s % 3600 / 60;
            return h > 0 ? String.format(Locale.ROOT, "%d:%02d:%02d", h, m, s % 60)
                    : String.format(Locale.ROOT, "%d:%02d", m, s % 60);
        }
        if (step >= 1) {
            return Math.round(seconds) + " s";
        }
        return String.format(Locale.ROOT, step >= 0.1 ? "%.1f s" : step >= 0.01 ? "%.2f s" : "%.3f s", seconds);
    }

    /** Counts for the colour legend: 1, 10, 100, … below max, and max. */
    static List<Long> legendCounts(long max) {
        List<Long> counts = new ArrayList<>();
        for (long c = 1; c < max; c *= 10) {
            counts.add(c);
        }
        counts.add(Math.max(1, max));
        if (counts.size() >= 2 && counts.get(counts.size() - 2) * 3 > max && max > 1) {
            counts.remove(counts.size() - 2); // keep the labels apart
        }
        return counts;
    }

    /** A time bucket width as text: {@code 1 s}, {@code 250 ms}. */
    static String bucketLabel(long nanos) {
        return nanos % 1_000_000_000L == 0 ? nanos / 1_000_000_000L + " s" : latencyText(nanos);
    }
}
