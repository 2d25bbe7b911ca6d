package io.fluxperf.engine.pool;

import io.fluxperf.engine.config.ReadFrom;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.OutcomeCounts;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.ServerStats;
import io.fluxperf.engine.metrics.StopReason;
import io.fluxperf.engine.metrics.TopologyFigures;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.run.RunOrchestrator;
import io.fluxperf.engine.run.TextRunReport;
import io.fluxperf.engine.rundir.RunDirectory;
import io.fluxperf.engine.rundir.RunDirectoryWriter;
import io.fluxperf.testkit.RedisCluster;
import io.fluxperf.testkit.RedisProcess;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A master of a real 3-master, 3-replica redis Cluster killed (SIGKILL) 3 s into a 10-s set/get run
 * at 20,000 requests/s: the run completes and every request ends in one outcome; the
 * {@code Topology:} line reports the loss, the promotion and how long the master's slots went
 * without one; the replica's promotion, as the test sees it in {@code CLUSTER NODES}, falls inside
 * that gap; two seconds after it the run is back at its rate; and {@code report DIR} makes the same
 * text again from the run directory. Before it, a manual failover under a --read-from replica run.
 * The two runs are timing tests; the cluster's start before them is not, and runs without the lock.
 */
@Timeout(240)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterFailoverTest {
    /** Low, so that the failover comes within the run; 1.5 s rather than 1 s so that a busy machine's stalls fail no node. */
    private static final int NODE_TIMEOUT_MILLIS = 1_500;
    private static final double RATE = 20_000;
    private static RedisCluster cluster;

    @TempDir
    Path tmp;

    @BeforeAll
    static void start() {
        cluster = RedisCluster.start(3, 1, NODE_TIMEOUT_MILLIS);
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /**
     * {@code CLUSTER FAILOVER} on a replica while a --read-from replica run goes: writes follow the
     * new master (MOVED), reads move to the old master, a replica now, and no slot went without a
     * master. First: it leaves every node up for the kill.
     */
    @Test
    @Tag("timing")
    @Order(1)
    void aManualFailoverMovesReadsToTheNewReplica() throws Exception {
        RedisProcess master = cluster.masters().get(0);
        RedisProcess heir = cluster.replicaOf(master);
        long[] slots = cluster.slotsOf(master, master).get(0);
        RunConfig config = PoolRuns.config("redis", PoolRuns.cluster(cluster.seed(), ReadFrom.REPLICA), 0,
                        List.of(WorkloadConfig.of(Command.SET).withRate(2000), WorkloadConfig.of(Command.GET).withRate(2000)))
                .connections(2).pipeline(16).duration(Duration.ofSeconds(1)).windows(5).warmup(Duration.ofSeconds(1)).build();
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);
        CompletableFuture<RunResult> run = CompletableFuture.supplyAsync(() -> new RunOrchestrator(config,
                new TextRunReport(out, new PrintStream(OutputStream.nullOutputStream()), false)).execute());
        Awaitility.await("the first window").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(5))
                .until(() -> printed.toString(StandardCharsets.UTF_8).contains("Window: 1"));
        assertEquals(new RedisProcess.Simple("OK"), heir.command("CLUSTER", "FAILOVER"));
        Awaitility.await("the manual failover").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(10))
                .until(() -> RedisCluster.saysMaster(heir) && !RedisCluster.saysMaster(master));

        RunResult r = run.get(120, TimeUnit.SECONDS);
        String text = printed.toString(StandardCharsets.UTF_8);
        assertEquals(StopReason.COMPLETED, r.stopReason(), text);
        for (WindowResult w : r.windows()) {
            PoolRuns.assertReconciles(w);
        }
        TopologyFigures topology = r.total().topology();
        String took = heir.address() + " took " + String.format(Locale.ROOT, "slots %,d-%,d", slots[0], slots[1])
                + " from " + master.address();
        assertTrue(topology.changes().stream().anyMatch(c -> c.what().equals(took)), took + " in " + topology.line());
        assertTrue(topology.changes().stream().anyMatch(c -> c.what().equals(master.address() + " is a replica now")),
                topology.line());
        assertEquals(null, topology.longestGap(), "no slot went without a master: " + topology.line());
        assertTrue(r.total().pool().moved() > 0, "writes to the old master were moved: " + text);

        WindowResult last = r.windows().get(r.windows().size() - 1);
        ServerStats demoted = PoolRuns.server(last, master.address());
        ServerStats promoted = PoolRuns.server(last, heir.address());
        assertEquals("replica", demoted.role());
        assertEquals("master", promoted.role());
        assertTrue(demoted.outcomes().requests() > 200, "the old master, a replica now, serves its slots' reads: "
                + demoted.outcomes());
        assertEquals(demoted.outcomes().requests(), demoted.outcomes().ok() + demoted.outcomes().miss(), "all answered");
        assertEquals(0, demoted.moved(), "no read of it was moved");
        assertTrue(promoted.outcomes().requests() > 200, "the new master takes its slots' writes: " + promoted.outcomes());
        assertEquals(promoted.outcomes().requests(), promoted.outcomes().ok(), "every write answered");
    }

    @Test
    @Tag("timing")
    @Order(2)
    void aKilledMastersReplicaTakesOverWithinTheReportedGap() throws Exception {
        RedisProcess victim = cluster.masters().get(1);
        RedisProcess heir = cluster.replicaOf(victim);
        long[] slots = cluster.slotsOf(victim, cluster.masters().get(0)).get(0);
        RunConfig config = PoolRuns.config("redis", PoolRuns.cluster(cluster.seed(), ReadFrom.MASTER), 0,
                        List.of(WorkloadConfig.of(Command.SET).withRate(RATE / 2), WorkloadConfig.of(Command.GET).withRate(RATE / 2)))
                .connections(2).pipeline(16).duration(Duration.ofMillis(500)).windows(16).timeout(Duration.ofMillis(500))
                .warmup(Duration.ofSeconds(2)).build();
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);
        Path dir = tmp.resolve("run");
        RunDirectoryWriter writer = RunDirectoryWriter.open(dir, false, config, "run", List.of("fluxperf", "run"), "--out");
        RunOrchestrator orchestrator = new RunOrchestrator(config,
                new TextRunReport(out, new PrintStream(OutputStream.nullOutputStream()), false)).runDirectory(writer);
        CompletableFuture<RunResult> run = CompletableFuture.supplyAsync(orchestrator::execute);

        // 1 s into the measured run (the second half-second window has ended): the node timeout, the
        // promotion and two settled seconds after it still fall within the run's 8 s
        Awaitility.await("the second window").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(5))
                .until(() -> printed.toString(StandardCharsets.UTF_8).contains("Window: 2"));
        long killed = System.nanoTime();
        victim.kill();
        // the promotion as CLUSTER NODES shows it: the last poll that saw a replica, the first that saw a master
        AtomicLong lastReplica = new AtomicLong(killed);
        AtomicLong firstMaster = new AtomicLong();
        Awaitility.await("the replica's promotion").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(10))
                .until(() -> {
                    long before = System.nanoTime();
                    if (RedisCluster.saysMaster(heir)) {
                        firstMaster.set(System.nanoTime());
                        return true;
                    }
                    lastReplica.set(before);
                    return false;
                });

        RunResult r = run.get(120, TimeUnit.SECONDS);
        String text = printed.toString(StandardCharsets.UTF_8);
        assertEquals(StopReason.COMPLETED, r.stopReason(), text);
        assertEquals(16, r.windows().size());
        for (WindowResult w : r.windows()) {
            PoolRuns.assertReconciles(w);
        }
        OutcomeCounts total = r.total().total().outcomes();
        assertEquals(total.requests(), total.ok() + total.miss() + total.error() + total.timeout() + total.closed());
        assertTrue(total.error() + total.timeout() + total.closed() > 0, "requests to the dead master failed: " + total);

        TopologyFigures topology = r.total().topology();
        assertNotNull(topology, text);
        TopologyFigures.Gap gap = topology.longestGap();
        assertNotNull(gap, topology.line());
        assertEquals(victim.address(), gap.master());
        assertEquals(slots[0], gap.firstSlot(), topology.line());
        assertEquals(slots[1], gap.lastSlot(), topology.line());
        assertTrue(!gap.open(), "the gap closed: " + topology.line());
        assertTrue(topology.changes().stream().anyMatch(c -> c.what().equals(victim.address() + " unreachable")),
                topology.line());
        assertTrue(topology.changes().stream().anyMatch(c -> c.what().startsWith(heir.address() + " took slots "
                + String.format(Locale.ROOT, "%,d-%,d", slots[0], slots[1]) + " from " + victim.address())), topology.line());
        assertTrue(gap.startNanos() >= killed - TimeUnit.MILLISECONDS.toNanos(50) && gap.startNanos() < firstMaster.get(),
                "the gap began at the kill (" + (gap.startNanos() - killed) / 1e6 + " ms after it), before the promotion");
        assertTrue(gap.endNanos() > lastReplica.get(), "the gap ended after the last poll that saw a replica: "
                + (gap.endNanos() - lastReplica.get()) / 1e6 + " ms");
        assertTrue(gap.nanos() >= TimeUnit.MILLISECONDS.toNanos(NODE_TIMEOUT_MILLIS), "no failover before the node timeout: "
                + gap.nanos() / 1e9 + " s");
        String line = String.format(Locale.ROOT, "slot %,d-%,d without a master for %.2f s", slots[0], slots[1], gap.nanos() / 1e9);
        assertTrue(text.contains(line), line + " in\n" + text);

        // two seconds after the promotion the run is back at its rate: every request answered, within 1 %
        // over the windows from then on (one half-second window alone wobbles by more on a busy machine)
        long answered = 0;
        double seconds = 0;
        for (WindowResult w : r.windows()) {
            if (w.startNanos() >= firstMaster.get() + TimeUnit.SECONDS.toNanos(2)) {
                OutcomeCounts o = w.total().outcomes();
                assertEquals(o.requests(), o.ok() + o.miss(), "window " + w.number() + ": every request answered");
                answered += o.ok() + o.miss();
                seconds += w.seconds();
            }
        }
        assertTrue(seconds > 0, "a window began 2 s after the promotion (at " + (firstMaster.get() - killed) / 1e9
                + " s after the kill)");
        assertTrue(Math.abs(answered / seconds / RATE - 1) < 0.01, Math.round(answered / seconds) + " answered/s over the last "
                + seconds + " s");
        WindowResult last = r.windows().get(r.windows().size() - 1);
        ServerStats promoted = PoolRuns.server(last, heir.address());
        assertEquals("master", promoted.role(), "the promoted replica is reported as a master");
        assertEquals(promoted.outcomes().requests(), promoted.outcomes().ok() + promoted.outcomes().miss(),
                "it answers every request of its slots");
        assertTrue(promoted.outcomes().requests() > RATE / 6, "it took the lost master's share: " + promoted.outcomes());

        assertEquals(text, RunDirectory.open(dir).reportText(), "report DIR makes the same text again");
        // the same gap in the run directory's result.json, in the total and in the windows it overlaps
        com.fasterxml.jackson.databind.JsonNode json = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(dir.resolve("result.json").toFile());
        com.fasterxml.jackson.databind.JsonNode t = json.path("total").path("topology");
        assertEquals(gap.nanos(), t.path("longestGapNanos").asLong(), t.toString());
        assertTrue(t.path("changes").size() >= 2, "the loss and the promotion: " + t);
        com.fasterxml.jackson.databind.JsonNode g = t.path("gaps").get(0);
        assertEquals(slots[0], g.path("firstSlot").asLong(), t.toString());
        assertEquals(slots[1], g.path("lastSlot").asLong(), t.toString());
        assertEquals(victim.address(), g.path("master").asText());
        assertTrue(!g.path("open").asBoolean(), t.toString());
        long windowsWithTheGap = 0;
        for (com.fasterxml.jackson.databind.JsonNode w : json.path("windows")) {
            windowsWithTheGap += w.path("topology").path("gaps").size() > 0 ? 1 : 0;
        }
        assertTrue(windowsWithTheGap >= 1, "a window's topology holds the gap");
    }
}
