package io.fluxperf.engine.protocol.memcache.target;

import io.fluxperf.engine.target.LruEntry;

/**
 * A stored value. Value, flags and cas never change after creation (a modification stores a new
 * Item), so a connection may copy them into a reply after leaving the segment lock; only the
 * expiry time (touch, gat) and whether it was fetched are updated in place, and only under the
 * segment lock.
 */
final class Item extends LruEntry {
    /** {@link #expiresAtMillis} of an item that is expired on arrival (a negative exptime). */
    static final long ALREADY_EXPIRED = 1;
    private static final int THIRTY_DAYS_SECONDS = 60 * 60 * 24 * 30;

    final byte[] value;
    /** memcached's 32-bit client flags, stored as the int with the same bits. */
    final int flags;
    final long cas;
    /** The key was stored base64-decoded (a meta command's {@code b}): meta replies show it encoded again. */
    final boolean binaryKey;
    /** A get has fetched it since it was stored (memcached's ITEM_FETCHED). Guarded by the segment's monitor. */
    boolean fetched;
    /** A meta get has handed out the win token for it (W, memcached's ITEM_TOKEN_SENT); later ones see Z. Guarded likewise. */
    boolean tokenSent;

    Item(byte[] value, int flags, long cas, long expiresAtMillis) {
        this(value, flags, cas, expiresAtMillis, false);
    }

    Item(byte[] value, int flags, long cas, long expiresAtMillis, boolean binaryKey) {
        super(expiresAtMillis);
        this.value = value;
        this.flags = flags;
        this.cas = cas;
        this.binaryKey = binaryKey;
    }

    /**
     * memcached's exptime as an expiry time: 0 never expires, negative is already expired, up to 30
     * days is relative seconds, anything larger an absolute unix time (already expired if past).
     * Both protocols read it so (the binary one from unsigned extras).
     */
    static long expiryMillis(int exptime, long nowMillis) {
        if (exptime == 0) {
            return NEVER;
        }
        if (exptime < 0) {
            return ALREADY_EXPIRED;
        }
        if (exptime <= THIRTY_DAYS_SECONDS) {
            return nowMillis + exptime * 1000L;
        }
        long at = exptime * 1000L;
        return at <= nowMillis ? ALREADY_EXPIRED : at;
    }
}
