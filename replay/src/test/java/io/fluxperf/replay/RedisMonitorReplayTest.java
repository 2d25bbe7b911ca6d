package io.fluxperf.replay;

import io.fluxperf.engine.protocol.resp.log.RedisMonitorFormat;
import io.fluxperf.testkit.RealServers;
import io.fluxperf.testkit.RedisProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A MONITOR log captured from a real redis-server while a known workload runs (values with spaces,
 * quotes, newlines and bytes that are not UTF-8, a script) replays against a fresh redis-server:
 * the target's own INFO commandstats counts match the log's command counts exactly, and every
 * value reads back byte for byte.
 */
@ExtendWith(RealServers.class)
class RedisMonitorReplayTest {
    @TempDir
    Path dir;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** A value as the test client sends it: its bytes, one char each (ISO-8859-1 is byte for byte). */
    private static String raw(byte[] bytes) {
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    /** The bytes of a bulk reply (a String, byte for byte), or null for a nil reply. */
    private static byte[] bytes(Object reply) {
        return reply instanceof String s ? s.getBytes(StandardCharsets.ISO_8859_1) : null;
    }

    private static List<byte[]> values() {
        List<byte[]> v = new ArrayList<>();
        v.add(b("hello world"));
        v.add(b("say \"hi\" and \\\"escape\\\""));
        v.add(b("line1\nline2\r\nend\ttab"));
        v.add(b(""));
        v.add(b("\\x41 is not A"));
        v.add(b("caf\u00e9 \u2603"));
        v.add(new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1, 7, 8, 0x1b, (byte) 0x80, '"', ' '});
        byte[] all = new byte[256];
        for (int i = 0; i < 256; i++) {
            all[i] = (byte) i;
        }
        v.add(all);
        return v;
    }

    @Test
    void capturedMonitorLogReplaysExactly(RedisProcess source, RedisProcess target) throws Exception {
        Path log = dir.resolve("monitor.log");
        List<byte[]> values = values();
        Map<String, byte[]> strings = new TreeMap<>();
        try (RedisProcess.Monitor monitor = source.monitor();
             RedisProcess.Client a = source.client();
             RedisProcess.Client c = source.client()) {
            int commands = 0;
            for (int round = 0; round < 5; round++) {
                for (int i = 0; i < values.size(); i++) {
                    RedisProcess.Client client = i % 2 == 0 ? a : c;
                    String key = "k " + i + ":\"" + round % 2;
                    client.command("SET", key, raw(values.get(i)));
                    client.command("GET", key);
                    client.command("APPEND", "app" + i, raw(values.get(i)));
                    client.command("HSET", "h" + i, "f\n" + round, raw(values.get(i)));
                    client.command("RPUSH", "list", raw(values.get(i)));
                    commands += 5;
                }
                a.command("MGET", "k 0:\"0", "k 1:\"1", "nothing");
                a.command("INCR", "counter");
                c.command("INCRBY", "counter", "5");
                a.command("SET", "ttl", "v", "EX", "1000");
                c.command("DEL", "k 7:\"1");
                a.command("EXISTS", "k 7:\"1", "k 0:\"0");
                c.command("SADD", "set", raw(values.get(round)));
                a.command("EVAL", "return redis.call('SET', KEYS[1], ARGV[1])", "1", "lua\"key", raw(values.get(round)));
                commands += 9; // the EVAL shows as two lines: EVAL, then the SET it ran ([0 lua])
            }
            List<String> lines = monitor.await(commands, Duration.ofSeconds(10));
            assertEquals(commands, lines.size());
            monitor.writeTo(log);
            try (RedisProcess.Client q = source.client()) {
                for (int i = 0; i < values.size(); i++) {
                    for (int r = 0; r < 2; r++) {
                        String key = "k " + i + ":\"" + r;
                        strings.put(key, bytes(q.command("GET", key)));
                    }
                    strings.put("app" + i, bytes(q.command("GET", "app" + i)));
                }
                strings.put("lua\"key", bytes(q.command("GET", "lua\"key")));
            }
        }
        assertTrue(Files.readString(log, StandardCharsets.ISO_8859_1).contains("\\xff\\xfe\\x00\\x01\\a\\b\\x1b\\x80\\\" "),
                "the capture holds escaped bytes");
        Map<String, Long> logged = new TreeMap<>();
        for (String line : Files.readAllLines(log, StandardCharsets.ISO_8859_1)) {
            if (line.equals("OK")) {
                continue;
            }
            int q = line.indexOf("] \"") + 3;
            String verb = line.substring(q, line.indexOf('"', q)).toLowerCase(Locale.ROOT);
            logged.merge(verb, 1L, Long::sum);
        }

        Replays.Run run = Replays.run(ReplayOptions.builder(log).server(target.address()).live(false).build());
        Map<String, Long> stats = new TreeMap<>(target.commandstats());
        stats.remove("info");
        assertEquals(logged, stats, run.out());
        assertEquals(0, run.result().badLines(), run.out());
        assertEquals(5L, run.result().skipped().get("run inside a script (its EVAL or FCALL runs it again)"), run.out());
        assertEquals(RedisMonitorFormat.INSTANCE, run.result().format());
        assertEquals("redis", run.result().protocol());
        assertEquals(0, run.result().run().total().total().outcomes().error(), run.out());
        try (RedisProcess.Client q = target.client()) {
            for (Map.Entry<String, byte[]> e : strings.entrySet()) {
                assertArrayEquals(e.getValue(), bytes(q.command("GET", e.getKey())), e.getKey());
            }
            @SuppressWarnings("unchecked")
            List<Object> list = (List<Object>) q.command("LRANGE", "list", "0", "-1");
            assertEquals(5 * values.size(), list.size());
            // two clients take turns on one list: a key keeps the log's order across clients (AffinityKeyOrderTest)
            for (int i = 0; i < list.size(); i++) {
                assertArrayEquals(values.get(i % values.size()), bytes(list.get(i)), "list[" + i + "]");
            }
            assertArrayEquals(values.get(7), bytes(q.command("HGET", "h7", "f\n4")));
            assertEquals("30", q.command("GET", "counter"));
        }
        assertTrue(run.out().contains("Workload 0 (set): Requests: "), run.out());
    }
}
