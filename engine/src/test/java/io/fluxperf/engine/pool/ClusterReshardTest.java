package io.fluxperf.engine.pool;

import io.fluxperf.engine.config.KeyspaceConfig;
import io.fluxperf.engine.config.ReadFrom;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.load.RunListener;
import io.fluxperf.engine.metrics.LiveSample;
import io.fluxperf.engine.metrics.OutcomeCounts;
import io.fluxperf.engine.metrics.PoolFigures;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.request.Command;
import io.fluxperf.testkit.RedisCluster;
import io.fluxperf.testkit.RedisProcess;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A slot moved from one master to another in the middle of a paced get/set run, the way
 * {@code redis-cli --cluster reshard} moves it (IMPORTING, MIGRATING, MIGRATE key by key, then
 * SETSLOT NODE on the target, the source and the others): ASK while it moves, MOVED after, and
 * every request still ends Ok or Miss, the redirects counted and the map read again once or twice
 * (once per change the run noticed, not once per MOVED reply).
 */
@Timeout(120)
class ClusterReshardTest {
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

    @Test
    void aSlotMovedMidRunEndsEveryRequestOkOrMiss() throws Exception {
        KeyspaceConfig keys = KeyspaceConfig.defaults().withCount(20);
        List<WorkloadConfig> workloads = List.of(
                WorkloadConfig.of(Command.GET).withHit(true).withKeyspace(keys).withRate(2000),
                WorkloadConfig.of(Command.SET).withKeyspace(keys).withRate(1000));
        AtomicLong sent = new AtomicLong();
        RunListener progress = new RunListener() {
            @Override
            public void live(LiveSample sample) {
                sent.set(sample.requests());
            }
        };
        CompletableFuture<RunResult> run = CompletableFuture.supplyAsync(() -> PoolRuns.run(PoolRuns.config("redis",
                PoolRuns.cluster(cluster.seed(), ReadFrom.MASTER), 0, workloads).threads(2).duration(Duration.ofSeconds(6))
                .build(), progress));
        Awaitility.await("the run under way").atMost(Duration.ofSeconds(30)).until(() -> sent.get() > 2000);

        String key = String.format("%016d", 7);
        int slot = cluster.keyslot(key);
        RedisProcess from = cluster.ownerOf(slot, cluster.masters().get(0));
        RedisProcess to = cluster.masters().stream().filter(m -> m != from).findFirst().orElseThrow();
        cluster.beginMove(slot, from, to);
        for (String k : cluster.keysIn(slot, from)) {
            cluster.migrate(k, from, to);
            // deliberate: the run asks for the moved key while the slot is still migrating (ASK), the window under test
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(600));
        }
        cluster.endMove(slot, from, to);

        RunResult r = run.get(60, TimeUnit.SECONDS);
        OutcomeCounts o = r.total().total().outcomes();
        assertEquals(o.requests(), o.ok() + o.miss(), "every request ends Ok or Miss: " + o.error() + " errors, "
                + o.timeout() + " timeouts, " + o.closed() + " closed");
        PoolRuns.assertReconciles(r.total());
        PoolFigures pool = r.total().pool();
        assertTrue(pool.ask() > 0, "ASK redirects counted: " + pool.ask());
        assertTrue(pool.moved() > 0, "MOVED redirects counted: " + pool.moved());
        assertTrue(pool.mapRefreshes() >= 1 && pool.mapRefreshes() <= 2,
                "the map read again once (twice if a node had not heard yet), not per reply: " + pool.mapRefreshes()
                        + " for " + pool.moved() + " MOVED");
        assertEquals(pool.ask(), PoolRuns.server(r.total(), from.address()).ask(), "the source answered ASK");
        // the report and the JSON result count them too
        java.io.ByteArrayOutputStream text = new java.io.ByteArrayOutputStream();
        new io.fluxperf.engine.report.TextReport(new java.io.PrintStream(text, true, java.nio.charset.StandardCharsets.UTF_8))
                .summary(r);
        assertTrue(text.toString(java.nio.charset.StandardCharsets.UTF_8).contains("Redirects: moved " + pool.moved() + " ask "
                + pool.ask() + " (slot map read again " + pool.mapRefreshes()), text.toString());
        com.fasterxml.jackson.databind.JsonNode json = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(new io.fluxperf.engine.report.JsonReport("test").toJson(r));
        assertEquals(pool.moved(), json.at("/total/redirects/moved").asLong(), json.at("/total").toString());
        assertEquals(pool.ask(), json.at("/total/redirects/ask").asLong());
        assertEquals(pool.moved(), json.at("/windows/0/redirects/moved").asLong(), "per window");
        assertEquals(pool.ask(), json.at("/total/servers").findValues("ask").stream().mapToLong(n -> n.asLong()).sum());
        assertEquals(1L, to.command("EXISTS", key), "the key moved");
        assertEquals(slot, cluster.keyslot(key));
        assertEquals(to, cluster.ownerOf(slot, from));
    }
}
