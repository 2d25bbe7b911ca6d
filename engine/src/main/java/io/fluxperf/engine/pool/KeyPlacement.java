package io.fluxperf.engine.pool;

import io.fluxperf.engine.request.Request;

/**
 * Where one load thread's requests go in a pool: the index of the member that holds a request's
 * key. Not thread-safe (each thread has its own); allocation-free.
 */
public interface KeyPlacement {
    /** The request has no key: any server will do. */
    int ANY = -1;
    /** The request's keys live on different servers (or slots): it cannot be sent as one request. */
    int SPREAD = -2;
    /** The key's shard belongs to a node this run has no connections to. */
    int UNKNOWN = -3;

    /** The member for {@code r}, or {@link #ANY}, {@link #SPREAD} or {@link #UNKNOWN}. */
    int serverOf(Request r);

    /** The layout changed (a cluster's map was read again): take it up. On the thread's loop; nothing by default. */
    default void refresh() {
    }
}
