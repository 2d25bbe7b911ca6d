package io.fluxperf.engine.pubsub;

import io.fluxperf.engine.config.KeyspaceConfig;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.MessageFigures;
import io.fluxperf.engine.metrics.OutcomeCounts;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.StopReason;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.run.RunOrchestrator;
import io.fluxperf.engine.run.TextRunReport;
import io.fluxperf.engine.rundir.RunDirectory;
import io.fluxperf.engine.rundir.RunDirectoryWriter;
import io.fluxperf.testkit.RealServer;
import io.fluxperf.testkit.RealServers;
import io.fluxperf.testkit.RedisProcess;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * 10,000 messages a second published to 100 channels of a real redis-server, four subscribers:
 * every message reaches each of them once (delivered 4 times, none lost or duplicated, reconciled
 * with the publishes), each subscriber has a latency histogram of its own, and a subscriber whose
 * reading the test pauses for a second shows that lag while the others do not. The run directory
 * makes the same report again.
 */
@Tag("timing")
@Timeout(120)
@ExtendWith(RealServers.class)
class PubSubRunTest {
    private static final double RATE = 10_000;
    private static final long PAUSE_MILLIS = 1_000;

    @RealServer
    private RedisProcess redis;

    @TempDir
    Path tmp;

    @Test
    void everyMessageReachesEachSubscriberOnceAndAPausedOneLagsAlone() throws Exception {
        WorkloadConfig publish = WorkloadConfig.of(Command.PUBLISH).withRate(RATE)
                .withKeyspace(KeyspaceConfig.defaults().withCount(100));
        publish = publish.withShape(publish.shape().withSubscribers(4));
        RunConfig config = RunConfig.builder().protocol("redis").server(redis.address()).threads(1).connections(2)
                .pipeline(16).duration(Duration.ofSeconds(1)).windows(4).warmup(Duration.ofSeconds(1)).seed(3)
                .workloads(List.of(publish)).build();
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);
        Path dir = tmp.resolve("run");
        RunOrchestrator orchestrator = new RunOrchestrator(config,
                new TextRunReport(out, new PrintStream(OutputStream.nullOutputStream()), false))
                .runDirectory(RunDirectoryWriter.open(dir, false, config, "run", List.of("fluxperf", "run"), "--out"));
        CompletableFuture<RunResult> run = CompletableFuture.supplyAsync(orchestrator::execute);

        Awaitility.await("the first window").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(5))
                .until(() -> printed.toString(StandardCharsets.UTF_8).contains("Window: 1"));
        PubSubRun subscribers = orchestrator.subscribers();
        assertNotNull(subscribers, "the subscribers are open while the run goes");
        long paused = System.nanoTime();
        subscribers.pauseReading(2, true);
        // the wait is what the test checks: subscriber 2 reads nothing for this long, and falls behind by it
        Thread.sleep(PAUSE_MILLIS);
        subscribers.pauseReading(2, false);

        RunResult r = run.get(60, TimeUnit.SECONDS);
        String text = printed.toString(StandardCharsets.UTF_8);
        assertEquals(StopReason.COMPLETED, r.stopReason(), text);
        OutcomeCounts publishes = r.total().total().outcomes();
        assertEquals(publishes.requests(), publishes.ok(), "every publish answered: " + text);
        MessageFigures total = r.total().messages();
        assertNotNull(total, text);
        assertEquals(publishes.ok(), total.published(), "the ledger's publishes are the requests that ended ok");
        assertTrue(total.published() > 0.9 * RATE * 4, "published: " + total.published());
        assertEquals(4, total.subscribers().size());
        for (MessageFigures.Subscriber s : total.subscribers()) {
            assertEquals(total.published(), s.delivered(), "subscriber " + s.number() + " got every message: " + text);
            assertEquals(0, s.lost());
            assertEquals(0, s.duplicated());
            assertEquals(0, s.unconfirmed());
            assertTrue(s.latency().count() > 0, "a latency histogram per subscriber");
        }
        assertEquals(4 * total.published(), total.delivered(), "every message delivered 4 times");
        assertTrue(text.contains("Messages: published " + total.published() + " delivered " + 4 * total.published()
                + " lost 0 duplicated 0 (4 subscribers; delivered + lost = published × subscribers)"), text);
        assertTrue(redis.commandstats().getOrDefault("publish", 0L) >= publishes.requests(), "redis saw each publish");

        // the pause shows in subscriber 2's latency, in the window its backlog arrived in, and in nobody else's there
        WindowResult caughtUp = r.windows().stream().filter(w -> w.endNanos() > paused)
                .max(java.util.Comparator.comparingLong(w -> w.messages().subscribers().get(1).latency().p99())).orElseThrow();
        long lagging = caughtUp.messages().subscribers().get(1).latency().p99();
        assertTrue(lagging >= TimeUnit.MILLISECONDS.toNanos(PAUSE_MILLIS * 8 / 10), "subscriber 2 lagged by the pause: p99 "
                + lagging / 1e6 + " ms");
        for (MessageFigures.Subscriber s : caughtUp.messages().subscribers()) {
            if (s.number() != 2) {
                assertTrue(s.latency().p99() < TimeUnit.MILLISECONDS.toNanos(PAUSE_MILLIS / 2), "window "
                        + caughtUp.number() + ": subscriber " + s.number() + " did not lag: p99 " + s.latency().p99() / 1e6
                        + " ms, against " + lagging / 1e6 + " ms");
            }
        }
        for (WindowResult w : r.windows()) {
            for (MessageFigures.Subscriber s : w.messages().subscribers()) {
                assertTrue(s.latency().count() > 0, "a latency histogram in window " + w.number() + " for subscriber "
                        + s.number());
            }
        }
        assertEquals(text, RunDirectory.open(dir).reportText(), "report DIR makes the same text again");
    }
}
