package io.fluxperf.engine.slo;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.slo.Objective.Comparison;
import io.fluxperf.engine.slo.Objective.Measure;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses objectives. The grammar ({@code docs/slo.md}):
 * <pre>
 *   objective  = [ workload "." ] measure comparison value
 *   measure    = "p" digits [ "." digits ] | "max" | "mean"       (latency; value: number and ns, us, ms or s)
 *              | "success" | "errors" | "hitrate"                  (value: number and %)
 *              | "rate"                                            (value: requests/s, an optional "/s")
 *   comparison = "&lt;" | "&lt;=" | "&gt;" | "&gt;="
 * </pre>
 * Percentiles are written as the report writes them: {@code p50}, {@code p99}, {@code p999} (99.9),
 * {@code p9999} (99.99); {@code p99.5} for any other; {@code p100} is the largest. Blanks around
 * the parts are allowed. Every mistake is one sentence that starts with where the objective came from.
 */
public final class Objectives {
    private static final Pattern PERCENTILE = Pattern.compile("p(\\d+)(\\.\\d+)?");
    private static final Pattern NUMBER = Pattern.compile("(\\d+(?:\\.\\d+)?|\\.\\d+)\\s*(.*)");
    private static final String EXAMPLE = "as in p99<2ms, success>=99.9% or rate>=49500";
    static final String MEASURES = "pNN (p50, p99, p999), max, mean, success, errors, hitrate or rate";

    private Objectives() {
    }

    /**
     * The objectives of {@code --slo} flags, in order.
     *
     * @throws UserError naming the first malformed expression
     */
    public static List<Objective> parse(List<String> expressions) {
        List<Objective> out = new ArrayList<>();
        for (String e : expressions == null ? List.<String>of() : expressions) {
            out.add(parse(e, null, "--slo '" + e + "'"));
        }
        return out;
    }

    /**
     * One objective.
     *
     * @param workload the workload it applies to when given apart (a config's {@code workload} key), or null
     * @param origin   where it was given, to start a message with
     * @throws UserError {@code origin: problem}
     */
    public static Objective parse(String expression, String workload, String origin) {
        try {
            return parseOrThrow(expression, workload, origin);
        } catch (IllegalArgumentException e) {
            throw new UserError(origin + ": " + e.getMessage());
        }
    }

    /** The problem with {@code expression}, or null when it parses (for a config key's own message). */
    public static String problem(String expression) {
        try {
            parseOrThrow(expression, null, "");
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    private static Objective parseOrThrow(String expression, String givenWorkload, String origin) {
        String s = expression == null ? "" : expression.strip();
        if (s.isEmpty()) {
            throw new IllegalArgumentException("expected an objective, " + EXAMPLE);
        }
        int at = firstOf(s, "<>=");
        if (at < 0) {
            throw new IllegalArgumentException("expected a comparison (<, <=, > or >=), " + EXAMPLE);
        }
        String left = s.substring(0, at).strip();
        String rest = s.substring(at);
        Comparison comparison;
        if (rest.startsWith("<=")) {
            comparison = Comparison.AT_MOST;
        } else if (rest.startsWith(">=")) {
            comparison = Comparison.AT_LEAST;
        } else if (rest.startsWith("<")) {
            comparison = Comparison.LESS;
        } else if (rest.startsWith(">")) {
            comparison = Comparison.MORE;
        } else {
            throw new IllegalArgumentException("'=' is no comparison; expected <, <=, > or >=, " + EXAMPLE);
        }
        String value = rest.substring(comparison.symbol().length()).strip();
        if (left.isEmpty()) {
            throw new IllegalArgumentException("expected a measure before '" + comparison.symbol() + "', " + EXAMPLE);
        }
        if (value.isEmpty() || "<>=".indexOf(value.charAt(0)) >= 0) {
            throw new IllegalArgumentException("expected a number after '" + comparison.symbol() + "', " + EXAMPLE);
        }

        String workload = null;
        String measureText = left;
        if (measure(left) == null) {
            int dot = left.indexOf('.');
            while (dot >= 0 && measure(left.substring(dot + 1).strip()) == null) {
                dot = left.indexOf('.', dot + 1);
            }
            if (dot == 0) {
                throw new IllegalArgumentException("expected a workload name before '.'");
            }
            if (dot < 0) {
                int first = left.indexOf('.');
                String unknown = first > 0 && !PERCENTILE.matcher(left).lookingAt() ? left.substring(first + 1) : left;
                throw new IllegalArgumentException("unknown measure '" + unknown.strip() + "'; expected " + MEASURES);
            }
            workload = left.substring(0, dot).strip();
            measureText = left.substring(dot + 1).strip();
        }
        if (givenWorkload != null) {
            if (workload != null) {
                throw new IllegalArgumentException("names workload '" + workload + "' and the table names '"
                        + givenWorkload + "'; give it once");
            }
            workload = givenWorkload;
        }
        Measure measure = measure(measureText);
        double percentile = measure == Measure.PERCENTILE ? percentile(measureText) : 0;
        double threshold = threshold(measure, measureText, value);
        String text = (workload != null ? workload + "." : "") + canonical(measure, measureText) + comparison.symbol()
                + value.replaceAll("\\s+", "");
        return new Objective(text, workload, measure, percentile, comparison, threshold, false, origin);
    }

    private static String canonical(Measure m, String written) {
        return m == Measure.PERCENTILE ? written : written.toLowerCase(java.util.Locale.ROOT);
    }

    private static int firstOf(String s, String chars) {
        for (int i = 0; i < s.length(); i++) {
            if (chars.indexOf(s.charAt(i)) >= 0) {
                return i;
            }
        }
        return -1;
    }

    /** The measure {@code name} names, or null. */
    private static Measure measure(String name) {
        if (PERCENTILE.matcher(name).matches()) {
            return Measure.PERCENTILE;
        }
        return switch (name.toLowerCase(java.util.Locale.ROOT)) {
            case "max" -> Measure.MAX;
            case "mean" -> Measure.MEAN;
            case "success" -> Measure.SUCCESS;
            case "errors" -> Measure.ERRORS;
            case "hitrate" -> Measure.HITRATE;
            case "rate" -> Measure.RATE;
            default -> null;
        };
    }

    /** p50: 50, p999: 99.9, p9999: 99.99, p99.5: 99.5, p100: 100. */
    static double percentile(String name) {
        Matcher m = PERCENTILE.matcher(name);
        if (!m.matches()) {
            throw new IllegalArgumentException("unknown measure '" + name + "'; expected " + MEASURES);
        }
        String digits = m.group(1);
        double p;
        if (m.group(2) != null || digits.length() <= 2 || digits.equals("100")) {
            p = Double.parseDouble(digits + (m.group(2) == null ? "" : m.group(2)));
        } else if (digits.charAt(0) == '9') {
            p = Double.parseDouble(digits.substring(0, 2) + "." + digits.substring(2));
        } else {
            // p999 is 99.9, but p101 or p500 would read as 10.1 and 50.0: say what is meant
            throw new IllegalArgumentException(name + ": write a percentile as p50, p99, p999 (for 99.9) or p99.5");
        }
        if (!(p > 0) || p > 100) {
            throw new IllegalArgumentException(name + ": a percentile is above 0 and at most 100 (p50, p99, p999, p100)");
        }
        return p;
    }

    private static double threshold(Measure measure, String measureText, String value) {
        Matcher m = NUMBER.matcher(value);
        if (!m.matches()) {
            throw new IllegalArgumentException("expected a number after the comparison, not '" + value + "', " + EXAMPLE);
        }
        double n = new BigDecimal(m.group(1)).doubleValue();
        String unit = m.group(2).strip();
        String name = measureText.toLowerCase(java.util.Locale.ROOT);
        if (measure.isLatency()) {
            if (unit.isEmpty()) {
                throw new IllegalArgumentException(name + " is a latency: give '" + value + "' a unit (ns, us, ms or s), as in "
                        + name + "<" + value + "ms");
            }
            double scale = switch (unit) {
                case "ns" -> 1;
                case "us", "µs" -> 1e3;
                case "ms" -> 1e6;
                case "s" -> 1e9;
                default -> throw new IllegalArgumentException("unknown unit '" + unit + "'; expected ns, us, ms or s");
            };
            return n * scale;
        }
        if (measure == Measure.RATE) {
            if (!unit.isEmpty() && !unit.equals("/s")) {
                throw new IllegalArgumentException("rate is requests per second: write a number, as in rate>=49500, not '"
                        + value + "'");
            }
            return n;
        }
        if (!unit.equals("%")) {
            throw new IllegalArgumentException(name + " is a percentage: write '" + m.group(1) + "%'"
                    + (unit.isEmpty() ? "" : ", not '" + value + "'"));
        }
        if (n > 100) {
            throw new IllegalArgumentException("a percentage is at most 100, not " + m.group(1));
        }
        return n;
    }
}
