package io.fluxperf.engine.request;

import java.util.Locale;

/**
 * Protocol-neutral commands. A protocol declares which of them it speaks
 * ({@link io.fluxperf.engine.protocol.Protocol#supports}); the code is what traces store.
 */
public enum Command {
    GET(true, false),
    GETS(true, false),
    SET(false, true),
    ADD(false, true),
    REPLACE(false, true),
    APPEND(false, true),
    PREPEND(false, true),
    CAS(false, true),
    DELETE(false, false),
    INCR(false, false),
    DECR(false, false),
    TOUCH(false, false),
    FLUSH(false, false);

    private final boolean read;
    private final boolean carriesValue;

    Command(boolean read, boolean carriesValue) {
        this.read = read;
        this.carriesValue = carriesValue;
    }

    /** A read: a reply without the value is a miss, and it counts in the hit rate. */
    public boolean isRead() {
        return read;
    }

    /** The request carries a value of {@code bytes} length. */
    public boolean carriesValue() {
        return carriesValue;
    }

    /** The name users type: lower case. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a user-typed method name, or returns null when there is no such command. */
    public static Command parse(String text) {
        if (text == null) {
            return null;
        }
        try {
            return valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException unknown) {
            return null;
        }
    }
}
