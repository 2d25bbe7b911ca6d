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
