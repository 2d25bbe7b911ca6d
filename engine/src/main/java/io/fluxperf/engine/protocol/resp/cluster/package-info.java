/**
 * redis Cluster: a key's hash slot (CRC16 with hash tags), and the slot map read from a node
 * ({@code CLUSTER SHARDS}, or {@code CLUSTER SLOTS} before redis 7) over a plain blocking socket.
 * The codec side (MOVED, ASK, ASKING, READONLY) is {@code RespCodec}'s; the engine reaches all of
 * it through {@link io.fluxperf.engine.protocol.ClusterProtocol}.
 */
package io.fluxperf.engine.protocol.resp.cluster;
