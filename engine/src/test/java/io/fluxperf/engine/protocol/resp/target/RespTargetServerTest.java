package io.fluxperf.engine.protocol.resp.target;

import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.engine.target.TargetOptions;
import io.fluxperf.engine.target.TargetServer;
import io.fluxperf.engine.target.TargetStats;
import io.fluxperf.testkit.ExternalServer;
import io.fluxperf.testkit.RedisProcess;
import io.fluxperf.testkit.RedisProcess.Client;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What only the embedded redis server has: its memory bound, expiry, test knobs, statistics, and tools that connect to it. */
class RespTargetServerTest {
    private RespTargetServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private Client client() {
        return Client.connect(server.address().getPort());
    }

    @Test
    void isRegisteredAsTheRedisTarget() {
        try (TargetServer s = Protocols.startTarget("redis", TargetOptions.defaults())) {
            assertTrue(Protocols.withTarget().contains("redis"));
            assertTrue(s.describe().startsWith("embedded redis on 127.0.0.1:"), s.describe());
            try (Client c = Client.connect(s.address().getPort())) {
                assertEquals(new RedisProcess.Simple("PONG"), c.command("PING"));
            }
        }
    }

    @Test
    void evictsLeastRecentlyUsedKeysBeyondItsMemoryBound() {
        long limit = 1 << 20;
        server = RespTargetServer.start(TargetOptions.builder().memoryLimitBytes(limit).build());
        String value = "v".repeat(1000);
        try (Client c = client()) {
            List<String[]> batch = new ArrayList<>();
            for (int i = 0; i < 5000; i++) {
                batch.add(new String[] {"SET", "key:" + i, value});
                if (batch.size() == 500) {
                    c.pipeline(batch);
                    batch.clear();
                }
            }
            c.pipeline(batch);
            long keys = (long) c.command("DBSIZE");
            assertTrue(keys < 1100 && keys > 800, "about 1 MiB / ~1.1 KB per key: " + keys);
            Map<String, String> stats = Client.fields(c.info("stats"));
            assertEquals(5000 - keys, Long.parseLong(stats.get("evicted_keys")));
            assertTrue(Long.parseLong(Client.fields(c.info("memory")).get("used_memory")) <= limit);
            assertEquals(value, c.command("GET", "key:4999"), "the newest key stays");
            assertEquals(RedisProcess.Nil.NIL, c.command("GET", "key:1"), "the oldest keys go first");
            // a container counts its elements
            for (int i = 0; i < 500; i++) {
                c.command("RPUSH", "list", value);
            }
            long length = ((List<?>) c.command("LRANGE", "list", "0", "-1")).size();
            assertEquals(500, length);
            assertTrue((long) c.command("DBSIZE") < keys, "the list pushed other keys out");
            Object tooBig = c.command("SET", "huge", "x".repeat((int) limit));
            assertEquals(new RedisProcess.Err("OOM command not allowed when used memory > 'maxmemory'."), tooBig);
        }
        TargetStats stats = server.stats();
        assertTrue(stats.evictions() > 0);
        assertTrue(stats.bytesStored() <= limit);
    }

    @Test
    void keysExpireAndCountAsExpired() throws Exception {
        server = RespTargetServer.start(TargetOptions.defaults());
        try (Client c = client()) {
            c.command("SET", "short", "v", "PX", "50");
            c.command("HSET", "h", "f", "v");
            c.command("PEXPIRE", "h", "50"); // not implemented: an error, h stays
            c.command("EXPIRE", "h", "1");
            assertEquals("v", c.command("GET", "short"));
            // read until gone: every read before the expiry is a hit, so the misses below stay exact
            await("short expired").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(10))
                    .until(() -> c.command("GET", "short"), RedisProcess.Nil.NIL::equals);
            assertEquals(-2L, c.command("TTL", "short"));
            await("h expired").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50))
                    .until(() -> c.command("HGETALL", "h"), List.of()::equals);
            assertEquals("2", Client.fields(c.info("stats")).get("expired_keys"));
            assertEquals("3", Client.fields(c.info("stats")).get("keyspace_misses"));
        }
    }

    @Test
    void bigValuesAndPipelinesSplitAnywhere() {
        server = RespTargetServer.start(TargetOptions.defaults());
        String big = "b".repeat(3_000_000);
        try (Client c = client()) {
            byte[] set = Client.encode("SET", "big", big);
            for (int i = 0; i < set.length; i += 65_521) {
                c.send(java.util.Arrays.copyOfRange(set, i, Math.min(set.length, i + 65_521)));
            }
            assertEquals(new RedisProcess.Simple("OK"), c.read());
            assertEquals(big, c.command("GET", "big"));
            List<String[]> mixed = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                mixed.add(new String[] {"INCR", "n"});
                mixed.add(new String[] {"LPUSH", "l", Integer.toString(i)});
            }
            List<Object> replies = c.pipeline(mixed);
            assertEquals(1000L, replies.get(replies.size() - 2));
            assertEquals(1000L, replies.get(replies.size() - 1));
        }
    }

    @Test
    void requirePassGuardsEveryCommand() {
        server = RespTargetServer.start(TargetOptions.defaults(), "pw");
        assertTrue(server.describe().contains("password required"));
        try (Client c = client()) {
            assertEquals(new RedisProcess.Err("NOAUTH Authentication required."), c.command("GET", "k"));
            assertEquals(new RedisProcess.Err("WRONGPASS invalid username-password pair or user is disabled."),
                    c.command("AUTH", "nope"));
            assertEquals(new RedisProcess.Err("WRONGPASS invalid username-password pair or user is disabled."),
                    c.command("AUTH", "bob", "pw"));
            assertEquals(new RedisProcess.Simple("OK"), c.command("AUTH", "default", "pw"));
            assertEquals(RedisProcess.Nil.NIL, c.command("GET", "k"));
        }
        try (Client c = client()) {
            c.send("*11\r\n".getBytes(StandardCharsets.US_ASCII));
            assertEquals(new RedisProcess.Err("ERR Protocol error: unauthenticated multibulk length"), c.read());
            assertTrue(c.closedByServer());
        }
    }

    @Test
    void replyDelayKnobHoldsEveryReply() {
        server = RespTargetServer.start(TargetOptions.builder().responseDelay(Duration.ofMillis(30)).build());
        assertTrue(server.describe().contains("reply delay 30000 us"), server.describe());
        try (Client c = client()) {
            c.command("PING");
            long start = System.nanoTime();
            c.command("PING");
            long tookMillis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(tookMillis >= 30 && tookMillis < 1000, "took " + tookMillis + " ms");
        }
    }

    @Test
    void targetStatsCountCommandsHitsAndBytes() {
        server = RespTargetServer.start(TargetOptions.defaults());
        try (Client c = client()) {
            c.command("SET", "a", "1");
            c.command("GET", "a");
            c.command("GET", "b");
            c.command("MGET", "a", "b", "c");
            c.command("NOSUCH");
            TargetStats s = server.stats();
            assertEquals(1, s.command("set"));
            assertEquals(2, s.command("get"));
            assertEquals(1, s.command("mget"));
            assertEquals(1, s.command("error"));
            assertEquals(2, s.getHits());
            assertEquals(3, s.getMisses());
            assertEquals(1, s.items());
            assertEquals(1, s.currentConnections());
            assertTrue(s.bytesIn() > 50 && s.bytesOut() > 20);
        }
    }

    @Test
    void redisCliAndRedisBenchmarkWorkAgainstIt() throws Exception {
        server = RespTargetServer.start(TargetOptions.defaults());
        String port = Integer.toString(server.address().getPort());
        String ping = run(List.of(ExternalServer.executable("redis-cli"), "-p", port, "PING"));
        assertEquals("PONG", ping.trim());
        String info = run(List.of(ExternalServer.executable("redis-cli"), "-p", port, "-3", "HELLO", "3"));
        assertTrue(info.contains("standalone"), info);
        String bench = run(List.of(ExternalServer.executable("redis-benchmark"), "-p", port, "-t", "set,get,lpush,lpop,sadd,hset,zadd",
                "-n", "2000", "-c", "4", "-P", "4", "-q"));
        assertFalse(bench.contains("WARNING"), bench);
        assertFalse(bench.contains("ERR"), bench);
        assertTrue(bench.contains("GET:") && bench.contains("ZADD:"), bench);
        try (Client c = client()) {
            assertNotNull(c.command("GET", "key:__rand_int__"), "redis-benchmark's key");
            assertTrue(c.commandstats().get("get") >= 2000);
        }
    }

    private static String run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "timed out: " + command);
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), out);
        return out;
    }
}
