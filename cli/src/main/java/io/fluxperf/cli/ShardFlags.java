package io.fluxperf.cli;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.connection.ServerAddress;
import io.fluxperf.engine.protocol.Protocol;
import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.engine.rundir.EffectiveConfig;
import io.fluxperf.engine.rundir.RunDirectory;
import io.fluxperf.engine.rundir.RunDirectoryWriter;
import io.fluxperf.engine.shard.ClockReader;
import io.fluxperf.engine.shard.RunId;
import io.fluxperf.engine.shard.ShardRecord;
import io.fluxperf.engine.shard.Shard;
import io.fluxperf.engine.shard.ShardedConfig;
import io.fluxperf.engine.shard.StartAt;
import java.net.SocketAddress;
import java.nio.file.Path;
import java.time.Duration;
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
                    + "after connecting and preloading; a late start counts as send lag. At most a day ahead unless --start-at-far;"
                    + " refused when already more than 10 s past as the flags are checked.")
    String startAt;

    @Option(names = "--start-at-far", description = "Let --start-at be more than a day ahead (and wait that long).")
    boolean startAtFar;

    @Option(names = "--run-id", paramLabel = "ID",
            description = "Name of the sharded run: with --out OUT each agent writes OUT/ID/shard-I "
                    + "(default: run-START-HASH, from --start-at and the config hash, the same on every agent).")
    String runId;

    /** This process's shard (flags, then the environment), or null. */
    Shard shard() {
        return Shard.resolve(shard, shards, environment);
    }

    /** The start time once checked; the check is made once, since a start may pass while the run connects. */
    private Instant checkedStart;

    /**
     * The start time, or null.
     *
     * @throws io.fluxperf.engine.UserError when it is more than a day ahead without --start-at-far
     *                                      (a date mistyped would wait silently for years), or
     *                                      already past ({@link StartAt#requireToCome})
     */
    Instant startTime() {
        if (startAt == null) {
            return null;
        }
        if (checkedStart == null) {
            Instant at = StartAt.parse(startAt);
            Instant now = Instant.now();
            StartAt.requireNear(at, now, startAtFar);
            StartAt.requireToCome(at, now);
            checkedStart = at;
        }
        return checkedStart;
    }

    /**
     * Says on {@code err} when a start time ahead is, so that the wait for it is not silent; nothing
     * without one, or for one already past (the run reports how late it started).
     */
    void announceStart(java.io.PrintStream err) {
        Instant at = startTime();
        String wait = at == null ? null : StartAt.describeWait(at, Instant.now());
        if (wait != null) {
            err.println("fluxperf: " + wait);
        }
    }

    /**
     * A sharded run's agent writes its run directory as {@code OUT/RUN_ID/shard-I}, so that the
     * agents' directories, on one shared volume or copied together, form the run's.
     */
    RunConfig placeOut(RunConfig config) {
        Shard s = config.shard();
        requireShard(s);
        if (s == null) {
            return config;
        }
        if (config.out() == null) {
            return config;
        }
        String id = RunId.of(runId, config.startAt(), RunDirectory.hash(EffectiveConfig.toml(config)));
        return config.toBuilder().out(config.out().resolve(id).resolve(RunId.shardDirectory(s.index()))).build();
    }

    /** Refuses --run-id without a shard ({@code s} null): it names a sharded run's directory. */
    void requireShard(Shard s) {
        if (s == null && runId != null) {
            throw new UserError("--run-id names a sharded run's directory; give --shard I/N (or JOB_COMPLETION_INDEX) too");
        }
    }

    /**
     * Fills result.json's "shard": index, count, run id, start, and the server's clock read now and
     * when the result is written (after the load), for merge's clock offsets.
     */
    void record(RunDirectoryWriter directory, RunConfig config) {
        Shard s = config.shard();
        if (s == null) {
            return;
        }
        Path dir = config.out();
        String id = dir.getParent().getFileName().toString();
        Protocol p = Protocols.find(config.protocol());
        SocketAddress server = null;
        if (config.server() != null && !config.connection().tls()) {
            server = ServerAddress.parse(config.server(), "--server");
        }
        ClockReader clock = new ClockReader(p == null ? null : p.serverClock(), server, Duration.ofSeconds(1));
        ShardRecord.ClockReading start = clock.read();
        String at = config.startAt() == null ? null : config.startAt().toString();
        directory.shard(() -> {
            ShardRecord.ClockReading end = start == null ? null : clock.read();
            return new ShardRecord(s.index(), s.count(), id, at,
                    start == null || end == null ? null : new ShardRecord.ServerClockReadings(start, end));
        });
    }

    /** {@code whole} as this agent runs it: its share of rates and keys, and the start time. */
    RunConfig apply(RunConfig whole) {
        RunConfig mine = ShardedConfig.of(whole, shard());
        Instant at = startTime();
        return at == null ? mine : mine.toBuilder().startAt(at).build();
    }
}
