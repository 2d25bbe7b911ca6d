package io.fluxperf.engine.log;

import io.fluxperf.engine.Printable;
import io.fluxperf.engine.UserError;
import java.util.ArrayList;
import java.util.List;

/**
 * Lines that could not be parsed: counted, the first few kept with their place
 * ({@code app.log:1234: truncated line}); with {@code --strict} the first one is a
 * {@link UserError}. Written by the reader thread (a log read in parts by several threads collects
 * each part's in one of its own, {@link #take}); the count may be read from any thread.
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

    /**
     * Adds the bad lines {@code part} holds, after this one's, and empties it: a log read in parts
     * by several threads collects each part's apart and adds them in the log's order, so that the
     * lines kept are the log's first, as one reader keeps them.
     */
    public void take(BadLines part) {
        List<String> lines;
        long n;
        synchronized (part.first) {
            lines = part.first.isEmpty() ? List.of() : List.copyOf(part.first);
            n = part.count;
            part.first.clear();
            part.count = 0;
        }
        if (n == 0) {
            return;
        }
        synchronized (first) {
            count += n;
            for (int i = 0; i < lines.size() && first.size() < KEPT; i++) {
                first.add(lines.get(i));
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
