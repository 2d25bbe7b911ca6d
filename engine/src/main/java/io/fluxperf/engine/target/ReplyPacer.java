package io.fluxperf.engine.target;

/**
 * When a reply may be written under the test knobs of {@link TargetOptions}: a fixed delay after
 * its request arrived, a further delay for a batch with a slow key, a capacity beyond which replies
 * queue, and periodic stalls during which nothing is written.
 *
 * <p>Capacity: the server is one queue served at {@code capacity} requests per second, all
 * connections together. A batch of n requests that arrives at t starts at the later of t and the
 * end of the work before it, and its replies are due n/capacity after that start; below capacity a
 * reply waits its own service time only, above it the queue (and the latency) grows without end.
 *
 * <p>Stall windows are {@code [origin + k·every, origin + k·every + length)} for k ≥ 1, so a
 * server never stalls in its first period. A reply whose due time falls in a window is held until
 * the window ends. The mapping is monotonic (a later arrival is never released earlier), which is
 * what keeps a connection's replies in order (a slow batch holds back the batches after it on its
 * connection, as a busy redis client would). Shared by all connections; only the capacity's queue
 * changes, atomically. All times are {@link System#nanoTime()} values in nanoseconds.
 */
public final class ReplyPacer {
    private final long delayNanos;
    private final long stallEveryNanos;
    private final long stallForNanos;
    private final long originNanos;
    private final byte[] slowPrefix;
    private final long slowDelayNanos;
    /** Nanoseconds of work per request at the capacity; 0: no limit. */
    private final double serviceNanos;
    /** When the work queued so far ends. */
    private final java.util.concurrent.atomic.AtomicLong busyUntil = new java.util.concurrent.atomic.AtomicLong(Long.MIN_VALUE);

    /**
     * @param delayNanos      fixed delay, nanoseconds, ≥ 0
     * @param stallEveryNanos stall period, nanoseconds; 0 for no stalls
     * @param stallForNanos   stall length, nanoseconds, shorter than the period
     * @param originNanos     {@code System.nanoTime()} at server start: the stall schedule's zero
     */
    public ReplyPacer(long delayNanos, long stallEveryNanos, long stallForNanos, long originNanos) {
        this(delayNanos, stallEveryNanos, stallForNanos, originNanos, null, 0, 0);
    }

    /**
     * @param slowPrefix     a batch with a request for a key starting with these bytes is slow; null: none
     * @param slowDelayNanos the extra delay of a slow batch, nanoseconds
     * @param capacity       requests per second the server answers at most; 0: no limit
     */
    public ReplyPacer(long delayNanos, long stallEveryNanos, long stallForNanos, long originNanos,
                      byte[] slowPrefix, long slowDelayNanos, long capacity) {
        if (delayNanos < 0 || stallEveryNanos < 0 || stallForNanos < 0
                || (stallEveryNanos > 0 && stallForNanos >= stallEveryNanos)) {
            throw new IllegalArgumentException("bad pacing: delay " + delayNanos + " ns, stall " + stallForNanos
                    + " ns every " + stallEveryNanos + " ns");
        }
        this.delayNanos = delayNanos;
        this.stallEveryNanos = stallEveryNanos;
        this.stallForNanos = stallForNanos;
        this.originNanos = originNanos;
        this.slowPrefix = slowPrefix;
        this.slowDelayNanos = slowDelayNanos;
        this.serviceNanos = capacity > 0 ? 1e9 / capacity : 0;
    }

    /** The pacer for these options, or null when they pace nothing (the writer then skips all timing work). */
    public static ReplyPacer of(TargetOptions options, long originNanos) {
        if (!options.pacesReplies()) {
            return null;
        }
        return new ReplyPacer(options.responseDelay().toNanos(), options.stallEvery().toNanos(),
                options.stallFor().toNanos(), originNanos,
                options.slowKeyPrefix() == null ? null : options.slowKeyPrefix().getBytes(java.nio.charset.StandardCharsets.UTF_8),
                options.slowDelay().toNanos(), options.capacity());
    }

    /** Whether the key {@code b[off, off + len)} makes its batch slow. */
    public boolean slowKey(byte[] b, int off, int len) {
        byte[] p = slowPrefix;
        if (p == null || len < p.length) {
            return false;
        }
        for (int i = 0; i < p.length; i++) {
            if (b[off + i] != p[i]) {
                return false;
            }
        }
        return true;
    }

    /** Whether this pacer counts requests (a capacity), so that the processors should tell it theirs. */
    public boolean countsRequests() {
        return serviceNanos > 0;
    }

    /** Whether processors should look at keys (a slow key prefix). */
    public boolean looksAtKeys() {
        return slowPrefix != null;
    }

    /**
     * The time at which a reply to a request that arrived at {@code arrivalNanos} may be written,
     * given that it is ready at {@code nowNanos}.
     */
    public long releaseTime(long arrivalNanos, long nowNanos) {
        return releaseTime(arrivalNanos, nowNanos, 1, false);
    }

    /**
     * The same for a batch of {@code requests} replies (at least one is counted), {@code slow} when
     * it held a slow key.
     */
    public long releaseTime(long arrivalNanos, long nowNanos, int requests, boolean slow) {
        long due = Math.max(arrivalNanos + delayNanos + (slow ? slowDelayNanos : 0), nowNanos);
        if (serviceNanos > 0) {
            long work = Math.max(1, Math.round(Math.max(1, requests) * serviceNanos));
            long start;
            long end;
            do {
                long busy = busyUntil.get();
                start = Math.max(busy, arrivalNanos);
                end = start + work;
                if (busyUntil.compareAndSet(busy, end)) {
                    break;
                }
            } while (true);
            due = Math.max(due, end);
        }
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
