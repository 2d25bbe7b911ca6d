package io.fluxperf.engine.protocol.memcache.target;

/**
 * What a meta command's store operation left for its reply (the item, to show its cas, TTL or
 * size): one per connection, reused by every command, so that the operation allocates nothing to
 * say it. Confined to the connection's event loop.
 */
final class MetaResult {
    /** An expiry time that means "leave the item's as it is". */
    static final long KEEP = Long.MIN_VALUE;

    /** The item found, stored or changed; null when there was none. */
    Item item;
    /** A get had fetched the item before this command (mg's h). */
    boolean fetchedBefore;
    /** Another meta get had won the item's token before (Z). */
    boolean tokenSentBefore;
    /** The command created the item (mg's and ma's N on a miss). */
    boolean created;
}
