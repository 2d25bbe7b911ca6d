package io.fluxperf.replay;

import io.fluxperf.engine.metrics.OutcomeCounts;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A replay stopped early (Ctrl-C) reports what ran, every request ended once, the reader stopped. */
@ExtendWith(RealServers.class)
class InterruptTest {
    @TempDir
    Path dir;

    @Test
    void stopEndsTheReplayWithAReportOfWhatRan(MemcachedProcess target) throws Exception {
        Path log = dir.resolve("long.log");
        LogWriter.watch(log, 1000, 30, new boolean[] {true}, 20); // 30 s at 1x
        Replay replay = new Replay(ReplayOptions.builder(log).server(target.address()).live(false).build());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
        CompletableFuture<ReplayResult> running = CompletableFuture.supplyAsync(() -> replay.run(print, print));
        // stopped once the target has served a second of the log (1,000 commands at 1x), not after a guessed time
        await("the replay under way").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20))
                .until(() -> served(target) >= 1000);
        long stoppedAt = System.nanoTime();
        replay.requestStop();
        ReplayResult result = running.get(10, TimeUnit.SECONDS);
        String text = out.toString(StandardCharsets.UTF_8);
        assertTrue(System.nanoTime() - stoppedAt < TimeUnit.SECONDS.toNanos(3), "stopped promptly");
        assertTrue(result.run().interrupted(), text);
        assertTrue(text.contains("Stopped: interrupted (Ctrl-C); the report covers what ran"), text);
        OutcomeCounts o = result.run().total().total().outcomes();
        assertEquals(o.requests(), o.ok() + o.miss() + o.error() + o.timeout() + o.closed());
        assertTrue(o.requests() > 500 && o.requests() < 10_000, text);
        assertEquals(o.requests(), served(target), "what the report counts is what the server saw");
        // the commands the reader had dealt ahead into the lanes, unsent at the stop, are not replayed (issue 46)
        assertEquals(o.requests(), result.replayed(), "replayed counts what was sent: " + result.commands());
        String lines = text.lines().filter(l -> l.startsWith("Lines:")).findFirst().orElseThrow();
        assertTrue(lines.contains(" replayed " + o.requests() + " "), lines + "\n" + text);
    }

    /** The gets and sets memcached has answered. */
    private static long served(MemcachedProcess memcached) {
        Map<String, Long> stats = memcached.stats();
        return stats.get("cmd_get") + stats.get("cmd_set");
    }
}
