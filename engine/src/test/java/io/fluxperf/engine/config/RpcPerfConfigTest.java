package io.fluxperf.engine.config;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.request.Command;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** rpc-perf's three config generations read as fluxperf runs, key by key, and converted. */
class RpcPerfConfigTest {
    @TempDir
    Path dir;

    static final String V2 = """
            [general]
            threads = 2
            connections = 3
            duration = 7
            windows = 4
            protocol = "redis"
            tcp-nodelay = true
            ipv4 = true
            ipv6 = false
            database = 2
            request-timeout = 250
            connect-timeout = 800
            rx-buffer-size = 8192
            tx-buffer-size = 8192
            warmup = 90.0

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
              size = 32
              regenerate = false

            [[workload]]
            name = "hot"
            method = "set"
            rate = 10
              [[workload.parameter]]
              style = "static"
              size = 3
              seed = 42
              [[workload.parameter]]
              style = "random"
              size = 16
              regenerate = true

            [[workload]]
            name = "script"
            method = "eval"
            rate = 5
            script-body = "return redis.call('set', KEYS[1], ARGV[1])"
              [[workload.parameter]]
              style = "static"
              size = 4
            """;

    static final String V3 = """
            [general]
            protocol = "memcache"
            interval = 3
            windows = 2
            clients = 2
            poolsize = 5
            tcp_nodelay = true
            request_timeout = 150_000
            connect_timeout = 900_000
            request_ratelimit = 10_000
            request_distribution = "uniform"
            connect_ratelimit = 100
            warmup_hitrate = 0.9
            waterfall = "waterfall.png"
            endpoints = ["127.0.0.1:11211"]

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
            commands = [{action = "get", weight = 1}]
            """;

    static final String V5 = """
            [general]
            protocol = "resp"
            interval = 2
            duration = 5
            admin = "127.0.0.1:9090"
            initial_seed = "12"

            [metrics]
            output = "stats.json"
            format = "json"

            [debug]
            log_level = "info"

            [target]
            endpoints = ["redis://127.0.0.1:6390"]

            [client]
            threads = 2
            poolsize = 5
            concurrency = 2
            connect_timeout = 1000
            request_timeout = 300

            [workload]
            threads = 1

            [workload.ratelimit]
            start = 5000

            [[workload.keyspace]]
            weight = 1
            klen = 10
            nkeys = 1000
            vlen = 128
            vkind = "bytes"
            compression_ratio = 4.0
            ttl = "15m"
            commands = [
                { verb = "get", weight = 80 },
                { verb = "set", weight = 20 },
            ]

            [[workload.keyspace]]
            weight = 1
            klen = 10
            nkeys = 100
            inner_keys_klen = 4
            inner_keys_nkeys = 50
            vkind = "i64"
            commands = [
                { verb = "hset", weight = 1, cardinality = 5 },
                { verb = "hincrby", weight = 1 },
                { verb = "dictionary_get", weight = 2 },
            ]
            """;

    Path write(String name, String toml) {
        Path p = dir.resolve(name);
        try {
            Files.writeString(p, toml, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return p;
    }

    RunConfig resolve(Path p, Consumer<RunSettings> set, List<String> notes) {
        RunSettings s = new RunSettings();
        s.config = p;
        set.accept(s);
        return ConfigResolver.resolve(s.toFlags(), notes::add);
    }

    RunConfig resolve(String toml) {
        return resolve(write("rpc.toml", toml), s -> { }, new ArrayList<>());
    }

    String error(String toml) {
        Path p = write("rpc.toml", toml);
        return assertThrows(UserError.class, () -> resolve(p, s -> { }, new ArrayList<>())).getMessage();
    }

    WorkloadConfig workload(RunConfig c, String name) {
        return c.workloads().stream().filter(w -> w.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void detectsEachGenerationByItsShape() {
        assertEquals(RpcPerfFormat.RPC_PERF_2, RpcPerfFormat.detect(TomlConfigFile.parse("a", V2.getBytes())));
        assertEquals(RpcPerfFormat.RPC_PERF_3, RpcPerfFormat.detect(TomlConfigFile.parse("a", V3.getBytes())));
        assertEquals(RpcPerfFormat.RPC_PERF_5, RpcPerfFormat.detect(TomlConfigFile.parse("a", V5.getBytes())));
        String own = "[general]\nthreads = 2\nwarmup = 5\n[[workload]]\nmethod = \"get\"\n";
        assertEquals(RpcPerfFormat.FLUXPERF, RpcPerfFormat.detect(TomlConfigFile.parse("a", own.getBytes())));
        String bare2 = "[[workload]]\nmethod = \"get\"\nrate = 0\n  [[workload.parameter]]\n  style = \"static\"\n";
        assertEquals(RpcPerfFormat.RPC_PERF_2, RpcPerfFormat.detect(TomlConfigFile.parse("a", bare2.getBytes())));
        String warmups2 = "[[warmup]]\nmethod = \"set\"\n[[workload]]\nmethod = \"get\"\n";
        assertEquals(RpcPerfFormat.RPC_PERF_2, RpcPerfFormat.detect(TomlConfigFile.parse("a", warmups2.getBytes())));
        String ramp5 = "[general]\nprotocol = \"resp\"\n[workload.ratelimit]\nstart = 5\n";
        assertEquals(RpcPerfFormat.RPC_PERF_5, RpcPerfFormat.detect(TomlConfigFile.parse("a", ramp5.getBytes())));
        // fluxperf's own mistakes are fluxperf's: keys spelled as rpc-perf spells them, a float warm-up,
        // a [workload] with single brackets all keep fluxperf's messages
        for (String mistake : List.of("[general]\nwarmup = 90.0\n[[workload]]\nmethod = \"get\"\n",
                "[general]\ntcp_nodelay = true\nrequest_timeout = 5\n",
                "[general]\nrequest-timeout = 5\n[[workload]]\nmethod = \"get\"\n",
                "[workload]\nmethod = \"get\"\nkeyspace = 5\n",
                "[workload]\nthreads = 1\n")) {
            assertEquals(RpcPerfFormat.FLUXPERF, RpcPerfFormat.detect(TomlConfigFile.parse("a", mistake.getBytes())), mistake);
        }
    }

    @Test
    void rpcPerf2GeneralKeysAndParameters() {
        List<String> notes = new ArrayList<>();
        String e = assertThrows(UserError.class, () -> resolve(write("v2.toml", V2), s -> { }, notes)).getMessage();
        assertEquals(dir.resolve("v2.toml") + ": workload[3].method (line 56): the embedded redis target does not"
                + " answer eval; give a server with -s HOST:PORT", e, "rpc-perf 2 takes the server from -s");
        RunConfig c = resolve(write("v2.toml", V2), s -> s.server = "127.0.0.1:6379", notes);
        assertEquals("redis", c.protocol());
        assertEquals(2, c.threads());
        assertEquals(3, c.connections());
        assertEquals(Duration.ofSeconds(7), c.duration());
        assertEquals(4, c.windows());
        assertTrue(c.tcpNoDelay());
        assertEquals(Duration.ofMillis(250), c.timeout());
        assertEquals(Duration.ofMillis(800), c.connectTimeout());
        assertEquals(90.0, c.warmupHitrate());
        assertEquals(ConfigResolver.DEFAULT_HITRATE_WARMUP_BOUND, c.warmup());
        assertEquals("2", c.protocolOptions().all("db").get(0).text());
        WorkloadConfig get = workload(c, "get");
        assertEquals(Command.GET, get.method());
        assertEquals(4000, get.rate());
        assertEquals(500, get.keyspace().count());
        assertEquals(6, get.keyspace().keyLength());
        WorkloadConfig set = workload(c, "set");
        assertEquals(32, set.bytes().max());
        assertEquals(WorkloadShape.ValueMode.FIXED, set.shape().values(), "random, regenerate = false: one value");
        WorkloadConfig hot = workload(c, "hot");
        assertEquals(1, hot.keyspace().count(), "static: the same key every time");
        assertEquals(42, hot.shape().keyOffset(), "the seed picks the key");
        assertEquals(WorkloadShape.ValueMode.FRESH, hot.shape().values());
        WorkloadConfig script = workload(c, "script");
        assertEquals(Command.EVAL, script.method());
        assertEquals("return redis.call('set', KEYS[1], ARGV[1])", script.shape().script());
        String all = String.join("\n", notes);
        assertTrue(all.contains("v2.toml: general.ipv4 (line 8)"), all);
        assertTrue(all.contains("general.rx-buffer-size (line 13)"), all);
    }

    @Test
    void rpcPerf3KeyspacesSplitTheRateByWeights() {
        List<String> notes = new ArrayList<>();
        RunConfig c = resolve(write("v3.toml", V3), s -> { }, notes);
        assertEquals("memcache", c.protocol());
        assertEquals(Duration.ofSeconds(3), c.duration());
        assertEquals(2, c.windows());
        assertEquals(2, c.threads());
        assertEquals(5, c.connections());
        assertEquals(Duration.ofMillis(150), c.timeout());
        assertEquals(Duration.ofMillis(900), c.connectTimeout());
        assertEquals(Arrivals.UNIFORM, c.arrivals());
        assertEquals(100, c.connection().connectRate());
        assertEquals(90.0, c.warmupHitrate(), 1e-9);
        assertEquals("127.0.0.1:11211", c.server());
        assertEquals(10_000, c.totalRate(), 1e-6);
        assertEquals(7200, workload(c, "ks0-get").rate(), 1e-6);
        assertEquals(1800, workload(c, "ks0-set").rate(), 1e-6);
        assertEquals(1000, workload(c, "ks1-get").rate(), 1e-6);
        assertEquals(300, workload(c, "ks0-set").ttlSeconds());
        assertEquals(0, workload(c, "ks0-get").shape().keyOffset());
        assertEquals(1000, workload(c, "ks1-get").shape().keyOffset(), "same key length: disjoint keys");
        ValueSize.Weighted sizes = (ValueSize.Weighted) workload(c, "ks0-set").bytes();
        assertEquals("[64, 512, 4096]", java.util.Arrays.toString(sizes.sizes()));
        assertEquals("[8, 1, 1]", java.util.Arrays.toString(sizes.weights()));
        assertEquals(java.nio.file.Path.of("waterfall.png"), c.waterfall(), "a PNG fluxperf draws at the end");
    }

    @Test
    void rpcPerf3WithoutARateLimitIsClosedLoopByWeight() {
        RunConfig c = resolve(V3.replace("request_ratelimit = 10_000\n", "").replace("request_distribution = \"uniform\"\n", ""));
        assertTrue(!c.isOpenLoop());
        double total = c.workloads().stream().mapToInt(WorkloadConfig::weight).sum();
        assertEquals(0.72, workload(c, "ks0-get").weight() / total, 1e-5);
        assertEquals(0.18, workload(c, "ks0-set").weight() / total, 1e-5);
        assertEquals(0.10, workload(c, "ks1-get").weight() / total, 1e-5);
    }

    @Test
    void rpcPerf5ClientWorkloadAndKeyspaces() {
        List<String> notes = new ArrayList<>();
        RunConfig c = resolve(write("v5.toml", V5), s -> { }, notes);
        assertEquals("redis", c.protocol());
        assertEquals(Duration.ofSeconds(2), c.duration());
        assertEquals(3, c.windows(), "5 s of 2-s intervals, rounded up");
        assertEquals(12, c.seed());
        assertEquals("127.0.0.1:6390", c.server());
        assertEquals(2, c.threads());
        assertEquals(3, c.connections(), "poolsize 5 over 2 threads, rounded up");
        assertEquals(2, c.pipeline());
        assertEquals(Duration.ofMillis(300), c.timeout());
        assertEquals(Duration.ofSeconds(1), c.connectTimeout());
        assertEquals(5000, c.totalRate(), 1e-6);
        WorkloadConfig set = workload(c, "ks0-set");
        assertEquals(500, set.rate(), 1e-6, "half the rate to keyspace 0, a fifth of that to set");
        assertEquals(900, set.ttlSeconds());
        assertEquals(4.0, set.shape().compressionRatio());
        assertEquals(128, set.bytes().max());
        WorkloadConfig hset = workload(c, "ks1-hset-x5");
        assertEquals(5, hset.shape().cardinality());
        assertEquals(50, hset.shape().innerKeys());
        assertEquals(4, hset.shape().innerKeyLength());
        assertEquals(WorkloadShape.ValueKind.I64, hset.shape().valueKind());
        assertEquals(1000, hset.shape().keyOffset());
        assertEquals(Command.HINCRBY, workload(c, "ks1-hincrby").method());
        assertEquals(Command.HGET, workload(c, "ks1-hget").method());
        assertEquals(1250, workload(c, "ks1-hget").rate(), 1e-6);
        String all = String.join("\n", notes);
        assertFalse(all.contains("general.admin"), "admin is mapped, not noted: " + all);
        assertEquals("127.0.0.1:9090", c.admin(), "rpc-perf's admin listener is fluxperf's admin endpoint");
        assertTrue(all.contains("v5.toml: metrics (line 8)"), all);
        assertTrue(all.contains("v5.toml: debug (line 12)"), all);
        assertTrue(all.contains("client.poolsize (line 20)"), all);
    }

    static final String POOL = """
            [general]
            protocol = "memcache"
            interval = 1
            duration = 2
            output_format = "json"

            [target]
            endpoints = ["127.0.0.1:11311", "memcache://127.0.0.1:11312", "127.0.0.1:11313"]

            [client]
            threads = 1
            poolsize = 3
            request_ratelimit = 3000

            [[workload.keyspace]]
            klen = 8
            nkeys = 100
            commands = [{ verb = "get", weight = 4 }, { verb = "set", weight = 1 }]
            """;

    @Test
    void severalEndpointsAreAPoolAndEarlierKeysOfRpcPerf5Run() {
        List<String> notes = new ArrayList<>();
        Path p = write("pool.toml", POOL);
        RunConfig c = resolve(p, s -> { }, notes);
        assertEquals(List.of("127.0.0.1:11311", "127.0.0.1:11312", "127.0.0.1:11313"), c.pool().servers());
        assertEquals(ServerDistribution.KETAMA, c.pool().distribution());
        assertEquals(3000, c.totalRate(), 1e-6, "[client] request_ratelimit, as earlier 5.x releases had it");
        String all = String.join("\n", notes);
        assertTrue(all.contains("pool.toml: target.endpoints (line 8): rpc-perf sends each request to any endpoint"), all);
        assertTrue(all.contains("pool.toml: general.output_format (line 5): fluxperf prints its text report; --json FILE"), all);
        RunConfig one = resolve(p, s -> s.server = "127.0.0.1:11211", new ArrayList<>());
        assertFalse(one.pool().isPool(), "--server replaces the endpoints");
        assertEquals("127.0.0.1:11211", one.server());
        String both = error(POOL.replace("[[workload.keyspace]]", "[workload.ratelimit]\nstart = 5\n\n[[workload.keyspace]]"));
        assertTrue(both.contains("client.request_ratelimit (line 13): and workload.ratelimit.start both set the rate; keep one"), both);
        String yaml = error(POOL.replace("\"json\"", "\"yaml\""));
        assertTrue(yaml.contains("general.output_format (line 5): is log or json, not 'yaml'"), yaml);
    }

    @Test
    void flagsOverrideTheFileAsRpcPerfSays() {
        Path p = write("v5.toml", V5);
        RunConfig c = resolve(p, s -> {
            s.server = "127.0.0.1:7777";
            s.threads = 1;
            s.duration = Duration.ofSeconds(1);
        }, new ArrayList<>());
        assertEquals("127.0.0.1:7777", c.server(), "-s replaces the file's endpoints");
        assertEquals(1, c.threads());
        assertEquals(Duration.ofSeconds(1), c.duration());
        for (String flag : List.of("method", "rate", "bytes")) {
            String e = assertThrows(UserError.class, () -> resolve(p, s -> {
                switch (flag) {
                    case "method" -> s.method = "get";
                    case "rate" -> s.rate = "100";
                    default -> s.bytes = "100";
                }
            }, new ArrayList<>())).getMessage();
            assertEquals("--" + flag + " cannot be used with an rpc-perf config file (" + p + "), which has its"
                    + " workloads: as rpc-perf has it, set them in the file, or leave the flag out", e);
        }
        // the flags that shape a run rather than its workloads override the file, as in rpc-perf
        RunConfig more = resolve(p, s -> {
            s.windows = 7;
            s.connections = 9;
            s.timeout = Duration.ofSeconds(2);
            s.seed = 99L;
        }, new ArrayList<>());
        assertEquals(7, more.windows());
        assertEquals(9, more.connections());
        assertEquals(Duration.ofSeconds(2), more.timeout());
        assertEquals(99, more.seed());
    }

    @Test
    void configFormatForcesTheReader() {
        Path p = write("v3.toml", V3);
        String e = assertThrows(UserError.class, () -> resolve(p, s -> s.configFormat = "rpc-perf-5",
                new ArrayList<>())).getMessage();
        assertTrue(e.startsWith(p + ": keyspace (line "), e);
        assertEquals("--config-format: unknown format 'rpc-perf-4'; expected rpc-perf-2, rpc-perf-3, rpc-perf-5 or fluxperf",
                assertThrows(UserError.class, () -> resolve(p, s -> s.configFormat = "rpc-perf-4", new ArrayList<>()))
                        .getMessage());
        RunConfig c = resolve(p, s -> s.configFormat = "rpc-perf-3", new ArrayList<>());
        assertEquals(3, c.workloads().size());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "[general]\\nprotocol = \"thrift\"\\n[[workload]]\\nmethod = \"get\"\\n[[workload.parameter]]\\nsize = 1\\n"
                + "| general.protocol (line 2): rpc-perf's protocol 'thrift' is not one fluxperf speaks; it speaks memcache and redis (give one of them, or run that server's own benchmark)",
        "[general]\\nprotocol = \"pelikan_rds\"\\ninterval = 1\\n[[keyspace]]\\nlength = 3\\ncommands = [{action = \"get\"}]\\n"
                + "| general.protocol (line 2): rpc-perf's protocol 'pelikan_rds' is not one fluxperf speaks; it speaks memcache, redis_resp and redis_inline (give one of them, or run that server's own benchmark)",
        "[general]\\nprotocol = \"momento\"\\ninterval = 1\\n[target]\\nendpoints = [\"a:1\"]\\n[workload]\\n"
                + "| general.protocol (line 2): rpc-perf's protocol 'momento' is not one fluxperf speaks; it speaks memcache and resp (give one of them, or run that server's own benchmark)",
        "[general]\\nprotocol = \"resp\"\\ninterval = 1\\n[target]\\nendpoints = [\"a:1\"]\\n[workload.ratelimit]\\nstart = 1\\nend = 5\\n"
                + "| workload.ratelimit (line 6): missing step: a ramp needs end, step and interval together",
        "[general]\\nprotocol = \"resp\"\\ninterval = 1\\n[target]\\nendpoints = [\"a:1\"]\\n[workload.ratelimit]\\nstart = 9\\nend = 5\\nstep = 1\\ninterval = 2\\n"
                + "| workload.ratelimit.start (line 7): is above end (9 > 5)",
        "[general]\\nprotocol = \"resp\"\\ninterval = 1\\n[target]\\nendpoints = [\"a:1\"]\\n[[workload.keyspace]]\\nklen = 4\\nnkeys = 5\\ncommands = [{ verb = \"lrem\" }]\\n"
                + "| workload.keyspace[0].commands[0].verb (line 9): 'lrem' is not a command fluxperf sends; it sends ",
        "[general]\\nprotocol = \"memcache\"\\ninterval = 1\\nclose_rate = 5\\n[[keyspace]]\\nlength = 3\\ncommands = [{action = \"get\"}]\\n"
                + "| general.close_rate (line 4): fluxperf does not close connections at a rate; leave it out (--connect-per-request opens one per request)",
        "[general]\\nprotocol = \"memcache\"\\ninterval = 1\\nclients = 1\\n[[keyspace]]\\nlength = 3\\ncommands = [{action = \"hget\"}]\\n"
                + "| keyspace[0].commands[0].action (line 7): protocol memcache does not support hget",
        "[general]\\nthreads = 1\\nipv4 = true\\n[[workload]]\\nmethod = \"get\"\\n  [[workload.parameter]]\\n  style = \"random\"\\n  size = 2\\n  num = 500\\n"
                + "| workload[0].parameter[0].size (line 8): to hold 500 keys, size must be at least 3",
        "[general]\\nthreads = 1\\nipv4 = true\\nthreds = 2\\n[[workload]]\\nmethod = \"get\"\\n  [[workload.parameter]]\\n  size = 1\\n"
                + "| general.threds (line 4): unknown key; did you mean threads?",
        "[general]\\nthreads = 1\\nipv4 = true\\n[[workload]]\\nmethod = \"get\"\\n"
                + "| general.ipv4 (line 3): unknown key; rpc-perf 2 has it: to read the file as rpc-perf 2 does, give --config-format rpc-perf-2",
        "[general]\\nprotocol = \"blabber\"\\ninterval = 1\\nduration = 10\\n[target]\\nendpoints = [\"127.0.0.1:1\"]\\n[pubsub]\\npublishers = 1\\n"
                + "| pubsub (line 7): fluxperf runs keyspace workloads of memcache and redis; rpc-perf's pubsub workloads of protocol 'blabber' (a protocol fluxperf does not speak either) are not among them",
        "[general]\\nprotocol = \"mysql\"\\ninterval = 1\\nduration = 10\\n[target]\\nendpoints = [\"127.0.0.1:1\"]\\n[workload]\\n[workload.oltp]\\ntables = 1\\n"
                + "| workload.oltp (line 8): fluxperf runs keyspace workloads of memcache and redis; rpc-perf's oltp of protocol 'mysql' (a protocol fluxperf does not speak either) are not among them",
        "[general]\\ninterval = 1\\n[[workload]]\\nmethod = \"get\"\\n"
                + "| general.interval (line 2): unknown key; rpc-perf 3 and 5 have it: to read the file as rpc-perf 3 does, give --config-format rpc-perf-3 (or rpc-perf-5)",
    })
    void whatFluxperfCannotDoIsOneSentenceNamingTheKey(String toml, String expected) {
        String e = error(toml.replace("\\n", "\n"));
        String f = dir.resolve("rpc.toml").toString();
        assertTrue(e.startsWith(f + ": " + expected.strip()), e);
        assertTrue(!e.contains("Exception") && !e.contains("io.fluxperf"), e);
    }

    /** The config with its protocol options' places (which file and line gave them) left out. */
    static RunConfig withoutPlaces(RunConfig c) {
        io.fluxperf.engine.protocol.ProtocolOptions o = io.fluxperf.engine.protocol.ProtocolOptions.none();
        for (io.fluxperf.engine.protocol.ProtocolOptions.Value v : c.protocolOptions().values()) {
            o = o.with(v.option(), v.text(), "");
        }
        return c.toBuilder().protocolOptions(o).build();
    }

    @ParameterizedTest
    @CsvSource({"v2.toml", "v3.toml", "v5.toml"})
    void convertedFilesRunTheSameConfig(String name) throws IOException {
        String text = switch (name) {
            case "v2.toml" -> V2;
            case "v3.toml" -> V3;
            default -> V5;
        };
        Path original = write(name, text);
        String converted = ConfigResolver.convert(original, null);
        assertTrue(converted.startsWith("# fluxperf config converted from " + original), converted);
        Path again = write("converted-" + name, converted);
        String server = "127.0.0.1:6379";
        RunConfig a = resolve(original, s -> s.server = server, new ArrayList<>());
        RunConfig b = resolve(again, s -> {
            s.configFormat = "fluxperf";
            s.server = server;
        }, new ArrayList<>());
        assertEquals(withoutPlaces(a), withoutPlaces(b), converted);
        assertEquals(RpcPerfFormat.FLUXPERF, RpcPerfFormat.detect(TomlConfigFile.read(again)), "detected as fluxperf's own");
    }
}
