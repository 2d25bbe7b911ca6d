package io.fluxperf.engine.config;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.Locale;

/**
 * Durations as users type them: a number of seconds ({@code 60}, {@code 0.5}) or a number with a
 * unit ({@code 250ms}, {@code 2s}, {@code 1.5m}; units ns, us, ms, s, m, h). The config file and
 * the command line accept the same forms.
 */
public final class DurationParser {
    private static final BigDecimal NANOS_PER_SECOND = BigDecimal.valueOf(1_000_000_000L);

    private DurationParser() {
    }

    /**
     * Parses {@code text}; a bare number is seconds. Negative durations parse (callers check
     * ranges so that the message can name the flag or key).
     *
     * @throws IllegalArgumentException with a message that quotes the text and shows the forms
     */
    public static Duration parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("a duration is missing");
        }
        String t = text.trim().toLowerCase(Locale.ROOT);
        int end = t.length();
        while (end > 0 && Character.isLetter(t.charAt(end - 1))) {
            end--;
        }
        String number = t.substring(0, end).trim();
        String unit = t.substring(end);
        long nanosPerUnit = switch (unit) {
            case "", "s", "sec", "secs" -> 1_000_000_000L;
            case "ms" -> 1_000_000L;
            case "us", "µs" -> 1_000L;
            case "ns" -> 1L;
            case "m", "min" -> 60_000_000_000L;
            case "h" -> 3_600_000_000_000L;
            default -> -1;
        };
        BigDecimal value;
        try {
            value = nanosPerUnit < 0 || number.isEmpty() ? null : new BigDecimal(number);
        } catch (NumberFormatException e) {
            value = null;
        }
        if (value == null) {
            throw new IllegalArgumentException("'" + text.trim() + "' is not a duration; write seconds (60, 0.5) or a number"
                    + " with a unit (250ms, 2s, 1m)");
        }
        return ofNanos(value.multiply(BigDecimal.valueOf(nanosPerUnit)), "'" + text.trim() + "'");
    }

    /** A number of seconds (as a TOML number or a flag gives it) as a duration. */
    public static Duration ofSeconds(BigDecimal seconds) {
        return ofNanos(seconds.multiply(NANOS_PER_SECOND), seconds + " seconds");
    }

    private static Duration ofNanos(BigDecimal nanos, String shown) {
        try {
            return Duration.ofNanos(nanos.setScale(0, RoundingMode.HALF_UP).longValueExact());
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(shown + " is too long a duration");
        }
    }

    /** The shortest exact form: {@code 60s}, {@code 1.5s}, {@code 250ms}, {@code 10us}, {@code 7ns}. */
    public static String format(Duration d) {
        long nanos;
        try {
            nanos = d.toNanos();
        } catch (ArithmeticException e) {
            return d.getSeconds() + "s";
        }
        if (nanos == 0) {
            return "0s";
        }
        if (nanos % 1_000_000L == 0 && Math.abs(nanos) < 1_000_000_000L) {
            return nanos / 1_000_000L + "ms";
        }
        if (nanos % 1_000L == 0 && Math.abs(nanos) < 1_000_000L) {
            return nanos / 1_000L + "us";
        }
        if (Math.abs(nanos) < 1_000L) {
            return nanos + "ns";
        }
        return BigDecimal.valueOf(nanos).divide(NANOS_PER_SECOND).stripTrailingZeros().toPlainString() + "s";
    }
}
