package io.fluxperf.replay;

import io.fluxperf.engine.metrics.OutcomeCounts;
import io.fluxperf.testkit.MemcachedProcess;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A replay stopped early (Ctrl-C) reports what ran, every request ended once, the reader stopped. */
class InterruptTest {
    @TempDir
    Path dir;

    @Test
    void stopEndsTheReplayWithAReportOfWhatRan() throws Exception {
        Path log = dir.resolve("long.log");
        LogWriter.watch(log, 1000, 30, new boolean[] {true}, 20); // 30 s at 1x
        try (MemcachedProcess target = MemcachedProcess.start()) {
            Replay replay = new Replay(ReplayOptions.builder(log).server(target.address()).live(false).build());
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
            CompletableFuture<ReplayResult> running = CompletableFuture.supplyAsync(() -> replay.run(print, print));
            Thread.sleep(1500);
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
            assertEquals(o.requests(), target.stats().get("cmd_get") + target.stats().get("cmd_set"),
                    "what the report counts is what the server saw");
        }
    }
}
