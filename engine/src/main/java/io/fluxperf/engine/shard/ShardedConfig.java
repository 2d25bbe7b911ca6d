package io.fluxperf.engine.shard;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import java.util.List;

/** One agent's config of a sharded run, made from the config that all agents share. */
public final class ShardedConfig {
    private ShardedConfig() {
    }

    /**
     * {@code whole} as agent {@code shard} runs it: every workload at {@code 1/N} of its rate, a
     * request limit's share, and the shard recorded (it picks keys, seeds and the schedule's phase).
     * Only agent 0 flushes, so that one agent's flush never empties what another has preloaded.
     *
     * @param whole the config every agent shares (its hash is the run's config hash)
     * @param shard null: {@code whole} itself
     * @throws UserError when a key space is smaller than the shard count (a shard would write no key)
     */
    public static RunConfig of(RunConfig whole, Shard shard) {
        if (shard == null) {
            return whole;
        }
        for (WorkloadConfig w : whole.workloads()) {
            if (!w.method().isRead() && w.keyspace().count() < shard.count()) {
                throw new UserError("--shard: workload '" + w.name() + "' has " + w.keyspace().count()
                        + " keys, fewer than the " + shard.count() + " shards that split its writes");
            }
        }
        if (whole.requests() % shard.count() != 0) {
            // every agent's config (and so its config hash) must be the same for merge to accept them
            throw new UserError("--requests " + whole.requests() + " does not split evenly over " + shard.count()
                    + " shards; give a multiple of " + shard.count());
        }
        if (whole.needsFlush() && whole.needsPreload()) {
            throw new UserError("--shard: --flush with --hit cannot be split over agents (one agent's flush would"
                    + " empty what the others preloaded); flush the server before starting them");
        }
        List<WorkloadConfig> workloads = whole.workloads().stream()
                .map(w -> w.withRate(shard.rate(w.rate())).withFlush(w.flush() && shard.index() == 0))
                .toList();
        return whole.toBuilder()
                .workloads(workloads)
                .requests(shard.requests(whole.requests()))
                .shard(shard)
                .build();
    }
}
