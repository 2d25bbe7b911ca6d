package io.fluxperf.replay;

import io.fluxperf.engine.protocol.memcache.log.MemcacheLogFormats;
import io.fluxperf.replay.testkit.MemcachedWatch;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A {@code watch fetchers mutations} log captured from a real memcached while a known workload
 * runs replays against a fresh memcached with the same get and set counts, by memcached's own
 * {@code stats}, read by one thread or by two ({@code --reader-threads 2}).
 */
@ExtendWith(RealServers.class)
class MemcacheWatchReplayTest {
    @TempDir
    Path dir;

    @Test
    void capturedWatchLogReplaysWithTheSameGetAndSetCounts(MemcachedProcess target) throws Exception {
        Path log = dir.resolve("watch.log");
        Map<String, Long> original;
        // two worker threads, so lines can come out of gid order
        try (MemcachedProcess source = MemcachedProcess.start("-t", "2");
             MemcachedWatch watch = new MemcachedWatch(source.port(), "fetchers mutations")) {
            List<Replays.Memcache> clients = new ArrayList<>();
            for (int c = 0; c < 4; c++) {
                clients.add(new Replays.Memcache(source.port()));
            }
            int loggedLines = 0;
            for (int i = 0; i < 400; i++) {
                Replays.Memcache c = clients.get(i % clients.size());
                switch (i % 8) {
                    case 0, 1 -> {
                        c.store("set", "key" + (i % 37), "value-" + i);
                        loggedLines += 2; // the fetch inside the store, then the store
                    }
                    case 2 -> {
                        c.store("add", "key" + (i % 53), "added");
                        loggedLines += 2;
                    }
                    case 3 -> {
                        c.get("key" + (i % 37) + " key" + (i % 41) + " missing" + i); // a multi-get: one line per key
                        loggedLines += 3;
                    }
                    default -> {
                        c.get("key" + (i % 45));
                        loggedLines += 1;
                    }
                }
            }
            watch.await(loggedLines, Duration.ofSeconds(10));
            watch.writeTo(log);
            original = source.stats();
            clients.forEach(Replays.Memcache::close);
        }
        Replays.Run run = Replays.run(ReplayOptions.builder(log).server(target.address()).speed(4).live(false).build());
        Map<String, Long> replayed = target.stats();
        assertEquals(original.get("cmd_get"), replayed.get("cmd_get"), run.out());
        assertEquals(original.get("cmd_set"), replayed.get("cmd_set"), run.out());
        assertEquals(MemcacheLogFormats.WATCH, run.result().format());
        assertEquals(0, run.result().badLines(), run.out());
        assertEquals(Map.of("set", 100L, "get", 350L, "add", 50L), run.result().commands());
        assertEquals(500L, run.result().run().total().total().outcomes().requests());
        // one workload per command, numbered in the order the log first shows them
        assertTrue(run.out().matches("(?s).*Workload \\d \\(set\\): Requests: 100 .*"), run.out());
        assertTrue(run.out().matches("(?s).*Workload \\d \\(add\\): Requests: 50 .*"), run.out());
        assertTrue(run.out().matches("(?s).*Workload \\d \\(get\\): Requests: 350 .*"), run.out());
        assertTrue(run.line("Skipped: ").startsWith("Skipped: 150 the fetch inside a store"), run.out());
        assertTrue(run.line("Send lag: ").matches("Send lag: p50: \\d+ ns p99: \\d+ ns max: \\d+ ns.*"), run.out());
        assertTrue(run.line("Duration: ").startsWith("Duration: original "), run.out());

        // read by two threads (SplitLogReader), the fetches inside stores are dropped as the replay's
        // read-ahead holds them, as one reader drops them: the same commands reach memcached again
        Replays.Run split = Replays.run(ReplayOptions.builder(log).server(target.address()).speed(4).live(false)
                .readerThreads(2).build());
        Map<String, Long> twice = target.stats();
        assertEquals(original.get("cmd_get"), twice.get("cmd_get") - replayed.get("cmd_get"), split.out());
        assertEquals(original.get("cmd_set"), twice.get("cmd_set") - replayed.get("cmd_set"), split.out());
        assertEquals(run.result().commands(), split.result().commands(), split.out());
        assertEquals(run.line("Skipped: "), split.line("Skipped: "), split.out());
    }
}
