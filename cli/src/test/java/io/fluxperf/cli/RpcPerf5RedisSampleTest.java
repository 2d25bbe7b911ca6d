package io.fluxperf.cli;

import static io.fluxperf.cli.RpcPerfRuns.assertShare;
import static io.fluxperf.cli.RpcPerfRuns.ok;
import static io.fluxperf.cli.RpcPerfRuns.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.testkit.RealServers;
import io.fluxperf.testkit.RedisProcess;
import io.fluxperf.trace.TraceHeader;
import io.fluxperf.trace.TraceReader;
import io.fluxperf.trace.TraceRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file in the shape of rpc-perf 5's own redis sample (written for this test, not copied): five
 * keyspaces, one per command family, with the list verbs (list_fetch, llen, pushes fused with a
 * trim) and the sorted-set verbs (zrange by index and by score, zrank) among them, run against
 * redis-server, whose {@code INFO commandstats}, MONITOR and lists show what the file asks.
 */
@ExtendWith(RealServers.class)
class RpcPerf5RedisSampleTest {
    @TempDir
    Path dir;

    static final String SAMPLE = """
            # one keyspace per command family, as rpc-perf 5's redis sample has them

            [general]
            protocol = "resp"
            interval = 2
            duration = 2
            admin = "127.0.0.1:9090"
            #initial_seed = "0"

            [debug]
            log_level = "info"

            [target]
            endpoints = [
                "SERVER",
            ]

            [client]
            threads = 1
            poolsize = 4
            connect_timeout = 10000
            request_timeout = 1000

            [workload]
            threads = 1

            [workload.ratelimit]
            start = 2_500

            # key-value
            [[workload.keyspace]]
            weight = 1
            klen = 10
            nkeys = 1_000
            vlen = 32
            vkind = "bytes"
            compression_ratio = 1.0
            commands = [
                { verb = "get", weight = 80 },
                { verb = "set", weight = 20 },
                { verb = "delete", weight = 0 },
            ]

            # hashes of counters
            [[workload.keyspace]]
            weight = 1
            klen = 9
            nkeys = 100
            inner_keys_klen = 4
            inner_keys_nkeys = 1_000
            vkind = "i64"
            commands = [
                { verb = "hget", weight = 30 },
                { verb = "hget", weight = 10, cardinality = 5 },
                { verb = "hincrby", weight = 10 },
                { verb = "hgetall", weight = 5 },
                { verb = "hdel", weight = 10 },
                { verb = "hdel", weight = 5, cardinality = 5 },
                { verb = "hset", weight = 20 },
                { verb = "hset", weight = 5, cardinality = 5 },
                { verb = "delete", weight = 5 },
            ]

            # lists
            [[workload.keyspace]]
            weight = 1
            klen = 8
            nkeys = 40
            inner_keys_klen = 4
            inner_keys_nkeys = 1_000
            commands = [
                { verb = "list_fetch", weight = 5 },
                { verb = "llen", weight = 5 },
                { verb = "rpop", weight = 5 },
                { verb = "lpop", weight = 5 },
                { verb = "rpush", weight = 5 },
                { verb = "rpush", weight = 10, truncate = 7 },
                { verb = "lpush", weight = 10, cardinality = 3, truncate = 7 },
                { verb = "delete", weight = 0 },
            ]

            # sorted sets
            [[workload.keyspace]]
            weight = 1
            klen = 7
            nkeys = 50
            inner_keys_klen = 4
            inner_keys_nkeys = 1_000
            commands = [
                { verb = "zadd", weight = 5 },
                { verb = "zadd", weight = 5, cardinality = 5 },
                { verb = "zrange", weight = 5 },
                { verb = "zrange", weight = 5, end = 5 },
                { verb = "zrange", weight = 5, start = 5, end = 10 },
                { verb = "zrange", weight = 5, start = -1, end = 1, by_score = true },
                { verb = "zscore", weight = 5 },
                { verb = "zmscore", weight = 5, cardinality = 5 },
                { verb = "zrem", weight = 2 },
                { verb = "zrem", weight = 2, cardinality = 5 },
                { verb = "delete", weight = 1 },
                { verb = "zrank", weight = 40 },
                { verb = "zincrby", weight = 25 },
            ]

            # sets
            [[workload.keyspace]]
            weight = 1
            klen = 6
            nkeys = 100
            inner_keys_klen = 4
            inner_keys_nkeys = 1_000
            commands = [
                { verb = "sadd", weight = 60 },
                { verb = "sadd", weight = 5, cardinality = 5 },
                { verb = "smembers", weight = 20 },
                { verb = "srem", weight = 5 },
                { verb = "srem", weight = 5, cardinality = 5 },
                { verb = "delete", weight = 5 },
            ]
            """;

    private static long sum(Map<String, Long> calls, String... verbs) {
        long n = 0;
        for (String v : verbs) {
            n += calls.getOrDefault(v, 0L);
        }
        return n;
    }

    @Test
    void theSamplesShapeRunsAndRedisCountsEachVerb(RedisProcess redis) {
        Path file = write(dir, "redis.toml", SAMPLE.replace("SERVER", redis.address()));
        CliRun run;
        List<List<String>> ranges = new ArrayList<>();
        Path trace = dir.resolve("trace");
        try (RedisProcess.Monitor monitor = redis.monitor()) {
            run = ok("run", "--config", file.toString(), "--trace", trace.toString(), "--no-live");
            Map<String, Long> calls = redis.commandstats();
            ranges.addAll(RpcPerfRuns.monitored(monitor, Set.of("ZRANGE", "LRANGE", "LTRIM", "LPUSH", "RPUSH"),
                    sum(calls, "zrange", "lrange", "ltrim", "lpush", "rpush")));
        }
        long requests = CliRun.field(run.line("Requests:"), "Requests:");
        // the shares below hold whether or not a loaded machine keeps up with the rate: each workload's
        // schedule is its share of the rate, and the load sends them in the order of their times
        assertTrue(requests > 1_000, "ratelimit start = 2_500 for 2 s: " + requests);
        Map<String, Long> calls = redis.commandstats();

        // each keyspace has weight 1: a fifth of the requests
        long lists = sum(calls, "lrange", "llen", "rpop", "lpop", "rpush", "lpush");
        assertShare(0.2, lists, requests, "the list keyspace's share");
        // within the lists: list_fetch 5, llen 5, pops 5 + 5, pushes 5 + 10 + 10 (two of them truncating) of 45
        assertShare(5 / 45.0, calls.get("lrange"), lists, "list_fetch (LRANGE) at redis");
        assertShare(5 / 45.0, calls.get("llen"), lists, "llen at redis");
        assertShare(20 / 45.0, calls.get("ltrim"), lists, "an LTRIM with each truncating push");
        assertShare(20 / 25.0, calls.get("ltrim"), sum(calls, "rpush", "lpush"), "LTRIM per push");
        // within the sorted sets (weights 109 without their delete, which shares DEL with others): zrange 20, zrank 40
        long zsets = sum(calls, "zadd", "zrange", "zscore", "zmscore", "zrem", "zrank", "zincrby");
        assertShare(0.2 * 109 / 110, zsets, requests, "the sorted-set keyspace's share");
        assertShare(20 / 109.0, calls.get("zrange"), zsets, "zrange at redis");
        assertShare(40 / 109.0, calls.get("zrank"), zsets, "zrank at redis");

        // the trace names each request's command by its code: as many of each as redis counted
        Map<String, Long> traced = new HashMap<>();
        try (TraceReader reader = TraceReader.open(trace)) {
            TraceHeader header = reader.header();
            TraceRecord r = new TraceRecord();
            while (reader.next(r)) {
                traced.merge(header.commandName(r.command()), 1L, Long::sum);
            }
        }
        for (String verb : List.of("llen", "zrank", "lrange", "zrange", "lpush", "rpush")) {
            assertEquals(calls.get(verb), traced.get(verb), verb + " in the trace");
        }

        long byScore = 0;
        long byIndex = 0;
        for (List<String> w : ranges) {
            switch (w.get(0)) {
                case "ZRANGE" -> {
                    if (w.size() == 5) {
                        assertEquals(List.of("-1", "1", "BYSCORE"), w.subList(2, 5), "by_score = true: " + w);
                        byScore++;
                    } else {
                        assertEquals(4, w.size(), w.toString());
                        assertTrue(Set.of(List.of("0", "-1"), List.of("0", "5"), List.of("5", "10")).contains(w.subList(2, 4)),
                                "zrange's start and end (0 and -1 unless given): " + w);
                        byIndex++;
                    }
                }
                case "LRANGE" -> assertEquals(List.of("0", "-1"), w.subList(2, 4), "list_fetch is LRANGE k 0 -1: " + w);
                case "LTRIM" -> assertTrue(w.subList(2, 4).equals(List.of("0", "6")) || w.subList(2, 4).equals(List.of("-7", "-1")),
                        "truncate = 7 keeps seven elements: " + w);
                case "LPUSH" -> assertEquals(5, w.size(), "cardinality = 3 pushes three elements: " + w);
                default -> {
                }
            }
        }
        assertShare(0.25, byScore, byScore + byIndex, "one zrange of four by score");

    }

    /** Pushes that truncate (and nothing else that grows a list): no list at redis is longer than truncate. */
    @Test
    void truncateKeepsEveryListAtMostThatLong(RedisProcess redis) {
        Path file = write(dir, "lists.toml", """
                [general]
                protocol = "resp"
                interval = 10
                duration = 10

                [target]
                endpoints = ["SERVER"]

                [client]
                poolsize = 2

                [[workload.keyspace]]
                klen = 8
                nkeys = 20
                inner_keys_klen = 4
                inner_keys_nkeys = 1_000
                commands = [
                    { verb = "rpush", weight = 1, truncate = 5 },
                    { verb = "list_push_front", weight = 1, cardinality = 3, truncate = 5 },
                    { verb = "llen", weight = 1 },
                ]
                """.replace("SERVER", redis.address()));
        ok("run", "--config", file.toString(), "--requests", "3000", "--no-live");
        Map<String, Long> calls = redis.commandstats();
        assertEquals(sum(calls, "rpush", "lpush"), calls.get("ltrim"), "one LTRIM per push");
        long longest = 0;
        int lists = 0;
        for (Object key : (List<?>) redis.command("KEYS", "*")) {
            long length = (Long) redis.command("LLEN", (String) key);
            assertTrue(length <= 5, "truncate = 5: " + key + " holds " + length);
            longest = Math.max(longest, length);
            lists++;
        }
        assertEquals(20, lists, "every key a list");
        assertEquals(5, longest, "the pushes reached the truncate");
        // without the trim the same pushes would leave about 3000 * 2/3 * 2 / 20 = 200 elements per list
    }

    /** {@code fluxperf convert} prints the new keys, and its output sends the same commands as the file. */
    @Test
    void theConvertedSampleSendsTheSameCommands(RedisProcess a, RedisProcess b) {
        Path original = write(dir, "redis.toml", SAMPLE.replace("SERVER", a.address()));
        CliRun convert = CliRun.of("convert", original.toString());
        assertEquals(0, convert.exitCode(), convert.err());
        for (String line : List.of("method = \"llen\"", "method = \"zrank\"", "range-start = 0", "range-end = -1",
                "range-start = 5", "range-end = 10", "by-score = true", "truncate = 7")) {
            assertTrue(convert.out().lines().anyMatch(l -> l.startsWith(line)), line + " in:\n" + convert.out());
        }
        Path converted = write(dir, "converted.toml", convert.out());
        // a count of requests, not a time: the same requests whatever the machine's speed in each run
        ok("run", "--config", original.toString(), "--requests", "4000", "--no-live");
        ok("run", "--config", converted.toString(), "-s", b.address(), "--requests", "4000", "--no-live");
        Map<String, Long> ca = a.commandstats();
        Map<String, Long> cb = b.commandstats();
        for (String c : List.of("llen", "zrank", "lrange", "ltrim", "zrange", "lpush", "rpush", "get", "hget", "sadd")) {
            long x = ca.getOrDefault(c, 0L);
            long y = cb.getOrDefault(c, 0L);
            assertTrue(x > 50, c + " went out: " + x);
            assertTrue(Math.abs(x - y) <= Math.max(1, x / 100), c + ": " + x + " from the rpc-perf file, " + y
                    + " from its conversion");
        }
    }

    /** A keyspace's ttl expires its hashes, lists, sets and sorted sets too: an EXPIRE … NX after each write. */
    @Test
    void aKeyspaceTtlIsOnEveryContainerItWrites(RedisProcess redis) {
        Path file = write(dir, "ttl.toml", """
                [general]
                protocol = "resp"
                interval = 10
                duration = 10

                [target]
                endpoints = ["SERVER"]

                [[workload.keyspace]]
                klen = 5
                nkeys = 30
                inner_keys_klen = 3
                inner_keys_nkeys = 100
                vkind = "i64"
                ttl = "10m"
                commands = [{ verb = "hset" }, { verb = "hincrby" }]

                [[workload.keyspace]]
                klen = 6
                nkeys = 30
                inner_keys_klen = 3
                inner_keys_nkeys = 100
                ttl = "10m"
                commands = [{ verb = "lpush", truncate = 4 }, { verb = "rpush" }]

                [[workload.keyspace]]
                klen = 7
                nkeys = 30
                inner_keys_klen = 3
                inner_keys_nkeys = 100
                ttl = "10m"
                commands = [{ verb = "sadd" }]

                [[workload.keyspace]]
                klen = 8
                nkeys = 30
                inner_keys_klen = 3
                inner_keys_nkeys = 100
                ttl = "10m"
                commands = [{ verb = "zadd" }, { verb = "zincrby" }]
                """.replace("SERVER", redis.address()));
        ok("run", "--config", file.toString(), "--requests", "2000", "--no-live");
        Map<String, Long> calls = redis.commandstats();
        assertEquals(sum(calls, "hset", "hincrby", "lpush", "rpush", "sadd", "zadd", "zincrby"), calls.get("expire"),
                "an EXPIRE after each write");
        int keys = 0;
        for (Object key : (List<?>) redis.command("KEYS", "*")) {
            long ttl = (Long) redis.command("TTL", (String) key);
            assertTrue(ttl > 580 && ttl <= 600, "ttl = \"10m\" on " + key + " (" + redis.command("TYPE", (String) key)
                    + "): " + ttl);
            keys++;
        }
        assertTrue(keys > 100, "hashes, lists, sets and sorted sets at redis: " + keys);
    }

    /** rpc-perf 5's other redis verbs: hexists of a field, get_batch as one MGET of its cardinality in keys. */
    @Test
    void hexistsAndGetBatch(RedisProcess redis) {
        Path file = write(dir, "more.toml", """
                [general]
                protocol = "resp"
                interval = 10
                duration = 10

                [target]
                endpoints = ["SERVER"]

                [workload.ratelimit]
                start = 4000

                [[workload.keyspace]]
                weight = 1
                klen = 5
                nkeys = 20
                inner_keys_klen = 2
                inner_keys_nkeys = 10
                commands = [{ verb = "hset", weight = 1 }, { verb = "hexists", weight = 1 }]

                [[workload.keyspace]]
                weight = 1
                klen = 6
                nkeys = 100
                commands = [{ verb = "set", weight = 1 }, { verb = "get_batch", weight = 1, cardinality = 4 }]
                """.replace("SERVER", redis.address()));
        CliRun run;
        List<List<String>> mgets;
        try (RedisProcess.Monitor monitor = redis.monitor()) {
            run = ok("run", "--config", file.toString(), "--requests", "2000", "--no-live");
            mgets = RpcPerfRuns.monitored(monitor, Set.of("MGET"), redis.commandstats().get("mget"));
        }
        Map<String, Long> calls = redis.commandstats();
        assertShare(0.25, calls.get("hexists"), 2000, "hexists at redis");
        assertShare(0.25, calls.get("mget"), 2000, "get_batch as MGET at redis");
        for (List<String> w : mgets) {
            assertEquals(5, w.size(), "cardinality = 4: four keys in one MGET: " + w);
        }
        String hexists = run.line("Workload 1 (ks0-hexists):");
        assertTrue(CliRun.field(hexists, "Ok:") > 0 && CliRun.field(hexists, "Miss:") > 0,
                "hexists finds some fields (ok) and not others (miss): " + hexists);
    }
}
