package io.fluxperf.replay;

import io.fluxperf.engine.config.PoolOptions;
import io.fluxperf.engine.config.ReadFrom;
import io.fluxperf.engine.config.ServerDistribution;
import io.fluxperf.engine.metrics.OutcomeCounts;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.ServerStats;
import io.fluxperf.engine.pool.KetamaContinuum;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServer;
import io.fluxperf.testkit.RealServers;
import io.fluxperf.testkit.RedisCluster;
import io.fluxperf.testkit.RedisProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Replay to several servers places each command by its key as {@code run} does: to a ketama pool
 * of real memcached servers, each key on the server ketama names; to a real redis Cluster, each
 * key on its slot's node, multi-key commands in one slot (a hash tag) sent and those across slots
 * counted as errors, never sent.
 */
@ExtendWith(RealServers.class)
@Timeout(120)
class PoolReplayTest {
    @TempDir
    Path dir;

    @RealServer
    private static MemcachedProcess a;
    @RealServer
    private static MemcachedProcess b;
    @RealServer
    private static MemcachedProcess c;

    @Test
    void aRawMemcacheStreamGoesToEachKeysKetamaServer() throws Exception {
        StringBuilder stream = new StringBuilder();
        for (int k = 0; k < 300; k++) {
            stream.append("set replayed-").append(k).append(" 0 0 5\r\nvalue\r\n");
        }
        for (int k = 0; k < 300; k += 3) {
            stream.append("get replayed-").append(k).append("\r\n");
        }
        Path log = dir.resolve("stream.txt");
        Files.writeString(log, stream, StandardCharsets.ISO_8859_1);
        List<MemcachedProcess> servers = List.of(a, b, c);
        List<String> pool = servers.stream().map(MemcachedProcess::address).toList();
        Replays.Run run = Replays.run(ReplayOptions.builder(log).format(LogFormats.parse("memcache-ascii"))
                .server(pool.get(0)).pool(PoolOptions.of(pool, ServerDistribution.KETAMA, false, ReadFrom.MASTER))
                .speed(0).live(false).build());
        RunResult r = run.result().run();
        OutcomeCounts o = r.total().total().outcomes();
        assertEquals(400, o.requests(), run.out());
        assertEquals(400, o.ok(), "every set stored, every get a hit: " + run.out());
        for (int s = 0; s < 3; s++) {
            // memcached's own counts, before this test's reads below add to them
            assertEquals(servers.get(s).stats().get("cmd_set") + servers.get(s).stats().get("cmd_get"),
                    server(r, servers.get(s).address()).outcomes().requests(), "server " + s + "'s own counts");
        }
        KetamaContinuum ketama = KetamaContinuum.of(servers.stream()
                .map(m -> new KetamaContinuum.Server("127.0.0.1", m.port(), 1)).toList());
        int[] held = new int[3];
        for (int k = 0; k < 300; k++) {
            String key = "replayed-" + k;
            int expected = ketama.serverOf(md5(key));
            for (int s = 0; s < 3; s++) {
                byte[] value = servers.get(s).get(key);
                if (s == expected) {
                    assertNotNull(value, key + " on server " + s);
                    held[s]++;
                } else {
                    assertNull(value, key + " not on server " + s);
                }
            }
        }
        for (int s = 0; s < 3; s++) {
            assertTrue(held[s] > 50, "a fair share on server " + s + ": " + held[s]);
            assertEquals(held[s], server(r, servers.get(s).address()).outcomes().requests() - gets(r, s, servers),
                    "sets reported for server " + s);
        }
        assertTrue(run.out().contains("Server " + a.address() + ": Requests: "), run.out());
    }

    @Test
    void aMonitorLogReplaysToAClusterSlotBySlot() throws Exception {
        try (RedisCluster cluster = RedisCluster.start(3, 0)) {
            StringBuilder monitor = new StringBuilder("OK\n");
            double t = 1_700_000_000.0;
            for (int k = 0; k < 200; k++) {
                monitor.append(line(t += 0.0001, "SET", "key:" + k, "v" + k));
            }
            for (int k = 0; k < 20; k++) {
                monitor.append(line(t += 0.0001, "MGET", "{tag}" + k, "{tag}" + (k + 1))); // one slot
            }
            for (int k = 0; k < 10; k++) {
                monitor.append(line(t += 0.0001, "MGET", "key:1", "key:2", "key:3")); // three slots
            }
            Path log = dir.resolve("monitor.log");
            Files.writeString(log, monitor, StandardCharsets.ISO_8859_1);
            Replays.Run run = Replays.run(ReplayOptions.builder(log).server(cluster.seed())
                    .pool(PoolOptions.of(List.of(cluster.seed()), ServerDistribution.KETAMA, true, ReadFrom.MASTER))
                    .speed(0).live(false).build());
            OutcomeCounts o = run.result().run().total().total().outcomes();
            assertEquals(230, o.requests(), run.out());
            assertEquals(10, o.error(), "the MGETs across slots are errors, sent to no node: " + run.out());
            assertEquals(220, o.ok() + o.miss(), run.out());
            long mgets = 0;
            long sets = 0;
            for (RedisProcess m : cluster.masters()) {
                mgets += m.commandstats().getOrDefault("mget", 0L);
                sets += m.commandstats().getOrDefault("set", 0L);
            }
            assertEquals(20, mgets, "only the MGETs within one slot reached a node");
            assertEquals(200, sets);
            for (int k = 0; k < 200; k++) {
                String key = "key:" + k;
                RedisProcess owner = cluster.ownerOf(cluster.keyslot(key), cluster.masters().get(0));
                assertEquals(1L, owner.command("EXISTS", key), key + " on the node of its slot");
            }
            assertTrue(run.out().contains("Server (not sent) (keys on several servers): Requests: 10 "), run.out());
            assertTrue(run.out().contains("keys of one request live on different servers or slots"), run.out());
        }
    }

    /** The replayed gets that went to server {@code s}: every third key's. */
    private static long gets(RunResult r, int s, List<MemcachedProcess> servers) throws Exception {
        KetamaContinuum ketama = KetamaContinuum.of(servers.stream()
                .map(m -> new KetamaContinuum.Server("127.0.0.1", m.port(), 1)).toList());
        long n = 0;
        for (int k = 0; k < 300; k += 3) {
            n += ketama.serverOf(md5("replayed-" + k)) == s ? 1 : 0;
        }
        return n;
    }

    private static String line(double time, String... words) {
        StringBuilder b = new StringBuilder(String.format(java.util.Locale.ROOT, "%.6f [0 127.0.0.1:50000]", time));
        for (String w : words) {
            b.append(" \"").append(w).append('"');
        }
        return b.append('\n').toString();
    }

    private static ServerStats server(RunResult r, String name) {
        return r.total().pool().servers().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    private static int md5(String key) throws Exception {
        byte[] d = MessageDigest.getInstance("MD5").digest(key.getBytes(StandardCharsets.US_ASCII));
        return (d[0] & 0xFF) | (d[1] & 0xFF) << 8 | (d[2] & 0xFF) << 16 | (d[3] & 0xFF) << 24;
    }
}
