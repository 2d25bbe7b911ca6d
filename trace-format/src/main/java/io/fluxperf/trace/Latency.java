package io.fluxperf.trace;

import java.util.Locale;

/** Which latency of a {@link TraceRecord} to use. */
public enum Latency {
    /**
     * Completion − intended send time: latency from the schedule, the default. A stalled server or a
     * late client shows up in full (no coordinated omission); in closed-loop runs the intended send
     * time is the actual one, so both latencies agree.
     */
    INTENDED,
    /** Completion − actual send time: latency from the write, the server's (and network's) share. */
    SERVICE;

    /** This latency of the record, ns. */
    public long nanos(TraceRecord r) {
        return this == INTENDED ? r.intendedLatencyNanos() : r.serviceLatencyNanos();
    }

    /** Lower-case name as the command line spells it: {@code intended}, {@code service}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses {@code intended} or {@code service} (case-insensitive). */
    public static Latency parse(String s) {
        for (Latency l : values()) {
            if (l.label().equalsIgnoreCase(s.trim())) {
                return l;
            }
        }
        throw new IllegalArgumentException("'" + s + "' is not a latency; use intended or service");
    }
}
