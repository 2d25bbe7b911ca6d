package io.fluxperf.engine.protocol.memcache.target;

import io.fluxperf.engine.target.TargetOptions;
import io.fluxperf.engine.target.TargetStats;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Many connections from several threads, each pipelining batches of sets, gets and multi-key
 * gets over a shared key space, against a server with several event loops (so the striped store
 * is shared between loops). Every value is a function of its key, so whatever the interleaving,
 * each value read back can be checked against the key it came under; the server's counters must
 * add up to what was sent.
 */
class MemcacheLoadTest {
    private static final int CLIENT_THREADS = 4;
    private static final int CONNECTIONS_PER_THREAD = 4;
    private static final int ROUNDS = 150;
    private static final int BATCH = 32;
    private static final int KEYS = 500;

    private MemcacheTargetServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void pipelinedLoadFromManyConnectionsReadsBackTheRightValues() throws Exception {
        server = MemcacheTargetServer.start(TargetOptions.builder().threads(2).build());
        AtomicLong sets = new AtomicLong();
        AtomicLong keysRequested = new AtomicLong();
        AtomicLong hits = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(CLIENT_THREADS + 1);
        try {
            List<Future<?>> work = new ArrayList<>();
            for (int t = 0; t < CLIENT_THREADS; t++) {
                long seed = t;
                work.add(pool.submit(() -> {
                    runClient(seed, sets, keysRequested, hits);
                    return null;
                }));
            }
            work.add(pool.submit(() -> {
                bigValueRoundTrip();
                return null;
            }));
            for (Future<?> f : work) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        TargetStats stats = server.stats();
        assertEquals(sets.get() + 1, stats.command("set"));
        assertEquals(keysRequested.get() + 1, stats.keysRequested());
        assertEquals(hits.get() + 1, stats.getHits());
        assertEquals(0, stats.command("error"));
        assertEquals(CLIENT_THREADS * CONNECTIONS_PER_THREAD + 1, stats.totalConnections());
        assertTrue(hits.get() > keysRequested.get() / 2, "most gets should hit: " + hits + " of " + keysRequested);
    }

    /** One client thread: its connections take turns, each sending a whole batch before reading its replies. */
    private void runClient(long seed, AtomicLong sets, AtomicLong keysRequested, AtomicLong hits) {
        Random random = new Random(seed);
        List<TextSession> sessions = new ArrayList<>();
        try {
            for (int c = 0; c < CONNECTIONS_PER_THREAD; c++) {
                sessions.add(new TextSession(server.address()));
            }
            for (int round = 0; round < ROUNDS; round++) {
                for (TextSession s : sessions) {
                    StringBuilder batch = new StringBuilder();
                    List<int[]> expected = new ArrayList<>(); // null entry: a set; else the keys of a get
                    for (int i = 0; i < BATCH; i++) {
                        int kind = random.nextInt(10);
                        if (kind < 4) {
                            int k = random.nextInt(KEYS);
                            String v = value(k);
                            batch.append("set ").append(key(k)).append(' ').append(k).append(" 0 ").append(v.length())
                                    .append("\r\n").append(v).append("\r\n");
                            expected.add(null);
                        } else {
                            int[] ks = new int[kind < 8 ? 1 : 2 + random.nextInt(6)];
                            batch.append(kind == 9 ? "gets" : "get");
                            for (int j = 0; j < ks.length; j++) {
                                ks[j] = random.nextInt(KEYS);
                                batch.append(' ').append(key(ks[j]));
                            }
                            batch.append("\r\n");
                            expected.add(ks);
                        }
                    }
                    s.send(batch.toString());
                    for (int[] ks : expected) {
                        List<String> reply = s.readReply();
                        if (ks == null) {
                            assertEquals(List.of("STORED"), reply);
                            sets.incrementAndGet();
                        } else {
                            keysRequested.addAndGet(ks.length);
                            hits.addAndGet(checkValues(ks, reply));
                        }
                    }
                }
            }
        } finally {
            sessions.forEach(TextSession::close);
        }
    }

    /** Checks a get reply against the keys asked for (in order, misses skipped); returns the hits. */
    private static int checkValues(int[] keys, List<String> reply) {
        assertEquals("END", reply.get(reply.size() - 1), () -> "reply " + reply);
        int line = 0;
        int hits = 0;
        for (int k : keys) {
            if (line < reply.size() - 1 && reply.get(line).startsWith("VALUE " + key(k) + " ")) {
                String[] header = reply.get(line).split(" ");
                assertEquals(Integer.toString(k), header[2], "flags of " + key(k));
                assertEquals(value(k), reply.get(line + 1), () -> "value of " + key(k));
                line += 2;
                hits++;
            }
        }
        assertEquals(reply.size() - 1, line, () -> "unexpected lines in " + reply + " for keys " + Arrays.toString(keys));
        return hits;
    }

    /** A 5 MiB value written and read back on its own connection while the load runs. */
    private void bigValueRoundTrip() {
        byte[] value = new byte[5 << 20];
        new Random(3).nextBytes(value);
        for (int i = 0; i < value.length; i++) {
            if (value[i] == '\r' || value[i] == '\n') {
                value[i] = 'x'; // TextSession reads lines; keep the check simple
            }
        }
        try (TextSession s = new TextSession(server.address())) {
            s.send(("set blob 0 0 " + value.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            s.send(value);
            s.send("\r\n".getBytes(StandardCharsets.US_ASCII));
            assertEquals(List.of("STORED"), s.readReply());
            s.send("get blob\r\n");
            assertEquals("VALUE blob 0 " + value.length, s.readLine());
            byte[] back = s.readBytes(value.length);
            assertTrue(Arrays.equals(value, back), "the big value came back changed");
            assertEquals("", s.readLine());
            assertEquals("END", s.readLine());
        }
    }

    private static String key(int k) {
        return "load:" + k;
    }

    private static String value(int k) {
        String unit = "<" + k + ">";
        return unit.repeat(1 + (k * 37) % 400);
    }
}
