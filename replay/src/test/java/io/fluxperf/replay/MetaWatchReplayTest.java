package io.fluxperf.replay;

import io.fluxperf.engine.protocol.ProtocolOptions;
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
 * A {@code watch fetchers mutations} log captured from a real memcached 1.6.18 while meta clients
 * load it (ms, ms ME, mg, quiet mg pipelines ended by mn, md, ma, ma N0 that creates its key)
 * replays with {@code --protocol memcache-meta}, quiet, against a fresh memcached exactly: its
 * cmd_get and cmd_set equal the log's gets and stores. memcached logs a meta command as it logs
 * the text one it does the work of: an ms as a fetch and a store (with its cmd), an mg, md or ma
 * as a fetch, an ma that creates its key as two fetches and an add; the reader drops the fetch
 * inside each store, so the log's gets are its item_get lines less its item_store lines.
 */
@ExtendWith(RealServers.class)
class MetaWatchReplayTest {
    @TempDir
    Path dir;

    @Test
    void aMetaWatchLogReplaysExactly(MemcachedProcess target) throws Exception {
        Path log = dir.resolve("meta-watch.log");
        Map<String, Long> original;
        int sets = 0;
        int adds = 0;
        int gets = 0;
        int deletes = 0;
        int arithmetic = 0;
        int creations = 0;
        try (MemcachedProcess source = MemcachedProcess.start("-t", "2");
             MemcachedWatch watch = new MemcachedWatch(source.port(), "fetchers mutations")) {
            List<Replays.Memcache> clients = new ArrayList<>();
            for (int c = 0; c < 4; c++) {
                clients.add(new Replays.Memcache(source.port()));
            }
            int loggedLines = 0;
            for (int i = 0; i < 320; i++) {
                Replays.Memcache c = clients.get(i % clients.size());
                switch (i % 8) {
                    case 0, 1 -> {
                        String value = "value-" + i;
                        meta(c, "ms key" + (i % 37) + " " + value.length() + " T0\r\n" + value + "\r\n");
                        sets++;
                        loggedLines += 2; // the fetch inside the store, then the store
                    }
                    case 2 -> {
                        meta(c, "ms key" + (i % 53) + " 5 ME\r\nadded\r\n");
                        adds++;
                        loggedLines += 2;
                    }
                    case 3 -> {
                        // a quiet pipeline: one line per key, none for mn
                        meta(c, "mg key" + (i % 37) + " v q\r\nmg key" + (i % 41) + " v q\r\nmg missing" + i + " v q\r\n");
                        gets += 3;
                        loggedLines += 3;
                    }
                    case 4 -> {
                        meta(c, "md key" + (i % 29) + "\r\n");
                        deletes++;
                        loggedLines += 1;
                    }
                    case 5 -> {
                        String counter = "counter" + (i % 11);
                        boolean exists = meta(c, "mg " + counter + "\r\n").startsWith("HD");
                        gets++;
                        loggedLines += 1;
                        meta(c, "ma " + counter + " N0 J1\r\n");
                        if (exists) {
                            arithmetic++;
                            loggedLines += 1;
                        } else {
                            creations++;
                            loggedLines += 3; // two fetches, then the add that creates it
                        }
                    }
                    default -> {
                        meta(c, "mg key" + (i % 45) + " v\r\n");
                        gets++;
                        loggedLines += 1;
                    }
                }
            }
            watch.await(loggedLines, Duration.ofSeconds(10));
            watch.writeTo(log);
            long fetchLines = watch.lines().stream().filter(l -> l.contains(" type=item_get ")).count();
            long storeLines = watch.lines().stream().filter(l -> l.contains(" type=item_store ")).count();
            assertEquals(sets + adds + creations, storeLines, "one store line per ms, one per creating ma");
            assertEquals(sets + adds + gets + deletes + arithmetic + 2L * creations, fetchLines);
            original = source.stats();
            clients.forEach(Replays.Memcache::close);
        }
        assertEquals(sets + adds, original.get("cmd_set"), "the meta sets, as memcached counted them");
        Replays.Run run = Replays.run(ReplayOptions.builder(log).server(target.address()).protocol("memcache-meta")
                .protocolOptions(ProtocolOptions.of("meta-flags", "q")).speed(4).live(false).build());
        Map<String, Long> replayed = target.stats();
        long logGets = gets + deletes + arithmetic + creations; // every fetch but those inside stores
        long logStores = sets + adds + creations;
        assertEquals(logGets, replayed.get("cmd_get"), run.out());
        assertEquals(logStores, replayed.get("cmd_set"), run.out());
        assertEquals(MemcacheLogFormats.WATCH, run.result().format());
        assertEquals("memcache-meta", run.result().protocol());
        assertEquals(0, run.result().badLines(), run.out());
        assertEquals(Map.of("set", (long) sets, "add", (long) adds + creations, "get", logGets), run.result().commands());
        assertEquals(logGets + logStores, run.result().run().total().total().outcomes().requests(), run.out());
        assertEquals(0, run.result().run().total().total().outcomes().error(), run.out());
        assertTrue(run.line("Skipped: ").startsWith("Skipped: " + logStores + " the fetch inside a store"), run.out());
    }

    /** Sends meta commands and mn, and returns the replies before MN (mn logs nothing). */
    private static String meta(Replays.Memcache c, String commands) {
        String reply = c.call(commands + "mn\r\n", "MN\r\n");
        return reply.substring(0, reply.length() - "MN\r\n".length());
    }
}
