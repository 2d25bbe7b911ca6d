package io.fluxperf.engine.pool;

import io.fluxperf.engine.protocol.Redirect;
import io.fluxperf.engine.request.Request;

/**
 * One load thread's placement of requests in a pool: the member a request goes to by its key (a
 * keyless one to the writable members in turn), and where a cluster's redirect sends it. Not
 * thread-safe; allocation-free.
 */
public final class PoolRouter {
    /** A request follows at most this many redirects; more is a loop (a cluster being reconfigured), and it ends as an error. */
    public static final int MAX_REDIRECTS = 5;

    private final KeyPlacement placement;
    private final int[] anyMembers;
    private final ClusterRouting cluster;
    private int turn;

    PoolRouter(KeyPlacement placement, int[] anyMembers, ClusterRouting cluster) {
        this.placement = placement;
        this.anyMembers = anyMembers;
        this.cluster = cluster;
    }

    /**
     * The member for {@code r}: the one it was given ({@link Request#server()}), or its key's; or
     * {@link KeyPlacement#SPREAD} when its keys live on different servers.
     */
    public int place(Request r) {
        if (r.server() >= 0) {
            return r.server();
        }
        if (cluster != null) {
            placement.refresh(); // a map read since (a failover): taken up by the next request, a volatile read
        }
        int m = placement.serverOf(r);
        if (m == KeyPlacement.ANY || m == KeyPlacement.UNKNOWN) {
            // an unknown node's key goes to a master, whose redirect then says where it belongs
            int[] any = cluster != null && cluster.snapshot().masterMembers().length > 0
                    ? cluster.snapshot().masterMembers() : anyMembers;
            turn = turn == Integer.MAX_VALUE ? 0 : turn + 1;
            m = any[turn % any.length];
        }
        return m;
    }

    /**
     * A node answered {@code r} with {@code redirect}: the member to send it to again, or -1 when
     * it cannot go (a node the run has no connections to, or too many redirects). A MOVED
     * corrects this thread's map and asks for the map to be read again (once per map).
     */
    public int redirected(Request r, Redirect redirect) {
        if (cluster == null) {
            return -1;
        }
        int to = cluster.memberOf(redirect);
        if (redirect.kind() == Redirect.Kind.MOVED && placement instanceof ClusterPlacement c) {
            c.moved(redirect.shard(), to);
            cluster.requestRefresh(c.generation(), redirect);
        }
        if (to < 0 || r.redirects() >= MAX_REDIRECTS) {
            return -1;
        }
        return to;
    }

    /** Takes up a cluster map read again since the last call; on the thread's loop, now and then. */
    public void refresh() {
        placement.refresh();
    }
}
