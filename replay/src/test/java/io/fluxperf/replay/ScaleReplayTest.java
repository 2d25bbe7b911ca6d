package io.fluxperf.replay;

import io.fluxperf.engine.shard.Shard;
import io.fluxperf.testkit.RealServers;
import io.fluxperf.testkit.RedisProcess;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --scale 4} of a MONITOR log captured from a real redis: the target redis counts four times
 * each of the log's commands, and holds the log's keys four times, once in each namespace s1: … s4:
 * (redis' own KEYS). With {@code --loop}, and spread over two agents with {@code --shard}.
 */
@ExtendWith(RealServers.class)
class ScaleReplayTest {
    private static final int SCALE = 4;

    @TempDir
    Path dir;

    /** A log of three clients' sets, gets, appends, incrs and deletes; returns redis' count of each. */
    private Map<String, Long> capture(RedisProcess source, Path log) throws Exception {
        try (RedisProcess.Monitor monitor = source.monitor();
             RedisProcess.Client a = source.client();
             RedisProcess.Client b = source.client();
             RedisProcess.Client c = source.client()) {
            List<RedisProcess.Client> clients = List.of(a, b, c);
            int commands = 0;
            for (int i = 0; i < 60; i++) {
                RedisProcess.Client client = clients.get(i % 3);
                switch (i % 5) {
                    case 0 -> client.command("SET", "key" + i % 17, "value" + i);
                    case 1 -> client.command("GET", "key" + i % 13);
                    case 2 -> client.command("APPEND", "log" + i % 3, "x");
                    case 3 -> client.command("INCR", "counter" + i % 2);
                    default -> client.command("DEL", "key" + i % 11);
                }
                commands++;
            }
            monitor.await(commands, Duration.ofSeconds(10));
            monitor.writeTo(log);
        }
        Map<String, Long> counts = new TreeMap<>(source.commandstats());
        counts.remove("info");
        counts.remove("monitor");
        return counts;
    }

    private static Set<String> keys(RedisProcess redis) {
        try (RedisProcess.Client q = redis.client()) {
            @SuppressWarnings("unchecked")
            List<Object> keys = (List<Object>) q.command("KEYS", "*");
            return keys.stream().map(Object::toString).collect(Collectors.toCollection(TreeSet::new));
        }
    }

    private static Map<String, Long> counts(RedisProcess redis) {
        Map<String, Long> counts = new TreeMap<>(redis.commandstats());
        counts.remove("info");
        counts.remove("keys");
        return counts;
    }

    private static Map<String, Long> times(Map<String, Long> counts, int n) {
        Map<String, Long> out = new TreeMap<>();
        counts.forEach((k, v) -> out.put(k, v * n));
        return out;
    }

    @Test
    void fourCopiesOfEachClientEachInItsOwnKeyNamespace(RedisProcess source, RedisProcess target) throws Exception {
        Path log = dir.resolve("monitor.log");
        Map<String, Long> original = capture(source, log);
        Set<String> originalKeys = keys(source);

        Replays.Run run = Replays.run(ReplayOptions.builder(log).server(target.address()).speed(0).scale(SCALE)
                .live(false).build());
        assertEquals(times(original, SCALE), counts(target), run.out());
        assertEquals(0, run.result().run().total().total().outcomes().error(), run.out());
        Set<String> expectedKeys = new TreeSet<>();
        for (int k = 1; k <= SCALE; k++) {
            for (String key : originalKeys) {
                expectedKeys.add("s" + k + ":" + key);
            }
        }
        assertEquals(expectedKeys, keys(target), "every copy's keys in its namespace, by redis' own KEYS");
        try (RedisProcess.Client q = target.client(); RedisProcess.Client s = source.client()) {
            for (int k = 1; k <= SCALE; k++) {
                assertEquals(s.command("GET", "counter0"), q.command("GET", "s" + k + ":counter0"));
                assertEquals(s.command("GET", "log1"), q.command("GET", "s" + k + ":log1"));
            }
        }
        assertTrue(run.out().contains("Scale: 4 copies of each, keys in s1: … s4:"), run.out());
    }

    @Test
    void scaleWithLoopAndSpreadOverTwoAgents(RedisProcess source, RedisProcess target) throws Exception {
        Path log = dir.resolve("monitor.log");
        Map<String, Long> original = capture(source, log);
        long total = original.values().stream().mapToLong(Long::longValue).sum();
        long[] mine = new long[2];
        for (int i = 0; i < 2; i++) {
            ReplayOptions o = ReplayOptions.builder(log).server(target.address()).speed(0).scale(SCALE).loops(2)
                    .live(false).build();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (PrintStream p = new PrintStream(out, true, StandardCharsets.UTF_8)) {
                ReplayResult r = new Replay(o).sharding(new Shard(i, 2), null).run(p, p);
                mine[i] = r.run().total().total().outcomes().requests();
            }
        }
        assertEquals(times(original, 2 * SCALE), counts(target), "4 copies, 2 loops, over the two agents together");
        assertEquals(2 * SCALE * total, mine[0] + mine[1]);
        assertTrue(mine[0] > 0 && mine[1] > 0, "the copies spread over both agents: " + mine[0] + " + " + mine[1]);
        assertEquals(SCALE, keys(target).stream().map(k -> k.substring(0, k.indexOf(':'))).distinct().count());
    }
}
