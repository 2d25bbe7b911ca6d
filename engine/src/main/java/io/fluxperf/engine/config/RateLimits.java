package io.fluxperf.engine.config;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * What a rate in requests per second may be, the same wherever one is given: {@code --rate}, a
 * workload's {@code rate}, {@code --ramp} and {@code [workload.ratelimit]}, and the admin
 * endpoint's {@code PUT /ratelimit}.
 * <ul>
 *   <li>At most {@link #MAX}, one request a nanosecond: the schedule gives each request its
 *       intended time in whole nanoseconds, so a faster rate cannot be spaced, and a client that
 *       wants no pacing gives 0 or no rate (closed loop) instead.</li>
 *   <li>At least one request per window ({@link #minimum}): a window with no request due has no
 *       rate to hold or report.</li>
 *   <li>As typed: a plain decimal number in ASCII digits ({@code 5000}, {@code 2500.5},
 *       {@code 1e4}, {@code 10_000}), nothing a locale reads as a number.</li>
 * </ul>
 */
public final class RateLimits {
    /** The highest rate a schedule can space: one request a nanosecond. */
    public static final double MAX = 1e9;

    private static final Pattern PLAIN = Pattern.compile("[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?");

    private RateLimits() {
    }

    /**
     * A rate as typed, in requests per second.
     *
     * @throws IllegalArgumentException with the problem only ("'abc' is not a number"), for the
     *                                  caller to put the place in front
     */
    public static double parse(String text) {
        String t = text.trim();
        double r = number(t);
        if (r < 0) {
            throw new IllegalArgumentException("must be at least 0 (0: no pacing), not " + t);
        }
        checkMax(r, t);
        return r;
    }

    /**
     * The number {@code text} spells as a plain decimal (ASCII digits, a sign, a point, an exponent,
     * underscores between digits), however large or small.
     *
     * @throws IllegalArgumentException "'TEXT' is not a number"
     */
    public static double number(String text) {
        String t = text.trim();
        String digits = t.replace("_", "");
        if (!PLAIN.matcher(digits).matches()) {
            throw new IllegalArgumentException("'" + t + "' is not a number");
        }
        return Double.parseDouble(digits);
    }

    /**
     * Refuses a rate above {@link #MAX} (or not finite).
     *
     * @param typed how the user wrote it, for the message
     */
    public static void checkMax(double rate, String typed) {
        if (Double.isNaN(rate) || Double.isInfinite(rate) || rate > MAX) {
            throw new IllegalArgumentException(typed + " is more than a schedule can space, which is 1,000,000,000 a second"
                    + " (one a nanosecond); give 0 for no pacing");
        }
    }

    /** The lowest rate that gives one request per window of {@code window}: 1 / its seconds. */
    public static double minimum(Duration window) {
        return 1e9 / window.toNanos();
    }

    /**
     * Why {@code rate} (above 0) is too low for windows of {@code window}, or null when it gives at
     * least one request per window.
     *
     * @param typed how the user wrote it, for the message
     */
    public static String belowOnePerWindow(double rate, String typed, Duration window) {
        double min = minimum(window);
        // a rate typed as 1/duration may come out a hair below it in binary
        if (rate >= min * (1 - 1e-12)) {
            return null;
        }
        String least = BigDecimal.ONE.divide(BigDecimal.valueOf(window.toNanos(), 9), new MathContext(3, RoundingMode.CEILING))
                .stripTrailingZeros().toPlainString();
        return typed + " requests/s is less than one request per " + DurationParser.format(window) + " window; give at least "
                + least + " requests/s";
    }

    /** A rate for a message: whole numbers grouped (20,000), others to three significant digits (0.0167). */
    public static String format(double rate) {
        if (rate == Math.rint(rate) && Math.abs(rate) < 1e15) {
            return String.format(Locale.ROOT, "%,d", (long) rate);
        }
        if (Math.abs(rate) >= 1000) {
            return String.format(Locale.ROOT, "%,.1f", rate);
        }
        return new BigDecimal(rate).round(new MathContext(3)).stripTrailingZeros().toPlainString();
    }
}
