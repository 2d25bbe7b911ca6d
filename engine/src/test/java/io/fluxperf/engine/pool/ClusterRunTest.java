package io.fluxperf.engine.pool;

import io.fluxperf.engine.config.ReadFrom;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.OutcomeCounts;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.ServerStats;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.CommandTemplate;
import io.fluxperf.testkit.RedisCluster;
import io.fluxperf.testkit.RedisProcess;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * set and get against a real redis Cluster of 3 masters: the nodes' own counters add up to the
 * run's requests node by node, every key lands on the node that {@code CLUSTER KEYSLOT} and the
 * slot map name, and keys with one hash tag land together.
 */
@Timeout(180)
class ClusterRunTest {
    private static RedisCluster cluster;

    @BeforeAll
    static void start() {
        cluster = RedisCluster.start(3, 0);
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @BeforeEach
    void empty() {
        cluster.flushAll();
        cluster.masters().forEach(m -> m.command("CONFIG", "RESETSTAT"));
    }

    @Test
    void setsAndGetsAddUpNodeByNode() {
        List<WorkloadConfig> workloads = List.of(WorkloadConfig.of(Command.SET), WorkloadConfig.of(Command.GET));
        RunResult r = PoolRuns.run(PoolRuns.config("redis", PoolRuns.cluster(cluster.seed(), ReadFrom.MASTER), 6000,
                workloads).build());
        OutcomeCounts total = r.total().total().outcomes();
        assertEquals(6000, total.requests());
        assertEquals(6000, total.ok() + total.miss(), "every request answered");
        PoolRuns.assertReconciles(r.total());
        long calls = 0;
        for (RedisProcess m : cluster.masters()) {
            Map<String, Long> stats = m.commandstats();
            long mine = stats.getOrDefault("set", 0L) + stats.getOrDefault("get", 0L);
            ServerStats reported = PoolRuns.server(r.total(), m.address());
            assertEquals(mine, reported.outcomes().requests(), "requests of node " + m.address());
            assertEquals("master", reported.role());
            assertTrue(mine > 1000, "each master serves a share: " + mine);
            calls += mine;
        }
        assertEquals(6000, calls, "the nodes' INFO commandstats add up to the run's requests");
        assertEquals(0, r.total().pool().moved() + r.total().pool().ask(), "a stable cluster redirects nothing");
    }

    @Test
    void everyKeyLandsOnTheNodeOfItsSlot() {
        int keys = 3000;
        RunResult r = PoolRuns.run(PoolRuns.config("redis", PoolRuns.cluster(cluster.seed(), ReadFrom.MASTER), keys,
                List.of(PoolRuns.setEachKey(keys))).build());
        assertEquals(keys, r.total().total().outcomes().ok());
        Map<RedisProcess, Integer> expected = new HashMap<>();
        List<String> names = new ArrayList<>();
        for (int k = 0; k < keys; k++) {
            names.add(String.format("%016d", k));
        }
        Map<Integer, RedisProcess> owners = new HashMap<>();
        for (String key : names) {
            int slot = cluster.keyslot(key);
            RedisProcess owner = owners.computeIfAbsent(slot, s -> cluster.ownerOf(s, cluster.masters().get(0)));
            assertEquals(1L, owner.command("EXISTS", key), key + " (slot " + slot + ") is on " + owner.address());
            expected.merge(owner, 1, Integer::sum);
        }
        for (RedisProcess m : cluster.masters()) {
            assertEquals((long) expected.getOrDefault(m, 0), m.command("DBSIZE"), "keys held by " + m.address());
            assertEquals(expected.getOrDefault(m, 0).longValue(),
                    PoolRuns.server(r.total(), m.address()).outcomes().ok(), "sets reported for " + m.address());
        }
    }

    @Test
    void keysWithOneHashTagLandTogether() {
        List<WorkloadConfig> workloads = List.of(
                WorkloadConfig.of(Command.COMMAND, CommandTemplate.parse("SET {user1}.__key__ __data__")).withName("user1"),
                WorkloadConfig.of(Command.COMMAND, CommandTemplate.parse("SET {user2}.__key__ __data__")).withName("user2"));
        RunResult r = PoolRuns.run(PoolRuns.config("redis", PoolRuns.cluster(cluster.seed(), ReadFrom.MASTER), 2000,
                workloads).build());
        assertEquals(2000, r.total().total().outcomes().ok());
        for (String tag : List.of("user1", "user2")) {
            int slot = cluster.keyslot("{" + tag + "}");
            RedisProcess owner = cluster.ownerOf(slot, cluster.masters().get(0));
            long held = (Long) owner.command("CLUSTER", "COUNTKEYSINSLOT", Integer.toString(slot));
            assertTrue(held > 100, "{" + tag + "} keys in slot " + slot + " on " + owner.address() + ": " + held);
            for (RedisProcess m : cluster.masters()) {
                @SuppressWarnings("unchecked")
                List<String> found = (List<String>) m.command("KEYS", "{" + tag + "}*");
                assertEquals(m == owner ? held : 0, found.size(), "{" + tag + "} keys on " + m.address());
                found.forEach(k -> assertEquals(slot, cluster.keyslot(k), k));
            }
        }
        long requests = r.total().pool().servers().stream().filter(s -> s.outcomes().requests() > 0).count();
        assertTrue(requests <= 2, "two tags, at most two nodes: " + requests);
    }

    /**
     * A publish workload on a cluster: SPUBLISH to each channel's node, SSUBSCRIBE per node on each
     * of two subscribers' connections; every message reaches both, once.
     */
    @Test
    void aClusterPublishesShardedToSubscribersOfEachNode() {
        io.fluxperf.engine.config.WorkloadConfig publish = io.fluxperf.engine.config.WorkloadConfig.of(Command.PUBLISH)
                .withKeyspace(io.fluxperf.engine.config.KeyspaceConfig.defaults().withCount(300));
        publish = publish.withShape(publish.shape().withSubscribers(2));
        io.fluxperf.engine.config.RunConfig config = PoolRuns.config("redis", PoolRuns.cluster(cluster.seed(),
                io.fluxperf.engine.config.ReadFrom.MASTER), 3000, List.of(publish)).build();
        RunResult r = new io.fluxperf.engine.run.RunOrchestrator(config, new io.fluxperf.engine.run.RunReport() { }).execute();
        io.fluxperf.engine.metrics.MessageFigures m = r.total().messages();
        assertEquals(3000, m.published());
        for (io.fluxperf.engine.metrics.MessageFigures.Subscriber s : m.subscribers()) {
            assertEquals(3000, s.delivered(), "subscriber " + s.number());
            assertEquals(0, s.lost() + s.duplicated() + s.unconfirmed());
        }
        long spublish = 0;
        for (RedisProcess node : cluster.masters()) {
            long here = node.commandstats().getOrDefault("spublish", 0L);
            assertTrue(here > 500, "each node took its channels' messages: " + here);
            spublish += here;
        }
        assertEquals(3000, spublish, "every publish sharded, none broadcast");
        PoolRuns.assertReconciles(r.total());
    }
}
