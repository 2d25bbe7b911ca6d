package io.fluxperf.engine.report;

import java.util.Locale;

/**
 * Figures for people to read at a glance: a latency in the unit that keeps three significant digits
 * ({@code 850 ns}, {@code 31.9 us}, {@code 244 us}, {@code 3.12 ms}, {@code 1.50 s}). The report's
 * rpc-perf lines stay in ns, since rpc-perf's users parse them; these go beside them. Microseconds
 * are written {@code us}, as the TCP line and the objectives write them, so the text is the same
 * in any locale's terminal.
 */
public final class HumanUnits {
    private HumanUnits() {
    }

    /** {@code nanos} in ns, us, ms or s, with three significant digits (a whole number in ns). */
    public static String latency(long nanos) {
        if (nanos < 1_000) {
            return nanos + " ns";
        }
        if (nanos < 999_500) {
            return significant(nanos / 1e3) + " us";
        }
        if (nanos < 999_500_000) {
            return significant(nanos / 1e6) + " ms";
        }
        return significant(nanos / 1e9) + " s";
    }

    /**
     * A latency with its interval, the bounds in the value's unit and to its decimals:
     * {@code 401 us [380, 425]}, {@code 31.9 us [31.7, 32.1]}.
     */
    public static String latencyInterval(long nanos, long low, long high) {
        return latency(nanos) + " " + bounds(nanos, low, high);
    }

    /** The bounds of {@code nanos}'s interval in its unit and to its decimals, as {@link #latencyInterval}: {@code [380, 425]}. */
    public static String bounds(long nanos, long low, long high) {
        double unit = nanos < 1_000 ? 1 : nanos < 999_500 ? 1e3 : nanos < 999_500_000 ? 1e6 : 1e9;
        double v = nanos / unit;
        String format = unit == 1 || v >= 99.95 ? "%.0f" : v >= 9.995 ? "%.1f" : "%.2f";
        return "[" + String.format(Locale.ROOT, format, low / unit) + ", " + String.format(Locale.ROOT, format, high / unit) + "]";
    }

    /** Seconds as a whole number when 10 or more, else with one decimal: {@code 14 s}, {@code 2.5 s}. */
    public static String seconds(double seconds) {
        return (seconds >= 10 || seconds == Math.rint(seconds)
                ? String.format(Locale.ROOT, "%.0f", seconds) : String.format(Locale.ROOT, "%.1f", seconds)) + " s";
    }

    /** Three significant digits of a value from 1 to 999.5. */
    private static String significant(double v) {
        return String.format(Locale.ROOT, v >= 99.95 ? "%.0f" : v >= 9.995 ? "%.1f" : "%.2f", v);
    }
}
