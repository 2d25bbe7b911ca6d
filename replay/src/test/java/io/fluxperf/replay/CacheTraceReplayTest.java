package io.fluxperf.replay;

import io.fluxperf.replay.cachetrace.CacheTraceFormat;
import io.fluxperf.testkit.CacheTraceFile;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import io.fluxperf.testkit.RedisProcess;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Twitter-format cache trace made in the test, replayed against real servers: each server's own
 * counters equal the trace's operations.
 */
@ExtendWith(RealServers.class)
class CacheTraceReplayTest {
    @TempDir
    Path dir;

    private static Map<String, Long> ops(CacheTraceFile trace) {
        return trace.lines().stream().map(l -> l.split(",")[5])
                .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
    }

    @Test
    void memcachedCountsTheTracesGetsSetsAndDeletes(MemcachedProcess memcached) {
        CacheTraceFile trace = CacheTraceFile.builder().seed(7).seconds(3, 400).keys(300, 1.0).clients(6)
                .ops("get", 70, "set", 20, "delete", 6, "incr", 4).make();
        Path log = trace.writeZstd(dir.resolve("cluster52.0.zst"));
        Replays.Run run = Replays.run(ReplayOptions.builder(log).server(memcached.address()).speed(0).live(false)
                .build());
        Map<String, Long> ops = ops(trace);
        Map<String, Long> stats = memcached.stats();
        assertEquals(CacheTraceFormat.INSTANCE, run.result().format());
        assertEquals(0, run.result().badLines(), run.out());
        assertEquals(ops.get("get"), stats.get("cmd_get"), run.out());
        assertEquals(ops.get("set"), stats.get("cmd_set"), run.out());
        assertEquals(ops.get("delete"), stats.get("delete_hits") + stats.get("delete_misses"), run.out());
        assertEquals(ops, run.result().commands());
        assertEquals(1200L, run.result().run().total().total().outcomes().requests());
        assertTrue(run.out().contains("Note: cache-trace timestamps are whole seconds"), run.out());
        // the keys memcached holds are the trace's, padded to their key size
        List<String> keys = memcached.keys();
        assertTrue(!keys.isEmpty() && keys.stream().allMatch(k -> k.startsWith("ns%3A")), keys.toString());
        Map<String, Integer> sizeOf = trace.lines().stream().map(l -> l.split(","))
                .collect(Collectors.toMap(f -> f[1], f -> Integer.parseInt(f[2]), (a, b) -> a));
        for (String k : keys) {
            k = java.net.URLDecoder.decode(k, java.nio.charset.StandardCharsets.UTF_8); // metadump escapes ':'
            String name = k.replaceAll("~+$", "");
            assertEquals((int) sizeOf.get(name), k.length(), k);
        }
    }

    @Test
    void everyOperationReplaysOnMemcacheAndOnRedisByTheMappingTable(MemcachedProcess memcached, RedisProcess redis) {
        CacheTraceFile trace = CacheTraceFile.builder().seed(3).seconds(2, 300).keys(100, 0.8).clients(3)
                .ops("get", 30, "gets", 10, "set", 20, "add", 8, "replace", 6, "cas", 4, "append", 4, "prepend", 4,
                        "delete", 6, "incr", 4, "decr", 4).make();
        Path log = trace.write(dir.resolve("trace.csv"));
        Map<String, Long> ops = ops(trace);

        Replays.Run mc = Replays.run(ReplayOptions.builder(log).server(memcached.address()).speed(0).live(false).build());
        Map<String, Long> stats = memcached.stats();
        assertEquals(ops, mc.result().commands(), mc.out());
        assertEquals(ops.get("get") + ops.get("gets"), stats.get("cmd_get"));
        assertEquals(ops.get("set") + ops.get("add") + ops.get("replace") + ops.get("cas") + ops.get("append")
                + ops.get("prepend"), stats.get("cmd_set"));
        assertEquals((long) ops.get("cas"), stats.get("cas_misses") + stats.get("cas_hits") + stats.get("cas_badval"));
        assertEquals(600L, mc.result().run().total().total().outcomes().requests());

        Replays.Run rd = Replays.run(ReplayOptions.builder(log).server(redis.address()).protocol("redis").speed(0)
                .live(false).build());
        Map<String, Long> calls = redis.commandstats();
        assertEquals(ops, rd.result().commands(), rd.out());
        assertEquals(ops.get("get") + ops.get("gets"), calls.get("get"), calls.toString());
        assertEquals(ops.get("set") + ops.get("add") + ops.get("replace") + ops.get("cas"), calls.get("set"));
        assertEquals(ops.get("append") + ops.get("prepend"), calls.get("append"), calls + rd.out());
        assertEquals(ops.get("delete"), calls.get("del"));
        assertEquals(ops.get("incr"), calls.get("incr"));
        assertEquals(ops.get("decr"), calls.get("decr"));
        assertEquals(600L, rd.result().run().total().total().outcomes().requests());
    }
}
