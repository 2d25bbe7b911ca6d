package io.fluxperf.engine.shard;

import io.fluxperf.engine.UserError;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/**
 * {@code --start-at}: the wall-clock time at which a run's schedule starts, so that agents on
 * several machines line their intended send times up. RFC 3339 ({@code 2026-12-06T03:00:00Z},
 * any offset, fractions of a second) or seconds since the epoch ({@code 1796526000},
 * {@code 1796526000.25}).
 */
public final class StartAt {
    private StartAt() {
    }

    /** @throws UserError naming {@code --start-at} when the text is neither form */
    public static Instant parse(String text) {
        String t = text.strip();
        if (t.isEmpty()) {
            throw new UserError("--start-at: expected a time such as 2026-12-06T03:00:00Z or epoch seconds, not an empty value");
        }
        if (t.chars().allMatch(c -> Character.isDigit(c) || c == '.')) {
            BigDecimal seconds;
            try {
                seconds = new BigDecimal(t);
            } catch (NumberFormatException e) {
                throw new UserError("--start-at: '" + text + "' is not a number of epoch seconds");
            }
            if (seconds.compareTo(BigDecimal.valueOf(100_000_000_000L)) >= 0) {
                throw new UserError("--start-at: " + text + " epoch seconds is past the year 5000; give seconds, not milliseconds");
            }
            long whole = seconds.longValue();
            long nanos = seconds.subtract(BigDecimal.valueOf(whole)).movePointRight(9).longValue();
            return Instant.ofEpochSecond(whole, nanos);
        }
        try {
            return OffsetDateTime.parse(t.replace(' ', 'T')).toInstant();
        } catch (DateTimeParseException e) {
            throw new UserError("--start-at: expected an RFC 3339 time such as 2026-12-06T03:00:00Z or epoch seconds, not '"
                    + text + "'");
        }
    }

    /** How far ahead a start may be without --start-at-far. */
    public static final java.time.Duration FAR = java.time.Duration.ofDays(1);

    /**
     * Refuses a start more than {@link #FAR} after {@code now} unless {@code far} allows it: a
     * mistyped date would otherwise have the agent wait, silently, for months.
     *
     * @throws UserError naming --start-at and --start-at-far
     */
    public static void requireNear(Instant at, Instant now, boolean far) {
        java.time.Duration ahead = java.time.Duration.between(now, at);
        if (!far && ahead.compareTo(FAR) > 0) {
            throw new UserError("--start-at: " + at + " is " + wait(ahead) + " ahead, more than a day;"
                    + " give --start-at-far to wait that long");
        }
    }

    /**
     * How long before the flags are checked a start may already have passed and still be a late
     * start: an agent launched in time can pass its start while its JVM starts up.
     */
    public static final java.time.Duration STARTUP = java.time.Duration.ofSeconds(10);

    /**
     * Refuses a start that had passed more than {@link #STARTUP} before {@code now}, the time the
     * flags are checked: such an agent was launched after the others began, and every request
     * due since then would leave in one burst with its wait counted as latency.
     *
     * @throws UserError naming --start-at and how long ago it was
     */
    public static void requireToCome(Instant at, Instant now) {
        java.time.Duration ago = java.time.Duration.between(at, now);
        if (ago.compareTo(STARTUP) > 0) {
            throw new UserError("--start-at: " + at + " was " + ago(ago) + " ago; give a time still to come");
        }
    }

    /**
     * What a run that starts at {@code at} says when it begins, or null when the start has passed:
     * when the schedule starts and how long from {@code now}.
     */
    public static String describeWait(Instant at, Instant now) {
        java.time.Duration ahead = java.time.Duration.between(now, at);
        if (ahead.isNegative() || ahead.isZero()) {
            return null;
        }
        return "--start-at: the schedule starts at " + at + ", " + wait(ahead)
                + " from now (after connecting and preloading; Ctrl-C ends the wait)";
    }

    /** A time gone by: in years, to a tenth, from a year on (a wrong year reads at a glance); else as {@link #wait}. */
    static String ago(java.time.Duration d) {
        double years = d.toSeconds() / (365.25 * 86_400);
        if (years >= 1) {
            return String.format(java.util.Locale.ROOT, "%.1f years", years);
        }
        return wait(d);
    }

    /** A wait in its two largest units: {@code 45 s}, {@code 12 min 5 s}, {@code 3 h 4 min}, {@code 26959 d 7 h}. */
    static String wait(java.time.Duration d) {
        long s = Math.max(0, d.toSeconds() + (d.toNanosPart() > 0 ? 1 : 0)); // a part of a second still to wait
        long days = s / 86_400;
        long hours = s % 86_400 / 3_600;
        long minutes = s % 3_600 / 60;
        long seconds = s % 60;
        if (days > 0) {
            return days + " d " + hours + " h";
        }
        if (hours > 0) {
            return hours + " h " + minutes + " min";
        }
        if (minutes > 0) {
            return minutes + " min " + seconds + " s";
        }
        return seconds + " s";
    }

    /**
     * The {@link System#nanoTime()} at which {@code at} falls, read against the wall clock now
     * (a later wall-clock step does not move it: the schedule runs on the monotonic clock once set).
     */
    public static long nanoTimeOf(Instant at) {
        Instant now = Instant.now();
        long nanoNow = System.nanoTime();
        long ahead = (at.getEpochSecond() - now.getEpochSecond()) * 1_000_000_000L + (at.getNano() - now.getNano());
        return nanoNow + ahead;
    }
}
