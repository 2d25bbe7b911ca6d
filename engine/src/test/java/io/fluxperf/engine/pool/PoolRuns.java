package io.fluxperf.engine.pool;

import io.fluxperf.engine.config.KeyDistribution;
import io.fluxperf.engine.config.KeyspaceConfig;
import io.fluxperf.engine.config.PoolOptions;
import io.fluxperf.engine.config.ReadFrom;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.ServerDistribution;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.load.LoadRun;
import io.fluxperf.engine.load.RunListener;
import io.fluxperf.engine.metrics.OutcomeCounts;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.ServerStats;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.protocol.Protocol;
import io.fluxperf.engine.protocol.Protocols;
import java.time.Duration;
import java.util.List;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Runs against a pool or a cluster, as RunOrchestrator makes them, for the tests of this package. */
final class PoolRuns {
    private PoolRuns() {
    }

    /** A closed-loop config of {@code requests} requests, one thread and two connections per server. */
    static RunConfig.Builder config(String protocol, PoolOptions pool, long requests, List<WorkloadConfig> workloads) {
        return RunConfig.builder().protocol(protocol).pool(pool).threads(1).connections(2).pipeline(1)
                .duration(Duration.ofSeconds(60)).timeout(Duration.ofSeconds(2)).requests(requests).seed(11)
                .workloads(workloads);
    }

    static PoolOptions servers(List<String> servers, ServerDistribution distribution) {
        return PoolOptions.of(servers, distribution, false, ReadFrom.MASTER);
    }

    static PoolOptions cluster(String seed, ReadFrom readFrom) {
        return PoolOptions.of(List.of(seed), ServerDistribution.KETAMA, true, readFrom);
    }

    /** {@code count} keys, each written once in order (sequential keys, one thread). */
    static WorkloadConfig setEachKey(long count) {
        return WorkloadConfig.of(io.fluxperf.engine.request.Command.SET)
                .withKeyspace(KeyspaceConfig.defaults().withCount(count).withDistribution(KeyDistribution.SEQUENTIAL, 1));
    }

    static RunResult run(RunConfig config) {
        return run(config, new RunListener() { });
    }

    static RunResult run(RunConfig config, RunListener listener) {
        Protocol p = Protocols.find(config.protocol());
        try (ServerPool pool = ServerPool.open(config, p)) {
            return new LoadRun(config, p, listener).execute(pool, pool.describe(), null);
        }
    }

    /** Every request ended in one outcome, and the servers' requests add up to the window's. */
    static void assertReconciles(WindowResult w) {
        OutcomeCounts o = w.total().outcomes();
        long servers = w.pool().servers().stream().mapToLong(s -> s.outcomes().requests()).sum();
        assertEquals(o.requests(), servers, "the servers' requests add up to the window's");
        long timed = w.pool().servers().stream().mapToLong(s -> s.latency().getTotalCount()).sum();
        assertEquals(o.requests(), timed, "every request is timed on its server");
    }

    /** The figures of the server named {@code name}. */
    static ServerStats server(WindowResult w, String name) {
        return w.pool().servers().stream().filter(s -> s.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no server " + name + " in " + w.pool().servers().stream()
                        .map(ServerStats::name).toList()));
    }
}
