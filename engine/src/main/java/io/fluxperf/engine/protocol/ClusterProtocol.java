package io.fluxperf.engine.protocol;

import java.time.Duration;
import java.util.List;

/**
 * What a protocol whose servers form a cluster that shards the keys itself tells the engine
 * ({@link Protocol#cluster()}, redis Cluster): how a key maps to a shard, how to read the cluster's
 * layout from a seed node, and the codecs of connections to its nodes, which decode a reply that
 * sends the request elsewhere as a {@link Redirect}. The engine's pool ({@code engine.pool}) places
 * requests, follows redirects and refreshes the layout through this interface alone.
 */
public interface ClusterProtocol {
    /** How many shards the key space is cut into (redis Cluster: 16384 slots). */
    int shards();

    /**
     * The shard of one key, from its bytes (redis: CRC16 of the key, or of its {@code {hash tag}},
     * modulo 16384). Thread-safe, allocation-free.
     */
    int shardOf(byte[] key, int offset, int length);

    /**
     * Reads the cluster's layout from the first of {@code seeds} that answers. Blocking, with plain
     * sockets: never call it on an event loop.
     *
     * @param seeds   HOST:PORT of nodes to ask, in order
     * @param options the run's protocol options (a password to authenticate with)
     * @param timeout for each connect and reply
     * @throws io.fluxperf.engine.UserError when no seed answers, or one answers that it is no cluster node
     */
    ClusterLayout discover(List<String> seeds, ProtocolOptions options, Duration timeout);

    /**
     * Makes the codecs of the run's connections to one node, from the run's checked options: their
     * replies that send a request elsewhere come back as {@link ProtocolCodec#REDIRECTED}.
     *
     * @param replica the node is a replica that serves this run's reads (redis: READONLY first)
     */
    CodecFactory nodeCodecs(ProtocolOptions options, boolean replica);
}
