package io.fluxperf.engine.slo;

import java.util.Locale;

/**
 * One service-level objective, parsed: a measure of a workload (or of all), a comparison and a
 * threshold. Immutable.
 *
 * @param text       the objective as written canonically, e.g. {@code get.p99<1ms}; a JUnit test's name
 * @param workload   the workload it applies to, or null for every request of the run
 * @param measure    what is measured
 * @param percentile for {@link Measure#PERCENTILE}, the percentile (0 < p <= 100); otherwise 0
 * @param comparison how the measured value must compare to the threshold
 * @param threshold  in the measure's unit: ns for latencies, percent, or requests/s
 * @param abort      stop the run at the end of the first window in which it fails
 * @param strict     a verdict too close to call at the run's sample size fails (--slo-strict)
 * @param origin     where it was given, to start a message with: {@code --slo 'p99<2ms'} or
 *                   {@code ci.toml: slo[0] (line 4)}
 */
public record Objective(String text, String workload, Measure measure, double percentile, Comparison comparison,
                        double threshold, boolean abort, String origin, boolean strict) {
    public Objective(String text, String workload, Measure measure, double percentile, Comparison comparison,
                     double threshold, boolean abort, String origin) {
        this(text, workload, measure, percentile, comparison, threshold, abort, origin, false);
    }


    /** What an objective measures; latencies are from the report's Latency (from the intended send time in open loop). */
    public enum Measure {
        /** A latency percentile, {@code p99}, {@code p999}, {@code p99.5}. */
        PERCENTILE("latency", "ns"),
        /** The largest latency. */
        MAX("latency", "ns"),
        /** The mean latency. */
        MEAN("latency", "ns"),
        /** Requests answered (ok or miss) as a percentage of all requests. */
        SUCCESS("percent", "%"),
        /** Requests that ended in an error, a timeout or a closed connection, as a percentage of all. */
        ERRORS("percent", "%"),
        /** Hits among answered reads, percent. */
        HITRATE("percent", "%"),
        /** Requests that ended per second. */
        RATE("rate", "requests/s");

        private final String kind;
        private final String unit;

        Measure(String kind, String unit) {
            this.kind = kind;
            this.unit = unit;
        }

        /** latency, percent or rate. */
        public String kind() {
            return kind;
        }

        /** The unit of measured values and thresholds: ns, % or requests/s. */
        public String unit() {
            return unit;
        }

        public boolean isLatency() {
            return kind.equals("latency");
        }
    }

    /** The four comparisons, as written. */
    public enum Comparison {
        LESS("<"), AT_MOST("<="), MORE(">"), AT_LEAST(">=");

        private final String symbol;

        Comparison(String symbol) {
            this.symbol = symbol;
        }

        public String symbol() {
            return symbol;
        }

        boolean holds(double measured, double threshold) {
            return switch (this) {
                case LESS -> measured < threshold;
                case AT_MOST -> measured <= threshold;
                case MORE -> measured > threshold;
                case AT_LEAST -> measured >= threshold;
            };
        }
    }

    /** Whether {@code measured} (in the measure's unit) meets the objective; NaN (nothing measured) never does. */
    public boolean holds(double measured) {
        return !Double.isNaN(measured) && comparison.holds(measured, threshold);
    }

    /** The objective without its workload, as a config's {@code objective} key holds it beside {@code workload}. */
    public String expression() {
        return workload == null ? text : text.substring(workload.length() + 1);
    }

    /** This objective with {@code abort} set (--slo-abort). */
    public Objective withAbort(boolean a) {
        return new Objective(text, workload, measure, percentile, comparison, threshold, a, origin, strict);
    }

    /** This objective with {@code strict} set (--slo-strict). */
    public Objective withStrict(boolean s) {
        return new Objective(text, workload, measure, percentile, comparison, threshold, abort, origin, s);
    }

    /** Whether its verdict reads an interval: a latency percentile below the largest (p100 is exact). */
    public boolean hasInterval() {
        return measure == Measure.PERCENTILE && percentile < 100;
    }

    /** The measure's name as written: p99, p99.9, max, mean, success, errors, hitrate, rate. */
    public String measureName() {
        return switch (measure) {
            case PERCENTILE -> percentileName(percentile);
            case MAX -> "max";
            case MEAN -> "mean";
            case SUCCESS -> "success";
            case ERRORS -> "errors";
            case HITRATE -> "hitrate";
            case RATE -> "rate";
        };
    }

    /** p50, p99, p999 for 99.9, p9999 for 99.99, p99.5 for other decimals (the short form only where it reads back the same). */
    static String percentileName(double p) {
        if (p == 100) {
            return "p100";
        }
        String plain = new java.math.BigDecimal(Double.toString(p)).stripTrailingZeros().toPlainString();
        if (p >= 10 && p < 100 && plain.startsWith("99") && plain.replace(".", "").matches("9+")) {
            return "p" + plain.replace(".", "");
        }
        return "p" + plain;
    }

    /** A measured value in the measure's unit, for people: 1.234 ms, 99.95 %, 49,512/s. */
    public String format(double measured) {
        return format(measure, measured);
    }

    static String format(Measure m, double v) {
        if (Double.isNaN(v)) {
            return "no requests";
        }
        if (m.isLatency()) {
            return latency(v);
        }
        if (m == Measure.RATE) {
            return String.format(Locale.ROOT, "%,.0f/s", v);
        }
        return String.format(Locale.ROOT, "%s %%", decimals(v, 3));
    }

    /** Nanoseconds in the largest unit that keeps the number at or above 1: 850 us, 1.25 ms. */
    static String latency(double ns) {
        if (ns >= 1e9) {
            return decimals(ns / 1e9, 3) + " s";
        }
        if (ns >= 1e6) {
            return decimals(ns / 1e6, 3) + " ms";
        }
        if (ns >= 1e3) {
            return decimals(ns / 1e3, 3) + " us";
        }
        return decimals(ns, 0) + " ns";
    }

    private static String decimals(double v, int places) {
        String s = String.format(Locale.ROOT, "%." + places + "f", v);
        if (s.contains(".")) {
            s = s.replaceAll("0+$", "").replaceAll("\\.$", "");
        }
        return s;
    }
}
