package io.fluxperf.engine.pool;

import io.fluxperf.engine.protocol.CodecFactory;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * One server of a run's pool, or one node of a cluster: where it is, how reports name it, and
 * the codecs of its connections.
 *
 * @param index   its place in the pool, from 0 (the order of --server, or of the cluster's layout)
 * @param name    HOST:PORT as the user (or the cluster) named it
 * @param address resolved
 * @param weight  its ketama weight (1 unless given)
 * @param role    "master" or "replica" for a cluster's node, null for a pool's server
 * @param codecs  makes the codecs of its connections
 */
public record PoolMember(int index, String name, SocketAddress address, int weight, String role, CodecFactory codecs) {
    /** The name as ASCII bytes, to match a redirect's node without making a string. */
    byte[] nameBytes() {
        return name.getBytes(StandardCharsets.ISO_8859_1);
    }

    public boolean isReplica() {
        return "replica".equals(role);
    }
}
