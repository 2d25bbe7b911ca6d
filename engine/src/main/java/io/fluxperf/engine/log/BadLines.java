package io.fluxperf.engine.log;

import io.fluxperf.engine.Printable;
import io.fluxperf.engine.UserError;
import java.util.ArrayList;
import java.util.List;

/**
 * Lines that could not be parsed: counted, the first few kept with their place
 * ({@code app.log:1234: truncated line}); with {@code --strict} the first one is a
 * {@link UserError}. Written by the reader thread (or the threads of a log read in parts, each line
 * under the lock); the count may be read from any thread.
 */
public final class BadLines {
    /** How many bad lines the report quotes. */
    public static final int KEPT = 5;

    private final boolean strict;
    private final List<String> first = new ArrayList<>();
    private volatile long count;

    public BadLines(boolean strict) {
        this.strict = strict;
    }

    /**
     * @param place  {@code file:line} or {@code trace, record N}
     * @param reason what is wrong, lower case, no final period
     * @throws UserError with {@code --strict}
     */
    public void add(String place, String reason) {
        String message = Printable.quote(place + ": " + reason); // it may quote the line
        if (strict) {
            throw new UserError(message + " (--strict stops at the first bad line)");
        }
        synchronized (first) {
            count++;
            if (first.size() < KEPT) {
                first.add(message);
            }
        }
    }

    public long count() {
        return count;
    }

    public List<String> first() {
        synchronized (first) {
            return List.copyOf(first);
        }
    }

    public boolean strict() {
        return strict;
    }
}
