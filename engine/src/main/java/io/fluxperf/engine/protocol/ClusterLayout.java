package io.fluxperf.engine.protocol;

import java.util.List;

/**
 * A cluster's layout as one of its nodes told it: its nodes, and for every shard the node that
 * owns it and the replicas that copy it. Shards no node owns (a cluster being built) have -1.
 * Arrays are not copied: treat them as read-only once made.
 *
 * @param nodes    every node named, masters and replicas
 * @param masters  per shard, the index in {@code nodes} of its master, or -1
 * @param replicas per shard, the indexes in {@code nodes} of its replicas (empty when none)
 */
public record ClusterLayout(List<ClusterNode> nodes, int[] masters, int[][] replicas) {
    public ClusterLayout {
        nodes = List.copyOf(nodes);
        if (masters.length != replicas.length) {
            throw new IllegalArgumentException("masters and replicas must cover the same shards");
        }
    }

    /** One node: {@code HOST:PORT} as the cluster names it, and whether it is a replica. */
    public record ClusterNode(String address, boolean replica) {
    }

    /** How many distinct masters own a shard. */
    public long masterCount() {
        return java.util.Arrays.stream(masters).filter(m -> m >= 0).distinct().count();
    }
}
