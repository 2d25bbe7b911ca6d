package io.fluxperf.cli;

import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.shard.Shard;
import io.fluxperf.engine.shard.ShardedConfig;
import io.fluxperf.engine.shard.StartAt;
import java.time.Instant;
import java.util.Map;
import picocli.CommandLine.Option;

/** The flags of a sharded run, shared by {@code run} and {@code replay} (issue 31). */
final class ShardFlags {
    /** Where a test puts the environment a pod would have; the process's own otherwise. */
    static Map<String, String> environment = System.getenv();

    @Option(names = "--shard", paramLabel = "I/N",
            description = "Run as agent I of N (0-based): 1/N of every rate, a disjoint slice of the keys for writes, "
                    + "or (replay) the log's clients that hash to I. Default: JOB_COMPLETION_INDEX with --shards.")
    String shard;

    @Option(names = "--shards", paramLabel = "N",
            description = "The shard count when the index comes from JOB_COMPLETION_INDEX (Kubernetes Indexed Job); "
                    + "default FLUXPERF_SHARDS.")
    Integer shards;

    @Option(names = "--start-at", paramLabel = "TIME",
            description = "Start the schedule at this wall-clock time (RFC 3339, e.g. 2026-12-06T03:00:00Z, or epoch seconds), "
                    + "after connecting and preloading; a late start counts as send lag.")
    String startAt;

    /** This process's shard (flags, then the environment), or null. */
    Shard shard() {
        return Shard.resolve(shard, shards, environment);
    }

    /** The start time, or null. */
    Instant startTime() {
        return startAt == null ? null : StartAt.parse(startAt);
    }

    /** {@code whole} as this agent runs it: its share of rates and keys, and the start time. */
    RunConfig apply(RunConfig whole) {
        RunConfig mine = ShardedConfig.of(whole, shard());
        Instant at = startTime();
        return at == null ? mine : mine.toBuilder().startAt(at).build();
    }
}
