/**
 * redis Cluster: a key's hash slot (CRC16 with hash tags), and the slot map read from a node
 * ({@code CLUSTER SHARDS}, or {@code CLUSTER SLOTS} before redis 7) over a plain blocking socket.
 * On a node's connection, {@link io.fluxperf.engine.protocol.resp.cluster.ClusterRedirects} reads
 * MOVED and ASK and sends ASKING (READONLY is in the codec's handshake); the engine reaches all of
 * it through {@link io.fluxperf.engine.protocol.ClusterProtocol}.
 */
package io.fluxperf.engine.protocol.resp.cluster;
