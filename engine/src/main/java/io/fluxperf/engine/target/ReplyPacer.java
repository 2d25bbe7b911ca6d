package io.fluxperf.engine.target;

/**
 * When a reply may be written under the test knobs of {@link TargetOptions}: a fixed delay after
 * its request arrived, and periodic stalls during which nothing is written.
 *
 * <p>Stall windows are {@code [origin + k·every, origin + k·every + length)} for k ≥ 1, so a
 * server never stalls in its first period. A reply whose due time falls in a window is held until
 * the window ends. The mapping is monotonic (a later arrival is never released earlier), which is
 * what keeps a connection's replies in order. Immutable and shared by all connections. All times
 * are {@link System#nanoTime()} values in nanoseconds.
 */
public final class ReplyPacer {
    private final long delayNanos;
    private final long stallEveryNanos;
    private final long stallForNanos;
    private final long originNanos;

    /**
     * @param delayNanos      fixed delay, nanoseconds, ≥ 0
     * @param stallEveryNanos stall period, nanoseconds; 0 for no stalls
     * @param stallForNanos   stall length, nanoseconds, shorter than the period
     * @param originNanos     {@code System.nanoTime()} at server start: the stall schedule's zero
     */
    public ReplyPacer(long delayNanos, long stallEveryNanos, long stallForNanos, long originNanos) {
        if (delayNanos < 0 || stallEveryNanos < 0 || stallForNanos < 0
                || (stallEveryNanos > 0 && stallForNanos >= stallEveryNanos)) {
            throw new IllegalArgumentException("bad pacing: delay " + delayNanos + " ns, stall " + stallForNanos
                    + " ns every " + stallEveryNanos + " ns");
        }
        this.delayNanos = delayNanos;
        this.stallEveryNanos = stallEveryNanos;
        this.stallForNanos = stallForNanos;
        this.originNanos = originNanos;
    }

    /** The pacer for these options, or null when they pace nothing (the writer then skips all timing work). */
    public static ReplyPacer of(TargetOptions options, long originNanos) {
        if (!options.pacesReplies()) {
            return null;
        }
        return new ReplyPacer(options.responseDelay().toNanos(), options.stallEvery().toNanos(),
                options.stallFor().toNanos(), originNanos);
    }

    /**
     * The time at which a reply to a request that arrived at {@code arrivalNanos} may be written,
     * given that it is ready at {@code nowNanos}.
     */
    public long releaseTime(long arrivalNanos, long nowNanos) {
        long due = Math.max(arrivalNanos + delayNanos, nowNanos);
        if (stallEveryNanos == 0) {
            return due;
        }
        long sinceOrigin = due - originNanos;
        if (sinceOrigin < stallEveryNanos) {
            return due;
        }
        long phase = sinceOrigin % stallEveryNanos;
        return phase < stallForNanos ? due - phase + stallForNanos : due;
    }
}
