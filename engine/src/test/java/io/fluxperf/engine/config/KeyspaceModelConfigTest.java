package io.fluxperf.engine.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.request.Command;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The keyspace model in fluxperf's own TOML: its keys, and one sentence naming the key for each mistake. */
class KeyspaceModelConfigTest {
    @TempDir
    Path dir;

    private RunConfig resolve(String toml, String server) throws IOException {
        Path f = dir.resolve("run.toml");
        Files.writeString(f, toml);
        RunSettings s = new RunSettings();
        s.config = f;
        s.server = server;
        return ConfigResolver.resolve(s.toFlags());
    }

    @Test
    void everyKeyOfTheModel() throws IOException {
        RunConfig c = resolve("""
                [general]
                protocol = "redis"
                arrivals = "exponential"
                warmup-hitrate = 90
                connect-timeout = "300ms"
                waterfall = "out.png"

                [[workload]]
                name = "fields"
                method = "hset"
                rate = 100
                keyspace = 20
                key-length = 6
                key-offset = 1000
                cardinality = 5
                inner-keyspace = 50
                inner-key-length = 3
                value-kind = "i64"

                [[workload]]
                name = "blobs"
                method = "set"
                rate = 100
                bytes = 4096
                compression-ratio = 4.0
                values = "fresh"

                [[workload]]
                name = "reads"
                method = "get"
                rate = 100

                [[workload]]
                name = "script"
                method = "evalsha"
                rate = 10
                script = "return redis.call('incr', KEYS[1])"
                """, "127.0.0.1:6379");
        assertEquals(Arrivals.EXPONENTIAL, c.arrivals());
        assertEquals(90, c.warmupHitrate());
        assertEquals(ConfigResolver.DEFAULT_HITRATE_WARMUP_BOUND, c.warmup(), "a hit-rate warm-up has a bound");
        assertEquals(Duration.ofMillis(300), c.connectTimeout());
        assertEquals(Path.of("out.png"), c.waterfall());
        WorkloadShape fields = c.workloads().get(0).shape();
        assertEquals(new WorkloadShape(1000, 5, 50, 3, WorkloadShape.ValueKind.I64, 1.0, WorkloadShape.ValueMode.PER_KEY,
                null), fields);
        assertEquals(" Key offset: 1000 Members: 5 of 50 (3 bytes) Values: i64", fields.describe(), "the report's words");
        WorkloadShape blobs = c.workloads().get(1).shape();
        assertEquals(4.0, blobs.compressionRatio());
        assertEquals(WorkloadShape.ValueMode.FRESH, blobs.values());
        assertEquals(" Values: bytes, fresh, compressible 4.0:1", blobs.describe());
        assertEquals("", WorkloadShape.DEFAULT.describe());
        assertEquals(Command.EVALSHA, c.workloads().get(3).method());
        assertEquals("return redis.call('incr', KEYS[1])", c.workloads().get(3).shape().script());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "method = \"get\"\\ncardinality = 3 | workload[0].cardinality (line 5): get names one field or member; cardinality above 1 needs one of hget, hset, hdel, sadd, srem, sismember, zadd, zrem, zscore, lpush, rpush",
        "method = \"hset\"\\ncardinality = 5\\ninner-keyspace = 3 | workload[0].cardinality (line 5): 5 different fields or members per request need as many to draw from, and there are 3 (inner-keyspace)",
        "method = \"sadd\"\\ncardinality = 5\\nkeyspace = 4\\nkey-length = 2 | workload[0].cardinality (line 5): 5 different fields or members per request need as many to draw from, and there are 4 (keyspace; give inner-keyspace)",
        "method = \"hset\"\\ninner-key-length = 3 | workload[0].inner-key-length (line 5): needs inner-keyspace (how many fields or members to draw from)",
        "method = \"hset\"\\ninner-keyspace = 500\\ninner-key-length = 2 | workload[0].inner-key-length (line 6): 500 inner keys need an inner key length of 3 to 250 bytes, not 2",
        "method = \"get\"\\nkeyspace = 100\\nkey-length = 4\\nkey-offset = 9950 | workload[0].key-offset (line 7): keys 9950 to 10049 need keys of at least 5 bytes, but the key length is 4",
        "method = \"set\"\\nvalue-kind = \"float\" | workload[0].value-kind (line 5): unknown value kind 'float'; expected bytes or i64",
        "method = \"set\"\\ncompression-ratio = 0.5 | workload[0].compression-ratio (line 5): must be a number of at least 1 (1: not compressible), not 0.5",
        "method = \"set\"\\nvalue-kind = \"i64\"\\ncompression-ratio = 2.0 | workload[0].compression-ratio (line 6): i64 values are numbers; a compression ratio is for bytes values",
        "method = \"set\"\\nvalues = \"sometimes\" | workload[0].values (line 5): unknown values 'sometimes'; expected per-key, fixed or fresh",
        "method = \"get\"\\nscript = \"return 1\" | workload[0].script (line 5): only eval and evalsha run a script, and this workload's method is get",
        "method = \"eval\" | workload[0].method (line 4): eval needs the script to run: add script = \"...\"",
    })
    void mistakesNameTheirKey(String lines, String message) {
        String toml = "[general]\nprotocol = \"redis\"\n[[workload]]\n" + lines.replace("\\n", "\n") + "\n";
        String e = assertThrows(UserError.class, () -> resolve(toml, "127.0.0.1:6379")).getMessage();
        assertEquals(dir.resolve("run.toml") + ": " + message, e);
    }

    @Test
    void theEmbeddedTargetRunsNoScripts() {
        String e = assertThrows(UserError.class, () -> resolve("""
                [general]
                protocol = "redis"
                [[workload]]
                method = "eval"
                script = "return 1"
                """, null)).getMessage();
        assertEquals(dir.resolve("run.toml") + ": workload[0].method (line 4): the embedded redis target does not answer"
                + " eval; give a server with -s HOST:PORT", e);
        RunSettings eval = new RunSettings();
        eval.protocol = "redis";
        eval.server = "127.0.0.1:6379";
        eval.method = "evalsha";
        assertEquals("--method: evalsha needs the script it runs, which only a config file gives (script = \"...\" in a"
                + " [[workload]])", assertThrows(UserError.class, () -> ConfigResolver.resolve(eval.toFlags())).getMessage());
        RunSettings flags = new RunSettings();
        flags.waterfall = Path.of("heat.jpg");
        assertEquals("--waterfall: must name a .png file, not 'heat.jpg'",
                assertThrows(UserError.class, () -> ConfigResolver.resolve(flags.toFlags())).getMessage());
    }
}
