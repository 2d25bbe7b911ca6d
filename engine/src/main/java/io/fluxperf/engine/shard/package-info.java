/**
 * Sharded runs: one agent of N ({@link io.fluxperf.engine.shard.Shard}), how its slice of the rate,
 * the key space and a replayed log's clients is chosen, and when the shards start together
 * ({@link io.fluxperf.engine.shard.StartAt}). Nothing here coordinates agents at run time: each
 * agent works its share out from its index alone, and the run directories are merged afterwards.
 */
package io.fluxperf.engine.shard;
