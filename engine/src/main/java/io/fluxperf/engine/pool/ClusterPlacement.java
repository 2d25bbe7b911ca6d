package io.fluxperf.engine.pool;

import io.fluxperf.engine.protocol.ClusterProtocol;
import io.fluxperf.engine.request.Request;

/**
 * One load thread's copy of a cluster's slot map: a key's shard by the protocol
 * ({@link ClusterProtocol#shardOf}), the shard's master, or for a read with
 * {@code --read-from replica} one of its replicas in turn. A MOVED reply corrects the thread's
 * copy at once ({@link #moved}); a map read again replaces it ({@link #refresh}). Requests whose
 * keys fall in different shards are {@link #SPREAD}.
 */
final class ClusterPlacement implements KeyPlacement {
    private final ClusterRouting routing;
    private final ClusterProtocol protocol;
    private final boolean readsFromReplicas;
    private final WireKeys keys = new WireKeys();
    private long generation;
    private int[] masters;
    private int[][] replicas;
    /** {@link #masters} is this thread's own copy (after a MOVED), not the shared snapshot's array. */
    private boolean ownCopy;
    private int turn;

    ClusterPlacement(ClusterRouting routing, boolean readsFromReplicas) {
        this.routing = routing;
        this.protocol = routing.protocol();
        this.readsFromReplicas = readsFromReplicas;
        take(routing.snapshot());
    }

    @Override
    public int serverOf(Request r) {
        int n = keys.count(r);
        if (n == 0) {
            return ANY;
        }
        int shard = shardOfKey(r, 0);
        for (int i = 1; i < n; i++) {
            if (shardOfKey(r, i) != shard) {
                return SPREAD;
            }
        }
        int master = masters[shard];
        if (master < 0) {
            return UNKNOWN;
        }
        if (readsFromReplicas && r.command().isRead()) {
            int[] copies = replicas[shard];
            if (copies.length > 0) {
                turn = turn == Integer.MAX_VALUE ? 0 : turn + 1;
                return copies[turn % copies.length];
            }
        }
        return master;
    }

    private int shardOfKey(Request r, int i) {
        keys.select(r, i);
        return protocol.shardOf(keys.array(), keys.offset(), keys.length());
    }

    /** A node answered MOVED: {@code shard} belongs to {@code member} now (-1: a node the run has no connections to). */
    void moved(int shard, int member) {
        if (shard >= 0 && shard < masters.length) {
            if (!ownCopy) {
                masters = masters.clone(); // the shared snapshot's arrays stay as read
                ownCopy = true;
            }
            masters[shard] = member;
        }
    }

    /** The generation of the map this thread places by. */
    long generation() {
        return generation;
    }

    @Override
    public void refresh() {
        ClusterRouting.Snapshot s = routing.snapshot();
        if (s.generation() != generation) {
            take(s);
        }
    }

    private void take(ClusterRouting.Snapshot s) {
        generation = s.generation();
        masters = s.masters();
        replicas = s.replicas();
        ownCopy = false;
    }
}
