package io.fluxperf.engine.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.request.Command;
import java.time.Duration;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** A run made from command-line flags alone. */
class ConfigResolverFlagsTest {

    static RunConfig resolve(Consumer<RunSettings> set) {
        RunSettings s = new RunSettings();
        set.accept(s);
        return ConfigResolver.resolve(s.toFlags());
    }

    static String error(Consumer<RunSettings> set) {
        return assertThrows(UserError.class, () -> resolve(set)).getMessage();
    }

    @Test
    void noFlagsGiveTheDefaults() {
        RunConfig c = resolve(s -> { });
        assertNull(c.server());
        assertEquals("memcache", c.protocol());
        assertEquals(RunConfig.DEFAULT_THREADS, c.threads());
        assertEquals(RunConfig.DEFAULT_CONNECTIONS, c.connections());
        assertEquals(RunConfig.DEFAULT_PIPELINE, c.pipeline());
        assertEquals(RunConfig.DEFAULT_DURATION, c.duration());
        assertEquals(RunConfig.DEFAULT_WINDOWS, c.windows());
        assertEquals(Duration.ZERO, c.warmup());
        assertEquals(RunConfig.DEFAULT_TIMEOUT, c.timeout());
        assertTrue(c.tcpNoDelay(), "TCP_NODELAY is on by default");
        assertEquals(0, c.requests());
        assertEquals(RunConfig.DEFAULT_SEED, c.seed());
        assertEquals(1, c.workloads().size());
        WorkloadConfig w = c.workloads().get(0);
        assertEquals(WorkloadConfig.of(Command.GET), w);
        assertEquals("get", w.name());
        assertFalse(c.isOpenLoop());
        assertEquals(ValueSize.fixed(ValueSize.DEFAULT_BYTES), w.bytes());
        assertEquals(KeyspaceConfig.defaults(), w.keyspace());
    }

    @Test
    void everyFlagLands() {
        RunConfig c = resolve(s -> {
            s.server = "10.0.0.11:11211";
            s.protocol = "memcache";
            s.method = "set";
            s.bytes = "16..1024";
            s.rate = "2500.5";
            s.threads = 2;
            s.connections = 7;
            s.pipeline = 4;
            s.duration = Duration.ofSeconds(5);
            s.windows = 3;
            s.warmup = Duration.ofMillis(500);
            s.timeout = Duration.ofMillis(250);
            s.tcpNoDelay = false;
            s.keyspace = 500L;
            s.keyLength = 8;
            s.distribution = "zipf";
            s.exponent = 1.1;
            s.ttl = 30;
            s.requests = 1000L;
            s.seed = 7L;
            s.flush = true;
        });
        assertEquals("10.0.0.11:11211", c.server());
        assertEquals(2, c.threads());
        assertEquals(7, c.connections());
        assertEquals(4, c.pipeline());
        assertEquals(Duration.ofSeconds(5), c.duration());
        assertEquals(3, c.windows());
        assertEquals(Duration.ofMillis(500), c.warmup());
        assertEquals(Duration.ofMillis(250), c.timeout());
        assertFalse(c.tcpNoDelay(), "--tcp-nodelay=false turns it off");
        assertEquals(1000, c.requests());
        assertEquals(7, c.seed());
        assertTrue(c.isOpenLoop());
        assertEquals(new WorkloadConfig("set", Command.SET, 2500.5, 1, new ValueSize.Range(16, 1024),
                new KeyspaceConfig(500, 8, KeyDistribution.ZIPF, 1.1), false, true, 1, 30), c.workloads().get(0));
    }

    @Test
    void multiGetFromFlags() {
        WorkloadConfig w = resolve(s -> {
            s.method = "gets";
            s.keysPerRequest = 10;
            s.hit = true;
        }).workloads().get(0);
        assertEquals(Command.GETS, w.method());
        assertEquals(10, w.keysPerRequest());
        assertTrue(w.hit());
    }

    @Test
    void rateZeroIsUnlimited() {
        // as a workload's rate = 0 (rpc-perf's meaning): no pacing, the closed loop an absent rate gives
        RunConfig zero = resolve(s -> s.rate = "0");
        assertFalse(zero.isOpenLoop());
        assertEquals(0, zero.workloads().get(0).rate());
        assertEquals(resolve(s -> { }).isOpenLoop(), zero.isOpenLoop());
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1:11211", "localhost:1", "cache-01.example.com:65535", "[::1]:11211",
            "[fe80::1%eth0]:11211", "unix:/tmp/memcached.sock"})
    void serverShapesThatPass(String server) {
        assertEquals(server, resolve(s -> s.server = server).server());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "localhost        | --server: 'localhost' has no port; write HOST:PORT, [IPv6]:PORT or unix:/path",
        "localhost:0      | --server: port must be between 1 and 65535, not '0'",
        "localhost:65536  | --server: port must be between 1 and 65535, not '65536'",
        "localhost:http   | --server: port must be between 1 and 65535, not 'http'",
        "::1:11211        | --server: '::1:11211' looks like an IPv6 address without brackets; write HOST:PORT, [IPv6]:PORT or unix:/path",
        "[::1]            | --server: '[::1]' is not a server address; write HOST:PORT, [IPv6]:PORT or unix:/path",
        "[foo]:11211      | --server: 'foo' in '[foo]:11211' is not an IPv6 address; write HOST:PORT, [IPv6]:PORT or unix:/path",
        "unix:            | --server: 'unix:' has no socket path; write HOST:PORT, [IPv6]:PORT or unix:/path",
        "a b:11211        | --server: 'a b:11211' is not a server address; write HOST:PORT, [IPv6]:PORT or unix:/path",
        ":11211           | --server: ':11211' is not a server address; write HOST:PORT, [IPv6]:PORT or unix:/path",
    })
    void badServers(String server, String message) {
        assertEquals(message, error(s -> s.server = server));
    }

    /** An unknown method is told with the methods of the run's protocol only (issue 46). */
    @Test
    void badMethod() {
        assertEquals("--method: unknown method 'frob'; memcache speaks get, gets, set, add, replace, append, prepend,"
                + " cas, delete, incr, decr, touch", error(s -> s.method = "frob"));
        assertTrue(error(s -> s.method = "flush").startsWith("--method: unknown method 'flush'; memcache speaks get,"));
        String redis = error(s -> {
            s.protocol = "redis";
            s.method = "gets";
        });
        assertTrue(redis.startsWith("--method: protocol redis does not support gets; it speaks get, set,"), redis);
        assertTrue(!redis.contains("post") && !redis.contains("touch"), redis);
    }

    @Test
    void methodIsCaseInsensitive() {
        assertEquals(Command.SET, resolve(s -> s.method = "SET").workloads().get(0).method());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "abc       | --rate: 'abc' is not a number",
        "-5        | --rate: must be at least 0 (0: no pacing), not -5",
        "-0.5      | --rate: must be at least 0 (0: no pacing), not -0.5",
        "NaN       | --rate: 'NaN' is not a number",
        "Infinity  | --rate: 'Infinity' is not a number",
        "1e999     | --rate: 1e999 is more than a schedule can space, which is 1,000,000,000 a second (one a nanosecond); give 0 for no pacing",
        "1e12      | --rate: 1e12 is more than a schedule can space, which is 1,000,000,000 a second (one a nanosecond); give 0 for no pacing",
        "0.001     | --rate: 0.001 requests/s is less than one request per 60s window; give at least 0.0167 requests/s, or longer windows (--duration)",
        "50k       | --rate: '50k' is not a number",
        "0x10      | --rate: '0x10' is not a number",
    })
    void badRates(String rate, String message) {
        assertEquals(message, error(s -> s.rate = rate));
    }

    @Test
    void rateForms() {
        assertEquals(50000, resolve(s -> s.rate = "50_000").totalRate());
        assertEquals(1500, resolve(s -> s.rate = "1.5e3").totalRate());
        assertEquals(0.5, resolve(s -> s.rate = " 0.5 ").totalRate());
    }

    @Test
    void integerRanges() {
        assertEquals("--threads: must be at least 1, not 0", error(s -> s.threads = 0));
        assertEquals("--threads: must be at most 1024, not 1025", error(s -> s.threads = 1025));
        assertEquals("--connections: must be at least 1, not 0", error(s -> s.connections = 0));
        assertEquals("--connections: must be at most 100000, not 100001", error(s -> s.connections = 100_001));
        assertEquals("--pipeline: must be at least 1, not 0", error(s -> s.pipeline = 0));
        assertEquals("--pipeline: must be at most 1024, not 2000", error(s -> s.pipeline = 2000));
        assertEquals("--windows: must be at least 1, not 0", error(s -> s.windows = 0));
        assertEquals("--requests: must be at least 0, not -1", error(s -> s.requests = -1L));
        assertEquals("--keys-per-request: must be at least 1, not 0", error(s -> s.keysPerRequest = 0));
        assertEquals("--keys-per-request: must be at most 1024, not 5000", error(s -> s.keysPerRequest = 5000));
        assertEquals("--keyspace: must be at least 1, not 0", error(s -> s.keyspace = 0L));
        assertEquals("--key-length: must be at least 1, not 0", error(s -> s.keyLength = 0));
        assertEquals("--key-length: must be at most 250, not 251", error(s -> s.keyLength = 251));
        assertEquals("--ttl: must be at least 0, not -1", error(s -> s.ttl = -1));
        assertEquals("--ttl: must be at most 2592000, not 2592001", error(s -> s.ttl = 2_592_001));
    }

    @Test
    void durationRanges() {
        assertEquals("--duration: must be greater than 0, not 0s", error(s -> s.duration = Duration.ZERO));
        assertEquals("--duration: must be greater than 0, not -1s", error(s -> s.duration = Duration.ofSeconds(-1)));
        assertEquals("--timeout: must be greater than 0, not 0s", error(s -> s.timeout = Duration.ZERO));
        assertEquals("--warmup: must be at least 0, not -500ms", error(s -> s.warmup = Duration.ofMillis(-500)));
        assertEquals(Duration.ZERO, resolve(s -> s.warmup = Duration.ZERO).warmup());
    }

    @Test
    void protocol() {
        assertEquals("--protocol: unknown protocol 'x'; expected " + io.fluxperf.engine.protocol.Protocols.names(),
                error(s -> s.protocol = "x"));
        assertEquals("redis", resolve(s -> s.protocol = "Redis").protocol());
        assertEquals("memcache", resolve(s -> s.protocol = "MEMCACHE").protocol());
    }

    @Test
    void bytes() {
        assertEquals(ValueSize.fixed(1), resolve(s -> s.bytes = "1").workloads().get(0).bytes());
        assertEquals(new ValueSize.Weighted(new int[] {64, 4096}, new int[] {9, 1}),
                resolve(s -> s.bytes = "64:9,4096:1").workloads().get(0).bytes());
        assertEquals("--bytes: 'big' is not a value size; write N, MIN..MAX or SIZE:WEIGHT,SIZE:WEIGHT",
                error(s -> s.bytes = "big"));
        assertEquals("--bytes: a value size must be between 0 and 1048576 bytes, not 2000000",
                error(s -> s.bytes = "2000000"));
        assertEquals("--bytes: the range's min 10 is above its max 5", error(s -> s.bytes = "10..5"));
    }

    @Test
    void keySpace() {
        assertEquals("--distribution: unknown distribution 'pareto'; expected one of uniform, zipf, sequential",
                error(s -> s.distribution = "pareto"));
        assertEquals(KeyDistribution.SEQUENTIAL,
                resolve(s -> s.distribution = "sequential").workloads().get(0).keyspace().distribution());
        assertEquals("--exponent: must be a number greater than 0, not 0", error(s -> {
            s.distribution = "zipf";
            s.exponent = 0.0;
        }));
        assertEquals("--exponent: must be a number greater than 0, not NaN", error(s -> {
            s.distribution = "zipf";
            s.exponent = Double.NaN;
        }));
        assertEquals("--exponent: only the zipf distribution uses an exponent; add --distribution zipf",
                error(s -> s.exponent = 1.2));
        assertEquals("--keyspace: 1000000 keys need keys of at least 6 bytes, but the key length is 4", error(s -> {
            s.keyspace = 1_000_000L;
            s.keyLength = 4;
        }));
        assertEquals("--key-length: 10000 keys need keys of at least 4 bytes, but the key length is 3",
                error(s -> s.keyLength = 3));
        assertEquals("--keyspace: a zipf key space can have at most 2147483647 keys, not 3000000000", error(s -> {
            s.keyspace = 3_000_000_000L;
            s.distribution = "zipf";
        }));
    }

    @Test
    void combinations() {
        assertEquals("--keys-per-request: more than one key per request needs a read method (get or gets), not set",
                error(s -> {
                    s.method = "set";
                    s.keysPerRequest = 2;
                }));
        assertEquals("--hit and --flush cannot be used together: --hit loads the key space so that reads hit,"
                + " --flush empties the server so that they miss", error(s -> {
                    s.hit = true;
                    s.flush = true;
                }));
    }

    @Test
    void missingConfigFile() {
        assertEquals("--config: no/such/file.toml: no such file",
                error(s -> s.config = java.nio.file.Path.of("no/such/file.toml")));
    }
}
