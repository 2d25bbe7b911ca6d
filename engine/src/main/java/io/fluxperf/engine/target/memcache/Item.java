package io.fluxperf.engine.target.memcache;

/**
 * A stored value. Value, flags and cas never change after creation (a modification stores a new
 * Item), so a connection may copy them into a reply after leaving the segment lock; only the
 * expiry time is updated in place (touch, gat), and only under the segment lock.
 */
final class Item {
    /** {@link #expiresAtMillis} of an item that never expires. */
    static final long NEVER = 0;
    /** {@link #expiresAtMillis} of an item that is expired on arrival (a negative exptime). */
    static final long ALREADY_EXPIRED = 1;

    final byte[] value;
    /** memcached's 32-bit client flags, stored as the int with the same bits. */
    final int flags;
    final long cas;
    /** Wall-clock milliseconds at which it expires; {@link #NEVER} for never. Guarded by the segment lock. */
    long expiresAtMillis;

    Item(byte[] value, int flags, long cas, long expiresAtMillis) {
        this.value = value;
        this.flags = flags;
        this.cas = cas;
        this.expiresAtMillis = expiresAtMillis;
    }

    boolean isExpired(long nowMillis) {
        return expiresAtMillis != NEVER && nowMillis >= expiresAtMillis;
    }
}
