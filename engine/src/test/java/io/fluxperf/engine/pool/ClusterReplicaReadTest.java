package io.fluxperf.engine.pool;

import io.fluxperf.engine.config.KeyspaceConfig;
import io.fluxperf.engine.config.ReadFrom;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.OutcomeCounts;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.ServerStats;
import io.fluxperf.engine.request.Command;
import io.fluxperf.testkit.RedisCluster;
import io.fluxperf.testkit.RedisProcess;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --read-from replica} against a real redis Cluster of 3 masters with one replica each:
 * every get goes to a replica (after READONLY on its connections), every set to a master.
 */
@Timeout(180)
class ClusterReplicaReadTest {
    private static RedisCluster cluster;

    @BeforeAll
    static void start() {
        cluster = RedisCluster.start(3, 1);
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void readsGoToReplicasAndWritesToMasters() {
        KeyspaceConfig keys = KeyspaceConfig.defaults().withCount(500);
        List<WorkloadConfig> workloads = List.of(WorkloadConfig.of(Command.GET).withHit(true).withKeyspace(keys).withWeight(3),
                WorkloadConfig.of(Command.SET).withKeyspace(keys));
        cluster.nodes().forEach(n -> n.command("CONFIG", "RESETSTAT"));
        RunResult r = PoolRuns.run(PoolRuns.config("redis", PoolRuns.cluster(cluster.seed(), ReadFrom.REPLICA), 4000,
                workloads).build());
        OutcomeCounts o = r.total().total().outcomes();
        assertEquals(4000, o.ok() + o.miss(), "every request answered");
        PoolRuns.assertReconciles(r.total());
        long gets = r.total().workloads().get(0).outcomes().requests();
        long sets = r.total().workloads().get(1).outcomes().requests();
        long replicaGets = 0;
        for (RedisProcess replica : cluster.replicas()) {
            Map<String, Long> stats = replica.commandstats();
            replicaGets += stats.getOrDefault("get", 0L);
            assertEquals(2L, stats.getOrDefault("readonly", 0L), "READONLY on each of its connections: " + stats);
            ServerStats reported = PoolRuns.server(r.total(), replica.address());
            assertEquals("replica", reported.role());
            assertEquals(stats.getOrDefault("get", 0L), reported.outcomes().requests(), "requests of " + replica.address());
        }
        long masterGets = 0;
        long masterSets = 0;
        for (RedisProcess master : cluster.masters()) {
            Map<String, Long> stats = master.commandstats();
            masterGets += stats.getOrDefault("get", 0L);
            masterSets += stats.getOrDefault("set", 0L);
        }
        assertEquals(gets, replicaGets, "every get on a replica");
        assertEquals(0, masterGets, "no get on a master");
        assertEquals(sets + 500, masterSets, "every set (and the 500 of the preload) on a master");
        assertTrue(gets > 2000, "gets: " + gets);
        assertEquals(0, r.total().pool().moved(), "replicas that took READONLY serve their slots' reads");
    }
}
