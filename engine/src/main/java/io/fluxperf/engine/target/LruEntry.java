package io.fluxperf.engine.target;

/**
 * What every entry of an {@link LruSegment} has: a wall-clock expiry time. A protocol's entry
 * (memcache's item, redis' typed value) extends it with its value.
 */
public abstract class LruEntry {
    /** {@link #expiresAtMillis} of an entry that never expires. */
    public static final long NEVER = 0;

    /** Wall-clock milliseconds at which it expires; {@link #NEVER} for never. Guarded by the segment's monitor. */
    public long expiresAtMillis;

    protected LruEntry(long expiresAtMillis) {
        this.expiresAtMillis = expiresAtMillis;
    }

    public final boolean isExpired(long nowMillis) {
        return expiresAtMillis != NEVER && nowMillis >= expiresAtMillis;
    }
}
