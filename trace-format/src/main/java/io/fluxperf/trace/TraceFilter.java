package io.fluxperf.trace;

/**
 * Which records an export keeps: a time range of intended send times (ns since the clock origin,
 * from inclusive, to exclusive), one command, one outcome, and at most {@code limit} records.
 * Immutable; every {@code with…} returns a changed copy. {@link #ALL} keeps everything.
 */
public final class TraceFilter {

    /** Keeps every record. */
    public static final TraceFilter ALL = new TraceFilter(Long.MIN_VALUE, Long.MAX_VALUE, -1, -1, Long.MAX_VALUE);

    private final long fromNanos;
    private final long toNanos;
    private final int command;
    private final int outcome;
    private final long limit;

    private TraceFilter(long fromNanos, long toNanos, int command, int outcome, long limit) {
        this.fromNanos = fromNanos;
        this.toNanos = toNanos;
        this.command = command;
        this.outcome = outcome;
        this.limit = limit;
    }

    /** Keeps records whose intended send time is at or after this, ns since the clock origin. */
    public TraceFilter withFromNanos(long nanos) {
        return new TraceFilter(nanos, toNanos, command, outcome, limit);
    }

    /** Keeps records whose intended send time is before this, ns since the clock origin. */
    public TraceFilter withToNanos(long nanos) {
        return new TraceFilter(fromNanos, nanos, command, outcome, limit);
    }

    /** Keeps records of this command code only. */
    public TraceFilter withCommand(int code) {
        return new TraceFilter(fromNanos, toNanos, code, outcome, limit);
    }

    /** Keeps records of this outcome code only. */
    public TraceFilter withOutcome(int code) {
        return new TraceFilter(fromNanos, toNanos, command, code, limit);
    }

    /** Keeps at most this many records (the first ones that match). */
    public TraceFilter withLimit(long max) {
        if (max < 0) {
            throw new IllegalArgumentException("limit must be 0 or more, not " + max);
        }
        return new TraceFilter(fromNanos, toNanos, command, outcome, max);
    }

    public long limit() {
        return limit;
    }

    public boolean matches(TraceRecord r) {
        long t = r.intendedSendNanos();
        return t >= fromNanos && t < toNanos
                && (command < 0 || r.command() == command)
                && (outcome < 0 || r.outcome() == outcome);
    }
}
