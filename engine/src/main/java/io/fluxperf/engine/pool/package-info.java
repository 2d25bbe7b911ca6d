/**
 * Runs against several servers: the pool's members and their connections, where each request's
 * key goes ({@link io.fluxperf.engine.pool.KeyPlacement}: libmemcached's weighted ketama, modula,
 * or a cluster's slot map through the protocol's {@link io.fluxperf.engine.protocol.ClusterProtocol}),
 * each member's queue of requests waiting for room ({@link io.fluxperf.engine.pool.ServerQueues}),
 * a cluster's redirects, layout refreshes and failovers ({@link io.fluxperf.engine.pool.ClusterRouting}),
 * and what the run saw of its layout, cut into windows ({@link io.fluxperf.engine.pool.ClusterTopology}).
 * Protocol-neutral: a protocol takes part only through the SPI of {@code engine.protocol}.
 */
package io.fluxperf.engine.pool;
