package io.fluxperf.engine.pool;

import io.fluxperf.engine.config.ReadFrom;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.load.RunListener;
import io.fluxperf.engine.metrics.OutcomeCounts;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.ServerStats;
import io.fluxperf.engine.metrics.StopReason;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.request.Command;
import io.fluxperf.testkit.RedisCluster;
import io.fluxperf.testkit.RedisProcess;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A master of a real redis Cluster killed (SIGKILL) in the middle of a paced run: its requests
 * end as errors, timeouts or closed (counted, on that node), the other nodes keep their rates
 * window after window, and the run completes.
 */
@Timeout(120)
class ClusterNodeKilledTest {
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

    /** Timing: the other nodes' rates are the verdict (the cluster's start before it is not timed). */
    @Test
    @Tag("timing")
    void theOtherNodesKeepTheirRates() throws Exception {
        CountDownLatch firstWindow = new CountDownLatch(1);
        RunListener windows = new RunListener() {
            @Override
            public void window(WindowResult window) {
                firstWindow.countDown();
            }
        };
        List<WorkloadConfig> workloads = List.of(WorkloadConfig.of(Command.SET).withRate(3000));
        CompletableFuture<RunResult> run = CompletableFuture.supplyAsync(() -> PoolRuns.run(PoolRuns.config("redis",
                PoolRuns.cluster(cluster.seed(), ReadFrom.MASTER), 0, workloads).duration(Duration.ofSeconds(2)).windows(3)
                .timeout(Duration.ofMillis(500)).build(), windows));
        assertTrue(firstWindow.await(30, TimeUnit.SECONDS), "the first window ended");
        RedisProcess killed = cluster.masters().get(2);
        killed.kill();

        RunResult r = run.get(60, TimeUnit.SECONDS);
        assertEquals(StopReason.COMPLETED, r.stopReason(), "the run completes");
        assertEquals(3, r.windows().size());
        WindowResult before = r.windows().get(0);
        WindowResult after = r.windows().get(2);
        for (WindowResult w : r.windows()) {
            PoolRuns.assertReconciles(w);
        }
        ServerStats dead = PoolRuns.server(after, killed.address());
        OutcomeCounts d = dead.outcomes();
        assertTrue(d.requests() > 500, "the dead node's requests are still counted: " + d.requests());
        assertEquals(d.requests(), d.error() + d.timeout() + d.closed(), "each ends as an error, timeout or closed");
        assertEquals(0, PoolRuns.server(before, killed.address()).outcomes().error(), "none failed before");
        for (RedisProcess m : cluster.masters().subList(0, 2)) {
            ServerStats first = PoolRuns.server(before, m.address());
            ServerStats last = PoolRuns.server(after, m.address());
            double rateBefore = first.outcomes().requests() / before.seconds();
            double rateAfter = last.outcomes().requests() / after.seconds();
            assertTrue(Math.abs(rateAfter / rateBefore - 1) < 0.1, m.address() + " kept its rate: " + Math.round(rateBefore)
                    + "/s before, " + Math.round(rateAfter) + "/s after");
            assertEquals(last.outcomes().requests(), last.outcomes().ok(), m.address() + " answered everything");
        }
        assertTrue(Math.abs(after.rate() / before.rate() - 1) < 0.05, "the run kept its total rate: " + before.rate()
                + " then " + after.rate());
    }
}
