package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import io.fluxperf.testkit.RedisProcess;
import io.fluxperf.trace.TraceReader;
import io.fluxperf.trace.TraceRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * rpc-perf config files of each generation, written the way rpc-perf's documentation writes them,
 * run against real servers: the servers' own counters show the workload the file describes.
 */
@ExtendWith(RealServers.class)
class RpcPerfConfigsTest {
    @TempDir
    Path dir;

    Path write(String name, String toml) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, toml, StandardCharsets.UTF_8);
        return p;
    }

    static void assertShare(double expected, long part, long whole, String what) {
        double share = (double) part / whole;
        assertTrue(Math.abs(share - expected) <= 0.02, what + ": " + part + " of " + whole + " = " + share
                + ", expected " + expected + " ± 0.02");
    }

    static CliRun ok(String... args) {
        CliRun run = CliRun.of(args);
        assertEquals(0, run.exitCode(), run.out() + run.err());
        String total = run.line("Requests:");
        assertEquals(0, CliRun.field(total, "Error:"), total);
        assertEquals(0, CliRun.field(total, "Timeout:"), total);
        return run;
    }

    // ---- rpc-perf 2.x ----

    @Test
    void rpcPerf2RatedMixAndParameters(MemcachedProcess memcached) throws IOException {
        Path file = write("memcache2.toml", """
                # a mixed workload the way rpc-perf 2's samples write it
                [general]
                threads = 1
                connections = 4
                duration = 2
                windows = 1
                protocol = "memcache"
                tcp-nodelay = true
                ipv4 = true
                ipv6 = true
                database = 0
                request-timeout = 500
                connect-timeout = 1000
                rx-buffer-size = 16384
                tx-buffer-size = 16384

                [[workload]]
                name = "get"
                method = "get"
                rate = 4000
                  [[workload.parameter]]
                  style = "random"
                  size = 6
                  num = 500
                  regenerate = true

                [[workload]]
                name = "set"
                method = "set"
                rate = 1000
                  [[workload.parameter]]
                  style = "random"
                  size = 6
                  num = 500
                  regenerate = true
                  [[workload.parameter]]
                  style = "random"
                  size = 48
                  regenerate = false
                """);
        CliRun run = ok("run", "--config", file.toString(), "-s", memcached.address(), "--no-live");
        assertTrue(run.err().contains("fluxperf: note: " + file + ": general.ipv4 (line 9)"), run.err());
        Map<String, Long> stats = memcached.stats();
        long gets = stats.get("cmd_get");
        long sets = stats.get("cmd_set");
        assertShare(0.8, gets, gets + sets, "get:set 4:1 at memcached");
        long items = stats.get("curr_items");
        assertTrue(items <= 500 && items > 400, "random with num = 500 touches at most 500 keys: " + items);
        Set<String> values = new HashSet<>();
        for (int k = 0; k < 500 && values.size() < 2; k++) {
            byte[] v = memcached.get(String.format("%06d", k));
            if (v != null) {
                assertEquals(48, v.length);
                values.add(new String(v, StandardCharsets.ISO_8859_1));
            }
        }
        assertEquals(1, values.size(), "regenerate = false keeps one value for every key");
    }

    @Test
    void rpcPerf2StaticKeyIsOneKey(MemcachedProcess memcached) throws IOException {
        Path file = write("hotkey2.toml", """
                [[workload]]
                name = "set"
                method = "set"
                rate = 0
                  [[workload.parameter]]
                  style = "static"
                  size = 4
                  seed = 7
                  [[workload.parameter]]
                  style = "random"
                  size = 16
                  regenerate = true

                [[workload]]
                name = "get"
                method = "get"
                rate = 0
                  [[workload.parameter]]
                  style = "static"
                  size = 4
                  seed = 7
                """);
        CliRun run = ok("run", "--config", file.toString(), "-s", memcached.address(), "--requests", "3000", "-d", "30",
                "-w", "1", "--no-live");
        assertEquals(1, memcached.stats().get("curr_items"), "static sends the same key every time");
        assertTrue(memcached.get("0007") != null, "the seed picks the key");
        assertEquals(3000, CliRun.field(run.line("Requests:"), "Requests:"));
    }

    @Test
    void rpcPerf2EvalAndEvalsha(RedisProcess redis) throws IOException {
        Path file = write("eval2.toml", """
                [general]
                threads = 1
                connections = 2
                duration = 30
                windows = 1
                protocol = "redis"
                database = 0

                [[workload]]
                name = "eval"
                method = "eval"
                rate = 0
                script-body = "return redis.call('set', KEYS[1], ARGV[1])"
                  [[workload.parameter]]
                  style = "random"
                  size = 3
                  num = 100
                  regenerate = true
                  [[workload.parameter]]
                  style = "random"
                  size = 8
                  regenerate = true

                [[workload]]
                name = "evalsha"
                method = "evalsha"
                rate = 0
                script-body = "return redis.call('set', KEYS[1], ARGV[1])"
                  [[workload.parameter]]
                  style = "random"
                  size = 3
                  num = 100
                  regenerate = true
                  [[workload.parameter]]
                  style = "random"
                  size = 8
                  regenerate = true
                """);
        ok("run", "--config", file.toString(), "-s", redis.address(), "--requests", "2000", "--no-live");
        Map<String, Long> calls = redis.commandstats();
        assertShare(0.5, calls.getOrDefault("eval", 0L), 2000, "eval at redis");
        assertShare(0.5, calls.getOrDefault("evalsha", 0L), 2000, "evalsha at redis");
        assertTrue(Long.parseLong(redis.infoFields("keyspace").get("db0").replaceAll(".*keys=(\\d+).*", "$1")) > 0,
                "the script set keys");
    }

    // ---- rpc-perf 3.x ----

    @Test
    void rpcPerf3KeyspacesCommandsValuesAndTtl(RedisProcess redis) throws IOException {
        Path file = write("redis3.toml", """
                [general]
                protocol = "redis_resp"
                interval = 30
                windows = 1
                clients = 1
                poolsize = 4
                tcp_nodelay = true
                request_timeout = 500_000
                connect_timeout = 1_000_000
                logging = "info"

                [[keyspace]]
                length = 8
                count = 1000
                weight = 9
                commands = [
                    {action = "get", weight = 4},
                    {action = "set", weight = 1, ttl = 300},
                ]
                values = [
                    {length = 64, weight = 8},
                    {length = 512, weight = 1},
                    {length = 4096, weight = 1},
                ]

                [[keyspace]]
                length = 8
                count = 100
                weight = 1
                commands = [{action = "hset", weight = 1}]
                """);
        Path trace = dir.resolve("trace3");
        ok("run", "--config", file.toString(), "-s", redis.address(), "--requests", "20000", "--trace",
                trace.toString(), "--no-live");
        Map<String, Long> calls = redis.commandstats();
        long get = calls.getOrDefault("get", 0L);
        long set = calls.getOrDefault("set", 0L);
        long hset = calls.getOrDefault("hset", 0L);
        assertEquals(20000, get + set + hset);
        assertShare(0.9, get + set, 20000, "keyspace 0 (weight 9) at redis");
        assertShare(0.1, hset, 20000, "keyspace 1 (weight 1) at redis");
        assertShare(0.8, get, get + set, "get:set 4:1 at redis");
        long ttl = (Long) redis.command("TTL", String.format("%08d", firstSetKey(trace)));
        assertTrue(ttl > 0 && ttl <= 300, "the set's ttl is on the item: " + ttl);
        Map<Integer, Long> sizes = new HashMap<>();
        long sets = 0;
        try (TraceReader reader = TraceReader.open(trace)) {
            TraceRecord r = new TraceRecord();
            while (reader.next(r)) {
                if (!r.warmup() && r.command() == io.fluxperf.engine.request.Command.SET.ordinal()) {
                    sizes.merge(r.valueSize(), 1L, Long::sum);
                    sets++;
                }
            }
        }
        assertEquals(Set.of(64, 512, 4096), sizes.keySet());
        assertShare(0.8, sizes.get(64), sets, "64-byte values (weight 8)");
        assertShare(0.1, sizes.get(512), sets, "512-byte values (weight 1)");
        assertShare(0.1, sizes.get(4096), sets, "4096-byte values (weight 1)");
        // the second keyspace's keys are its own: indexes 1000..1099 of the same length
        assertEquals(1L, redis.command("EXISTS", "00001000"), "keyspace 1 starts after keyspace 0's keys");
    }

    private static long firstSetKey(Path trace) throws IOException {
        try (TraceReader reader = TraceReader.open(trace)) {
            TraceRecord r = new TraceRecord();
            while (reader.next(r)) {
                if (r.command() == io.fluxperf.engine.request.Command.SET.ordinal()) {
                    return Long.parseLong(r.keyText());
                }
            }
        }
        throw new AssertionError("no set in the trace");
    }

    @Test
    void rpcPerf3RateLimitedMemcache(MemcachedProcess memcached) throws IOException {
        Path file = write("memcache3.toml", """
                [general]
                protocol = "memcache"
                interval = 2
                windows = 1
                clients = 1
                poolsize = 4
                request_ratelimit = 5000
                request_distribution = "normal"
                endpoints = ["127.0.0.1:1"]

                [[keyspace]]
                length = 6
                count = 10000
                commands = [
                    {action = "get", weight = 4},
                    {action = "set", weight = 1},
                ]
                values = [{length = 100, weight = 1}]
                """);
        CliRun run = ok("run", "--config", file.toString(), "-s", memcached.address(), "--no-live");
        Map<String, Long> stats = memcached.stats();
        assertShare(0.8, stats.get("cmd_get"), stats.get("cmd_get") + stats.get("cmd_set"), "get:set 4:1");
        long requests = CliRun.field(run.line("Requests:"), "Requests:");
        assertTrue(Math.abs(requests - 10000) <= 100, "5,000/s for 2 s: " + requests);
    }

    // ---- rpc-perf 5.x ----

    static final String REDIS5 = """
            [general]
            protocol = "resp"
            interval = 2
            duration = 2
            admin = "127.0.0.1:9090"
            initial_seed = "5"

            [debug]
            log_level = "info"

            [metrics]
            output = "stats.json"
            format = "json"

            [target]
            endpoints = ["SERVER"]

            [client]
            threads = 1
            poolsize = 4
            concurrency = 1
            connect_timeout = 1000
            request_timeout = 500

            [workload]
            threads = 1

            [workload.ratelimit]
            start = 5000

            [[workload.keyspace]]
            weight = 9
            klen = 8
            nkeys = 1000
            vlen = 32
            vkind = "bytes"
            compression_ratio = 1.0
            ttl = "15m"
            commands = [
                { verb = "get", weight = 4 },
                { verb = "set", weight = 1 },
            ]

            [[workload.keyspace]]
            weight = 1
            klen = 6
            nkeys = 20
            inner_keys_klen = 3
            inner_keys_nkeys = 5
            vkind = "i64"
            commands = [
                { verb = "hset", weight = 1, cardinality = 5 },
                { verb = "hincrby", weight = 1 },
            ]
            """;

    @Test
    void rpcPerf5KeyspacesCardinalityTtlAndCounters(RedisProcess redis) throws IOException {
        Path file = write("redis5.toml", REDIS5.replace("SERVER", redis.address()));
        CliRun run = ok("run", "--config", file.toString(), "--no-live");
        assertTrue(run.err().contains("general.admin (line 5)"), run.err());
        Map<String, Long> calls = redis.commandstats();
        long get = calls.getOrDefault("get", 0L);
        long set = calls.getOrDefault("set", 0L);
        long hset = calls.getOrDefault("hset", 0L);
        long hincrby = calls.getOrDefault("hincrby", 0L);
        long all = get + set + hset + hincrby;
        assertTrue(Math.abs(all - 10000) <= 100, "5,000/s for 2 s at redis: " + all);
        assertShare(0.9, get + set, all, "keyspace 0 (weight 9)");
        assertShare(0.8, get, get + set, "get:set 4:1");
        assertShare(0.5, hset, hset + hincrby, "hset:hincrby 1:1");
        assertEquals(5L, redis.command("HLEN", "000000"), "cardinality 5 over 5 inner keys fills the hash");
        long ttl = (Long) redis.command("TTL", "00000001");
        assertTrue(ttl > 800 && ttl <= 900, "ttl 15m on the set keys: " + ttl);
    }

    @Test
    void convertedConfigSendsTheSameWorkload(RedisProcess a, RedisProcess b) throws IOException {
        Path original = write("redis5.toml", REDIS5.replace("SERVER", a.address()));
        CliRun convert = CliRun.of("convert", original.toString());
        assertEquals(0, convert.exitCode(), convert.err());
        assertTrue(convert.out().contains("# fluxperf config converted from " + original + " (rpc-perf 5.x)"),
                convert.out());
        Path converted = write("converted.toml", convert.out());
        ok("run", "--config", original.toString(), "--no-live");
        ok("run", "--config", converted.toString(), "-s", b.address(), "--no-live");
        Map<String, Long> ca = a.commandstats();
        Map<String, Long> cb = b.commandstats();
        for (String c : List.of("get", "set", "hset", "hincrby")) {
            long x = ca.getOrDefault(c, 0L);
            long y = cb.getOrDefault(c, 0L);
            assertTrue(x > 0 && Math.abs(x - y) <= Math.max(1, x / 100), c + ": " + x + " from the rpc-perf file, "
                    + y + " from its conversion");
        }
    }

    @Test
    void rpcPerf5Memcache(MemcachedProcess memcached) throws IOException {
        Path file = write("memcache5.toml", """
                [general]
                protocol = "memcache"
                interval = 2
                duration = 2

                [target]
                endpoints = ["127.0.0.1:1"]

                [client]
                threads = 1
                poolsize = 2

                [workload.ratelimit]
                start = 4000

                [[workload.keyspace]]
                klen = 6
                nkeys = 500
                vlen = 64
                commands = [
                    { verb = "get", weight = 4 },
                    { verb = "set", weight = 1 },
                ]
                """);
        ok("run", "--config", file.toString(), "-s", memcached.address(), "--no-live");
        Map<String, Long> stats = memcached.stats();
        assertShare(0.8, stats.get("cmd_get"), stats.get("cmd_get") + stats.get("cmd_set"), "get:set 4:1");
    }

    // ---- what fluxperf cannot do ----

    @Test
    void unsupportedProtocolsAndKeysAreOneSentenceAndExit2() throws IOException {
        Path thrift = write("thrift.toml", """
                [general]
                protocol = "thrift"
                threads = 1
                [[workload]]
                method = "get"
                  [[workload.parameter]]
                  size = 1
                """);
        Path ramp = write("ramp.toml", """
                [general]
                protocol = "resp"
                interval = 1
                [target]
                endpoints = ["127.0.0.1:6379"]
                [workload.ratelimit]
                start = 1000
                end = 5000
                step = 1000
                interval = 10
                [[workload.keyspace]]
                klen = 4
                nkeys = 10
                commands = [{ verb = "get" }]
                """);
        for (String[] c : List.of(
                new String[] {thrift.toString(), "general.protocol (line 2): rpc-perf's protocol 'thrift' is not one fluxperf speaks"},
                new String[] {ramp.toString(), "workload.ratelimit.end (line 8): rate ramps are not in fluxperf yet"})) {
            CliRun run = CliRun.of("run", "--config", c[0], "--no-live");
            assertEquals(2, run.exitCode(), run.err());
            assertTrue(run.err().startsWith("fluxperf: " + c[0] + ": " + c[1]), run.err());
            assertEquals(1, run.err().lines().count(), run.err());
            assertTrue(!run.err().contains("Exception") && !run.err().contains("io.fluxperf"), run.err());
            CliRun convert = CliRun.of("convert", c[0]);
            assertEquals(2, convert.exitCode(), convert.err());
            assertEquals(run.err(), convert.err());
        }
        assertTrue(Arrays.asList(CliRun.of("convert", "--help").out().split("\n")).stream()
                .anyMatch(l -> l.contains("fluxperf convert")), "convert --help shows examples");
    }
}
