package io.fluxperf.engine.config;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.request.Command;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Config files, alone and with flags over them. */
class ConfigResolverFileTest {
    @TempDir
    Path dir;
    Path file;
    String f;

    @BeforeEach
    void name() {
        file = dir.resolve("run.toml");
        f = file.toString();
    }

    static Path repoRoot() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("samples/default.toml"))) {
                return p;
            }
        }
        throw new IllegalStateException("no samples/default.toml above " + Path.of("").toAbsolutePath());
    }

    RunConfig resolve(String toml) {
        return resolve(toml, s -> { });
    }

    RunConfig resolve(String toml, Consumer<RunSettings> set) {
        try {
            Files.writeString(file, toml, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        RunSettings s = new RunSettings();
        s.config = file;
        set.accept(s);
        return ConfigResolver.resolve(s.toFlags());
    }

    String error(String toml) {
        return error(toml, s -> { });
    }

    String error(String toml, Consumer<RunSettings> set) {
        return assertThrows(UserError.class, () -> resolve(toml, set)).getMessage();
    }

    static RunConfig sample(String name, Consumer<RunSettings> set) {
        RunSettings s = new RunSettings();
        s.config = repoRoot().resolve("samples").resolve(name);
        set.accept(s);
        return ConfigResolver.resolve(s.toFlags());
    }

    // --- the samples ---

    @Test
    void defaultSampleIsRpcPerfsDefault() {
        RunConfig c = sample("default.toml", s -> { });
        RunConfig expected = RunConfig.builder().threads(1).connections(25).pipeline(1).duration(Duration.ofSeconds(60))
                .windows(1).timeout(RunConfig.DEFAULT_TIMEOUT).tcpNoDelay(RunConfig.DEFAULT_TCP_NODELAY)
                .seed(RunConfig.DEFAULT_SEED)
                .workloads(List.of( new WorkloadConfig("set", Command.SET, 10_000, 1, ValueSize.fixed(1), KeyspaceConfig.defaults(), false, false, 1, 0), new WorkloadConfig("get", Command.GET, 50_000, 1, ValueSize.fixed(1), KeyspaceConfig.defaults(), true, false, 1, 0)))
                .build();
        assertEquals(expected, c);
        assertTrue(c.isOpenLoop());
        assertEquals(60_000, c.totalRate());
    }

    @Test
    void otherSamplesParse() {
        RunConfig zipf = sample("mixed-zipf.toml", s -> { });
        assertFalse(zipf.isOpenLoop());
        assertEquals(2, zipf.workloads().size());
        assertEquals(9, zipf.workloads().get(0).weight());
        assertEquals(KeyDistribution.ZIPF, zipf.workloads().get(0).keyspace().distribution());
        assertEquals(new ValueSize.Weighted(new int[] {64, 512, 4096}, new int[] {70, 25, 5}),
                zipf.workloads().get(1).bytes());
        assertEquals(Duration.ofSeconds(5), zipf.warmup());

        RunConfig multi = sample("multiget.toml", s -> { });
        assertEquals(10, multi.workloads().get(0).keysPerRequest());
        assertEquals(Duration.ofMillis(250), multi.timeout());
        assertEquals(50, sample("multiget.toml", s -> s.keysPerRequest = 50).workloads().get(0).keysPerRequest());
    }

    @Test
    void ioUringFromTheFileAndTheFlag() {
        String toml = "[general]\nio-uring = true\n[[workload]]\nmethod = \"get\"\n";
        assertTrue(resolve(toml).connection().ioUring());
        assertFalse(resolve(toml, s -> s.ioUring = false).connection().ioUring(), "the flag wins");
        assertFalse(sample("default.toml", s -> { }).connection().ioUring(), "epoll by default");
    }

    @Test
    void busyPollFromTheFileAndTheFlag() {
        String toml = "[general]\nbusy-poll = true\n[[workload]]\nmethod = \"get\"\n";
        assertTrue(resolve(toml).connection().busyPoll());
        assertFalse(resolve(toml, s -> s.busyPoll = false).connection().busyPoll(), "the flag wins");
        assertTrue(sample("default.toml", s -> s.busyPoll = true).connection().busyPoll());
        assertFalse(sample("default.toml", s -> { }).connection().busyPoll(), "the loops wait by default");
        assertEquals(f + ": general.busy-poll (line 2): expected true or false, not the string \"yes\"",
                error("[general]\nbusy-poll = \"yes\"\n"));
    }

    @Test
    void flagsOverrideTheSample() {
        RunConfig c = sample("default.toml", s -> {
            s.duration = Duration.ofSeconds(10);
            s.windows = 2;
            s.threads = 2;
            s.connections = 5;
            s.server = "127.0.0.1:11211";
            s.seed = 9L;
        });
        assertEquals(Duration.ofSeconds(10), c.duration());
        assertEquals(2, c.windows());
        assertEquals(2, c.threads());
        assertEquals(5, c.connections());
        assertEquals("127.0.0.1:11211", c.server());
        assertEquals(9, c.seed());
        assertEquals(60_000, c.totalRate());
    }

    // --- general ---

    @Test
    void everyGeneralKey() {
        RunConfig c = resolve("""
                [general]
                server = "[::1]:11211"
                protocol = "memcache"
                threads = 2
                connections = 10
                pipeline = 8
                duration = 1.5
                windows = 4
                warmup = "500ms"
                timeout = "250ms"
                tcp-nodelay = true
                requests = 100000
                seed = -3
                """);
        assertEquals("[::1]:11211", c.server());
        assertEquals(2, c.threads());
        assertEquals(10, c.connections());
        assertEquals(8, c.pipeline());
        assertEquals(Duration.ofMillis(1500), c.duration());
        assertEquals(4, c.windows());
        assertEquals(Duration.ofMillis(500), c.warmup());
        assertEquals(Duration.ofMillis(250), c.timeout());
        assertTrue(c.tcpNoDelay());
        assertEquals(100_000, c.requests());
        assertEquals(-3, c.seed());
        assertEquals(WorkloadConfig.of(Command.GET), c.workloads().get(0));
    }

    @Test
    void globalFlagsWinOverTheFile() {
        String toml = """
                [general]
                server = "a:1"
                threads = 2
                connections = 10
                pipeline = 8
                duration = 30
                windows = 4
                warmup = 1
                timeout = 2
                tcp-nodelay = true
                requests = 5
                seed = 1
                """;
        RunConfig c = resolve(toml, s -> {
            s.server = "b:2";
            s.protocol = "memcache";
            s.threads = 3;
            s.connections = 11;
            s.pipeline = 9;
            s.duration = Duration.ofSeconds(31);
            s.windows = 5;
            s.warmup = Duration.ofSeconds(0);
            s.timeout = Duration.ofMillis(100);
            s.tcpNoDelay = false;
            s.requests = 0L;
            s.seed = 2L;
        });
        assertEquals(RunConfig.builder().server("b:2").threads(3).connections(11).pipeline(9).duration(Duration.ofSeconds(31)).windows(5).timeout(Duration.ofMillis(100)).tcpNoDelay(false).seed(2).workload(WorkloadConfig.of(Command.GET)).build(), c);
        // and the file's values stand where no flag is given
        RunConfig fromFile = resolve(toml);
        assertEquals("a:1", fromFile.server());
        assertEquals(2, fromFile.threads());
        assertEquals(Duration.ofSeconds(30), fromFile.duration());
        assertEquals(Duration.ofSeconds(2), fromFile.timeout());
    }

    @Test
    void fileWithoutWorkloadsTakesTheWorkloadFromFlags() {
        RunConfig c = resolve("[general]\nthreads = 2\n", s -> {
            s.method = "set";
            s.rate = "100";
            s.bytes = "32";
        });
        assertEquals(new WorkloadConfig("set", Command.SET, 100, 1, ValueSize.fixed(32), KeyspaceConfig.defaults(),
                false, false, 1, 0), c.workloads().get(0));
        assertEquals(WorkloadConfig.of(Command.GET), resolve("").workloads().get(0));
    }

    // --- workloads ---

    @Test
    void everyWorkloadKeyFlat() {
        WorkloadConfig w = resolve("""
                [[workload]]
                name = "hot reads"
                method = "gets"
                rate = 1000.5
                weight = 3
                bytes = 128
                hit = true
                flush = false
                keys-per-request = 4
                ttl = 60
                keyspace = 5000
                key-length = 10
                distribution = "zipf"
                exponent = 1.2
                """).workloads().get(0);
        assertEquals(new WorkloadConfig("hot reads", Command.GETS, 1000.5, 3, ValueSize.fixed(128),
                new KeyspaceConfig(5000, 10, KeyDistribution.ZIPF, 1.2), true, false, 4, 60), w);
    }

    @Test
    void defaultNamesAreMadeUnique() {
        List<WorkloadConfig> ws = resolve("""
                [[workload]]
                method = "get"
                [[workload]]
                method = "set"
                [[workload]]
                method = "get"
                keyspace = 10
                [[workload]]
                name = "set-3"
                method = "set"
                """).workloads();
        assertEquals(List.of("get", "set", "get-2", "set-3"), ws.stream().map(WorkloadConfig::name).toList());
    }

    @Test
    void perWorkloadFlagsApplyToEveryWorkload() {
        String toml = """
                [[workload]]
                method = "set"
                keyspace = 100
                ttl = 5
                [[workload]]
                method = "get"
                hit = true
                keys-per-request = 2
                distribution = "zipf"
                exponent = 0.5
                """;
        List<WorkloadConfig> ws = resolve(toml, s -> {
            s.flush = true;
            s.keyspace = 2000L;
            s.keyLength = 12;
            s.ttl = 9;
            s.keysPerRequest = 8;
            s.distribution = "zipf";
            s.exponent = 1.5;
        }).workloads();
        for (WorkloadConfig w : ws) {
            assertTrue(w.flush());
            assertFalse(w.hit(), "--flush clears the file's hit");
            assertEquals(new KeyspaceConfig(2000, 12, KeyDistribution.ZIPF, 1.5), w.keyspace());
            assertEquals(9, w.ttlSeconds());
        }
        assertEquals(1, ws.get(0).keysPerRequest(), "only reads take --keys-per-request");
        assertEquals(8, ws.get(1).keysPerRequest());

        List<WorkloadConfig> hit = resolve(toml, s -> s.hit = true).workloads();
        assertTrue(hit.get(0).hit());
        assertTrue(hit.get(1).hit());
        // without flags, the file's values
        List<WorkloadConfig> plain = resolve(toml).workloads();
        assertEquals(new KeyspaceConfig(100, 16, KeyDistribution.UNIFORM, KeyspaceConfig.DEFAULT_ZIPF_EXPONENT),
                plain.get(0).keyspace());
        assertEquals(new KeyspaceConfig(KeyspaceConfig.DEFAULT_COUNT, 16, KeyDistribution.ZIPF, 0.5),
                plain.get(1).keyspace());
        assertEquals(5, plain.get(0).ttlSeconds());
        assertEquals(2, plain.get(1).keysPerRequest());
        assertTrue(plain.get(1).hit());
        // --distribution uniform over a zipf workload with an exponent: the flag wins, no complaint
        assertEquals(KeyDistribution.UNIFORM,
                resolve(toml, s -> s.distribution = "uniform").workloads().get(1).keyspace().distribution());
    }

    @Test
    void perWorkloadFlagsThatFitNoWorkload() {
        String sets = "[[workload]]\nmethod = \"set\"\n";
        assertEquals("--keys-per-request: no workload in " + f + " reads (get or gets), and only reads take more"
                + " than one key", error(sets, s -> s.keysPerRequest = 4));
        assertEquals("--exponent: no workload in " + f + " uses the zipf distribution; add --distribution zipf",
                error(sets, s -> s.exponent = 1.1));
        assertEquals("--keyspace: 1000 keys need keys of at least 3 bytes, but the key length is 2",
                error("[[workload]]\nmethod = \"get\"\nkey-length = 2\n", s -> s.keyspace = 1000L));
    }

    // --- rpc-perf's rule ---

    @Test
    void methodRateOrBytesWithFileWorkloadsIsAnError() {
        String toml = "[[workload]]\nmethod = \"get\"\n";
        assertEquals("--method cannot be used with a config file that has [[workload]] tables (" + f
                + "); set method in each workload there, or leave the flag out", error(toml, s -> s.method = "get"));
        assertEquals("--rate cannot be used with a config file that has [[workload]] tables (" + f
                + "); set rate in each workload there, or leave the flag out", error(toml, s -> s.rate = "10"));
        assertEquals("--bytes cannot be used with a config file that has [[workload]] tables (" + f
                + "); set bytes in each workload there, or leave the flag out", error(toml, s -> s.bytes = "10"));
        assertEquals("--method and --rate and --bytes cannot be used with a config file that has [[workload]] tables ("
                + f + "); set method and rate and bytes in each workload there, or leave the flags out", error(toml, s -> {
                    s.method = "get";
                    s.rate = "abc";
                    s.bytes = "1";
                }));
        UserError e = assertThrows(UserError.class, () -> sample("default.toml", s -> s.method = "get"));
        assertTrue(e.getMessage().startsWith("--method cannot be used with a config file that has [[workload]] tables ("));
        assertTrue(e.getMessage().contains("default.toml"));
    }

    // --- value sizes ---

    @Test
    void everyValueSizeForm() {
        assertEquals(ValueSize.fixed(0), bytes("0"));
        assertEquals(ValueSize.fixed(64), bytes("64"));
        assertEquals(new ValueSize.Range(16, 1024), bytes("{ min = 16, max = 1024 }"));
        assertEquals(new ValueSize.Weighted(new int[] {64, 4096}, new int[] {9, 1}),
                bytes("[{ size = 64, weight = 9 }, { size = 4096, weight = 1 }]"));
        assertEquals(new ValueSize.Weighted(new int[] {64, 128}, new int[] {1, 1}),
                bytes("[{ size = 64 }, { size = 128 }]"));
        assertEquals(new ValueSize.Range(1, 2), bytes("\"1..2\""));
        assertEquals(new ValueSize.Weighted(new int[] {8, 16}, new int[] {3, 1}), bytes("\"8:3,16:1\""));
        // multi-line array of tables
        assertEquals(new ValueSize.Weighted(new int[] {1, 2}, new int[] {5, 6}), resolve("""
                [[workload]]
                method = "set"
                bytes = [
                  { size = 1, weight = 5 },
                  { size = 2, weight = 6 },
                ]
                """).workloads().get(0).bytes());
    }

    ValueSize bytes(String value) {
        return resolve("[[workload]]\nmethod = \"set\"\nbytes = " + value + "\n").workloads().get(0).bytes();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "-1                                     | workload[0].bytes (line 3): a value size must be between 0 and 1048576 bytes, not -1",
        "2000000                                | workload[0].bytes (line 3): a value size must be between 0 and 1048576 bytes, not 2000000",
        "1.5                                    | workload[0].bytes (line 3): expected a size (64), a range ({ min = 16, max = 1024 }) or a weighted list ([{ size = 64, weight = 9 }, { size = 4096, weight = 1 }]), not 1.5",
        "true                                   | workload[0].bytes (line 3): expected a size (64), a range ({ min = 16, max = 1024 }) or a weighted list ([{ size = 64, weight = 9 }, { size = 4096, weight = 1 }]), not true",
        "\"lots\"                               | workload[0].bytes (line 3): 'lots' is not a value size; write N, MIN..MAX or SIZE:WEIGHT,SIZE:WEIGHT",
        "{ min = 16 }                           | workload[0].bytes (line 3): a range needs both min and max, as in { min = 16, max = 1024 }",
        "{ min = 16, max = 8 }                  | workload[0].bytes (line 3): the range's min 16 is above its max 8",
        "{ min = 1, max = 2, step = 1 }         | workload[0].bytes.step (line 3): unknown key; expected one of min, max",
        "{ min = \"1\", max = 2 }               | workload[0].bytes.min (line 3): expected a whole number, not the string \"1\"",
        "[]                                     | workload[0].bytes (line 3): a weighted list needs at least one { size = N, weight = W } table",
        "[64, 128]                              | workload[0].bytes[0] (line 3): expected a table { size = N, weight = W }, not 64",
        "[{ weight = 1 }]                       | workload[0].bytes[0] (line 3): missing size; write { size = N, weight = W }",
        "[{ size = 1, weight = -1 }]            | workload[0].bytes (line 3): a weight must be between 0 and 2147483647, not -1",
        "[{ size = 1, weight = 0 }]             | workload[0].bytes (line 3): the weights must not all be 0",
        "[{ size = 1, wieght = 2 }]             | workload[0].bytes[0].wieght (line 3): unknown key; did you mean weight?",
    })
    void badValueSizes(String value, String message) {
        assertEquals(f + ": " + message, error("[[workload]]\nmethod = \"set\"\nbytes = " + value + "\n"));
    }

    // --- durations ---

    @Test
    void durationForms() {
        assertEquals(Duration.ofSeconds(2), duration("2"));
        assertEquals(Duration.ofMillis(1500), duration("1.5"));
        assertEquals(Duration.ofMillis(500), duration("\"500ms\""));
        assertEquals(Duration.ofSeconds(2), duration("\"2s\""));
        assertEquals(Duration.ofSeconds(90), duration("\"1.5m\""));
        assertEquals(Duration.ofNanos(250_000), duration("\"250us\""));
        assertEquals(Duration.ofSeconds(7), duration("\"7\""));
    }

    Duration duration(String value) {
        return resolve("[general]\nduration = " + value + "\n").duration();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "duration = 0                | general.duration (line 2): must be greater than 0, not 0s",
        "duration = -5               | general.duration (line 2): must be greater than 0, not -5s",
        "duration = \"0ms\"          | general.duration (line 2): must be greater than 0, not 0s",
        "duration = \"soon\"         | general.duration (line 2): 'soon' is not a duration; write seconds (60, 0.5) or a number with a unit (250ms, 2s, 1m)",
        "duration = \"5 fortnights\" | general.duration (line 2): '5 fortnights' is not a duration; write seconds (60, 0.5) or a number with a unit (250ms, 2s, 1m)",
        "duration = true             | general.duration (line 2): expected a number of seconds or a string such as \"250ms\", not true",
        "duration = inf              | general.duration (line 2): must be a finite number of seconds, not inf",
        "timeout = 0                 | general.timeout (line 2): must be greater than 0, not 0s",
        "warmup = -0.5               | general.warmup (line 2): must be at least 0, not -500ms",
        "warmup = 1e300              | general.warmup (line 2): 1E+300 seconds is too long a duration",
    })
    void badDurations(String line, String message) {
        assertEquals(f + ": " + message, error("[general]\n" + line + "\n"));
    }

    // --- general values ---

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "threads = 0                 | general.threads (line 2): must be at least 1, not 0",
        "threads = 1025              | general.threads (line 2): must be at most 1024, not 1025",
        "threads = 2.5               | general.threads (line 2): expected a whole number, not 2.5",
        "threads = \"4\"             | general.threads (line 2): expected a whole number, not the string \"4\"",
        "threads = 99999999999999999999 | general.threads (line 2): must be at most 1024, not 99999999999999999999",
        "connections = 0             | general.connections (line 2): must be at least 1, not 0",
        "pipeline = 0                | general.pipeline (line 2): must be at least 1, not 0",
        "windows = 0                 | general.windows (line 2): must be at least 1, not 0",
        "requests = -1               | general.requests (line 2): must be at least 0, not -1",
        "seed = 1.5                  | general.seed (line 2): expected a whole number, not 1.5",
        "tcp-nodelay = 1             | general.tcp-nodelay (line 2): expected true or false, not 1",
        "protocol = \"gopher\"       | general.protocol (line 2): unknown protocol 'gopher'; expected memcache, memcache-binary, memcache-meta, redis, http",
        "protocol = 1                | general.protocol (line 2): expected a string, not 1",
        "server = \"localhost\"      | general.server (line 2): 'localhost' has no port; write HOST:PORT, [IPv6]:PORT or unix:/path",
        "server = \"h:99999\"        | general.server (line 2): port must be between 1 and 65535, not '99999'",
        "thread = 4                  | general.thread (line 2): unknown key; did you mean threads?",
        "tcp_nodelay = true          | general.tcp_nodelay (line 2): unknown key; did you mean tcp-nodelay?",
        "colour = \"blue\"           | general.colour (line 2): unknown key; expected one of server, protocol, threads, connections, pipeline, duration, windows, warmup, timeout, tcp-nodelay, requests, seed, udp, tls, tls-ca, tls-insecure, sni, connect-per-request, hold-connections, connect-rate, io-uring, busy-poll, stats-interval, early-send, arrivals, warmup-hitrate, connect-timeout, waterfall, servers, distribution, cluster, read-from, out, admin, meta-flags, meta-get-flags, user, password, db, resp, headers, http-ok",
    })
    void badGeneralValues(String line, String message) {
        assertEquals(f + ": " + message, error("[general]\n" + line + "\n"));
    }

    @Test
    void aPipelineWithAConnectionPerRequestIsRefusedWhereItIsSet() {
        String sentence = ": a connection per request carries one request, so --pipeline goes without --connect-per-request";
        assertEquals(f + ": general.pipeline (line 2)" + sentence,
                error("[general]\npipeline = 4\nconnect-per-request = true\n"));
        assertEquals("--pipeline" + sentence, error("[general]\nconnect-per-request = true\n", s -> s.pipeline = 2));
        assertTrue(resolve("[general]\npipeline = 1\nconnect-per-request = true\n", s -> { }).connection().connectPerRequest(),
                "a pipeline of 1 is what a connection per request has");
    }

    // --- workload values ---

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "rate = -5                   | workload[1].rate (line 7): must be at least 0 (0: no pacing), not -5",
        "rate = \"fast\"             | workload[1].rate (line 7): expected a number, not the string \"fast\"",
        "rate = nan                  | workload[1].rate (line 7): must be a finite number, not nan",
        "rate = inf                  | workload[1].rate (line 7): must be a finite number, not inf",
        "weight = -1                 | workload[1].weight (line 7): must be at least 0, not -1",
        "hit = \"yes\"               | workload[1].hit (line 7): expected true or false, not the string \"yes\"",
        "keys-per-request = 0        | workload[1].keys-per-request (line 7): must be at least 1, not 0",
        "ttl = 2592001               | workload[1].ttl (line 7): must be at most 2592000, not 2592001",
        "keyspace = 0                | workload[1].keyspace (line 7): must be at least 1, not 0",
        "key-length = 251            | workload[1].key-length (line 7): must be at most 250, not 251",
        "distribution = \"normal\"   | workload[1].distribution (line 7): unknown distribution 'normal'; expected one of uniform, zipf, sequential",
        "exponent = 0                | workload[1].exponent (line 7): must be a number greater than 0, not 0",
        "exponent = 1.1              | workload[1].exponent (line 7): only the zipf distribution uses an exponent, and this workload's distribution is uniform",
        "name = \"  \"               | workload[1].name (line 7): must not be empty",
        "name = \"first\"            | workload[1].name (line 7): 'first' is the name of an earlier workload; names must differ",
        "keyspace = 100000\\nkey-length = 4 | workload[1].keyspace (line 7): 100000 keys need keys of at least 5 bytes, but the key length is 4",
        "key-length = 3              | workload[1].key-length (line 7): 10000 keys need keys of at least 4 bytes, but the key length is 3",
        "hit = true\\nflush = true    | workload[1] (line 5): hit and flush cannot both be true: hit loads the key space so that reads hit, flush empties the server so that they miss",
        "keyspace_size = 4           | workload[1].keyspace_size (line 7): unknown key; expected one of name, method, keys-per-request, subscribers, bytes, hit, flush, rate, keyspace, key-length, distribution, exponent, ttl, command, path, ratelimit, weight, key-offset, cardinality, inner-keyspace, inner-key-length, value-kind, compression-ratio, values, script, range-start, range-end, by-score, truncate",
        "key_length = 4              | workload[1].key_length (line 7): unknown key; did you mean key-length?",
        "keys = { count = 5 }        | workload[1].keys (line 7): unknown key; expected one of name, method, keys-per-request, subscribers, bytes, hit, flush, rate, keyspace, key-length, distribution, exponent, ttl, command, path, ratelimit, weight, key-offset, cardinality, inner-keyspace, inner-key-length, value-kind, compression-ratio, values, script, range-start, range-end, by-score, truncate",
    })
    void badWorkloadValues(String lines, String message) {
        String toml = """
                [[workload]]
                name = "first"
                method = "get"

                [[workload]]
                method = "get"
                """ + lines.replace("\\n", "\n") + "\n";
        assertEquals(f + ": " + message, error(toml));
    }

    @Test
    void unknownMethods() {
        assertEquals(f + ": workload[0].method (line 2): unknown method 'frob'; expected one of " + Checks.METHODS, error("[[workload]]\nmethod = \"frob\"\n"));
        assertEquals(f + ": workload[0].method (line 3): unknown method 'flush'; expected one of " + Checks.METHODS,
                error("[[workload]]\nrate = 1\nmethod = \"flush\"\n"));
        assertEquals(f + ": workload[0].method (line 2): expected a string, not 5", error("[[workload]]\nmethod = 5\n"));
    }

    @Test
    void keysPerRequestOnAWrite() {
        assertEquals(f + ": workload[0].keys-per-request (line 3): more than one key per request needs a read method"
                + " (get or gets), not set", error("[[workload]]\nmethod = \"set\"\nkeys-per-request = 2\n"));
    }

    @Test
    void workloadWithoutMethod() {
        assertEquals(f + ": workload[0] (line 2): missing method; expected one of " + Checks.METHODS, error("# comment\n[[workload]]\nrate = 5\n"));
    }

    @Test
    void aRatedWorkloadBesideUnpacedOnesIsAProbeOnAThreadOfItsOwn() {
        RunConfig c = resolve("[general]\nthreads = 2\n[[workload]]\nmethod = \"set\"\nrate = 10\n\n[[workload]]\nmethod = \"get\"\n");
        assertTrue(c.isOpenLoop());
        assertTrue(c.isMixed());
        assertEquals(3, c.threads(), "the probe's thread beside the two that load");
        RunConfig paced = resolve("[[workload]]\nmethod = \"set\"\nrate = 10\n[[workload]]\nmethod = \"get\"\nrate = 3\n");
        assertFalse(paced.isMixed());
        assertEquals(1, paced.threads());
        // rate = 0 means unlimited, and counts as no rate
        RunConfig unpaced = resolve("[[workload]]\nmethod = \"set\"\nrate = 0\n[[workload]]\nmethod = \"get\"\n");
        assertFalse(unpaced.isOpenLoop());
        assertFalse(unpaced.isMixed());
        assertEquals(f + ": every unpaced workload has weight 0; give at least one a weight above 0",
                error("[[workload]]\nmethod = \"set\"\nrate = 10\n[[workload]]\nmethod = \"get\"\nweight = 0\n"));
    }

    @Test
    void allWeightsZero() {
        assertEquals(f + ": every workload has weight 0; give at least one a weight above 0",
                error("[[workload]]\nmethod = \"set\"\nweight = 0\n"));
        // with rates, weights do not matter
        assertTrue(resolve("[[workload]]\nmethod = \"set\"\nweight = 0\nrate = 5\n").isOpenLoop());
    }

    // --- the file's shape ---

    @Test
    void unknownTopLevelKeysAndTables() {
        assertEquals(f + ": workloads (line 1): unknown key; did you mean workload?",
                error("[[workloads]]\nmethod = \"get\"\n"));
        assertEquals(f + ": threads (line 1): unknown key; expected one of general, workload, slo",
                error("threads = 4\n"));
        assertEquals(f + ": genral (line 1): unknown key; did you mean general?", error("[genral]\nthreads = 4\n"));
        assertEquals(f + ": workload[0].keys (line 3): unknown key; expected one of name, method,"
                        + " keys-per-request, subscribers, bytes, hit, flush, rate, keyspace, key-length, distribution, exponent,"
                        + " ttl, command, path, ratelimit, weight, key-offset, cardinality, inner-keyspace, inner-key-length,"
                        + " value-kind, compression-ratio, values, script, range-start, range-end, by-score, truncate",
                error("[[workload]]\nmethod = \"get\"\n[workload.keys]\ncount = 5\n"));
    }

    @Test
    void wrongShapes() {
        assertEquals(f + ": workload (line 1): expected an array of tables; write [[workload]] (double brackets),"
                + " not [workload]", error("[workload]\nmethod = \"get\"\n"));
        assertEquals(f + ": workload (line 1): expected [[workload]] tables, not 5", error("workload = 5\n"));
        assertEquals(f + ": workload[0] (line 1): expected a table, not 5", error("workload = [5]\n"));
        assertEquals(f + ": general (line 1): expected a table, not the string \"x\"", error("general = \"x\"\n"));
    }

    // --- syntax ---

    @Test
    void malformedTomlNamesLineAndColumn() {
        String msg = error("""
                [general]
                threads = 4

                [[workload]]
                method = "get
                rate = 5
                """);
        assertTrue(msg.startsWith(f + ":5:"), msg);
        assertTrue(msg.contains(": TOML syntax error: "), msg);
        assertFalse(msg.contains("\n"), msg);

        assertEquals(f + ":3:6: TOML syntax error: unknown token", error("\n\n  foo bar\n"));
        assertEquals(f + ":2:11: TOML syntax error: newline not permitted here", error("[general]\nthreads = \n"));
        assertEquals(f + ":3:1: TOML syntax error: duplicate key general.threads (first set on line 2)",
                error("[general]\nthreads = 4\nthreads = 5\n"));
        assertEquals(f + ":3:3: TOML syntax error: duplicate key workload[0].method (first set on line 2)",
                error("[[workload]]\nmethod = 'get'\n  method = 'set' # again\n\n\n"));
        assertEquals(f + ":3:9: TOML syntax error: table redefined", error("[general]\nthreads = 4\n[general]\n"));
        assertTrue(error("[general\n").startsWith(f + ":1:"));
    }

    @Test
    void notUtf8() throws IOException {
        Files.write(file, new byte[] {'a', ' ', '=', ' ', '"', (byte) 0xff, '"', '\n'});
        RunSettings s = new RunSettings();
        s.config = file;
        String msg = assertThrows(UserError.class, () -> ConfigResolver.resolve(s.toFlags())).getMessage();
        assertEquals(f + ":1: byte 5 (0xff) is not UTF-8 text; a TOML file must be UTF-8 (is this a binary file?)", msg);
    }

    @Test
    void aDirectoryIsNotAConfigFile() {
        RunSettings s = new RunSettings();
        s.config = dir;
        assertEquals("--config: " + dir + " is a directory, not a TOML file",
                assertThrows(UserError.class, () -> ConfigResolver.resolve(s.toFlags())).getMessage());
    }

    @Test
    void noLineWhenTheKeyCannotBeFound() {
        // a dotted key is not located; the message keeps the path
        assertEquals(f + ": general.threads: must be at least 1, not 0", error("general.threads = 0\n"));
    }
}
