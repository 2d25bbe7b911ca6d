package io.fluxperf.engine.protocol.resp;

import io.fluxperf.engine.protocol.ClusterLayout;
import io.fluxperf.engine.protocol.ClusterProtocol;
import io.fluxperf.engine.protocol.CodecFactory;
import io.fluxperf.engine.protocol.ProtocolOptions;
import io.fluxperf.engine.protocol.resp.cluster.ClusterDiscovery;
import io.fluxperf.engine.protocol.resp.cluster.HashSlots;
import java.time.Duration;
import java.util.List;

/**
 * redis Cluster for the engine's pool: 16384 hash slots ({@link HashSlots}), the slot map read with
 * {@link ClusterDiscovery}, and codecs that decode MOVED and ASK as redirects
 * ({@link io.fluxperf.engine.protocol.resp.cluster.ClusterRedirects}) and send READONLY on a
 * replica's connections ({@link RespHandshake}).
 */
final class RespClusterProtocol implements ClusterProtocol {
    static final RespClusterProtocol INSTANCE = new RespClusterProtocol();

    private RespClusterProtocol() {
    }

    @Override
    public int shards() {
        return HashSlots.SLOTS;
    }

    @Override
    public int shardOf(byte[] key, int offset, int length) {
        return HashSlots.slotOf(key, offset, length);
    }

    @Override
    public ClusterLayout discover(List<String> seeds, ProtocolOptions options, Duration timeout) {
        RespOptions resp = RespOptions.of(options);
        return ClusterDiscovery.read(seeds, resp.user(), resp.password(), timeout);
    }

    @Override
    public CodecFactory nodeCodecs(ProtocolOptions options, boolean replica) {
        RespOptions resp = RespOptions.of(options);
        return () -> new RespCodec(resp, true, replica);
    }
}
