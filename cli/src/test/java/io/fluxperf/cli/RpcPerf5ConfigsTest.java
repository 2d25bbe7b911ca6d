package io.fluxperf.cli;

import static io.fluxperf.cli.RpcPerfRuns.assertShare;
import static io.fluxperf.cli.RpcPerfRuns.byLength;
import static io.fluxperf.cli.RpcPerfRuns.ok;
import static io.fluxperf.cli.RpcPerfRuns.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.engine.target.TargetOptions;
import io.fluxperf.engine.target.TargetServer;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import io.fluxperf.testkit.RedisProcess;
import io.fluxperf.testkit.SelfSignedCertificate;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.Deflater;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * rpc-perf 5.x config files, written the way rpc-perf 5's documentation writes them (for these
 * tests, not copied), run against real servers: the servers' own counters and logs show the
 * keyspaces, the verbs and their cardinality, the ttl and the kinds of value the file describes.
 */
@ExtendWith(RealServers.class)
class RpcPerf5ConfigsTest {
    @TempDir
    Path dir;

    /**
     * Every key of each table: keyspace 0 (8-byte keys, weight 9) gets and sets compressible
     * values with a ttl, keyspace 1 (6-byte keys, weight 1) sets five counter fields of a hash at
     * a time and increments one.
     */
    static final String REDIS5 = """
            [general]
            protocol = "resp"
            interval = 2
            duration = 2
            admin = "127.0.0.1:0"
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
            vlen = 1024
            vkind = "bytes"
            compression_ratio = 4.0
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
            inner_keys_nkeys = 50
            vkind = "i64"
            commands = [
                { verb = "hset", weight = 1, cardinality = 5 },
                { verb = "hincrby", weight = 1 },
            ]
            """;

    @Test
    @Tag("timing") // it judges the run's request count against its rate limit, within 1 %
    void everyKeyAgainstRedis(RedisProcess redis) {
        Path file = write(dir, "redis5.toml", REDIS5.replace("SERVER", redis.address()));
        CliRun run;
        List<List<String>> commands = new ArrayList<>();
        try (RedisProcess.Monitor monitor = redis.monitor()) {
            run = ok("run", "--config", file.toString(), "--no-live");
            Map<String, Long> calls = redis.commandstats();
            long sent = calls.get("get") + calls.get("set") + calls.get("hset") + calls.get("hincrby");
            commands.addAll(RpcPerfRuns.monitored(monitor, Set.of("GET", "SET", "HSET", "HINCRBY"), sent));
        }
        assertTrue(run.err().contains("fluxperf: admin endpoint on http://127.0.0.1:"), "[general] admin serves the admin endpoint:\n"
                + run.err());
        for (String note : List.of("debug (line 8)", "metrics (line 11)",
                "workload.threads (line 26)")) {
            assertTrue(run.err().contains("fluxperf: note: " + file + ": " + note), note + " in:\n" + run.err());
        }
        long requests = CliRun.field(run.line("Requests:"), "Requests:");
        assertTrue(Math.abs(requests - 10_000) <= 100, "ratelimit start = 5000 for 2 s: " + requests);

        Map<String, Long> calls = redis.commandstats();
        long get = calls.get("get");
        long set = calls.get("set");
        assertShare(0.8, get, get + set, "get:set 4:1 at redis");
        assertShare(0.5, calls.get("hset"), calls.get("hset") + calls.get("hincrby"), "hset:hincrby 1:1 at redis");
        List<List<String>> load = commands.stream().filter(w -> Set.of("GET", "SET", "HSET", "HINCRBY").contains(w.get(0)))
                .toList();
        Map<Integer, Long> lengths = byLength(load.stream().map(w -> w.get(1)).toList());
        assertShare(0.9, lengths.get(8), load.size(), "keyspace 0 (weight 9) in redis' MONITOR");
        assertShare(0.1, lengths.get(6), load.size(), "keyspace 1 (weight 1) in redis' MONITOR");

        for (List<String> w : load) {
            if (w.get(0).equals("HSET")) {
                assertEquals(12, w.size(), "cardinality = 5: HSET key and five field-value pairs: " + w);
                Set<String> fields = new HashSet<>();
                for (int i = 2; i < 12; i += 2) {
                    assertEquals(3, w.get(i).length(), "inner_keys_klen = 3: " + w);
                    assertTrue(Integer.parseInt(w.get(i)) < 50, "inner_keys_nkeys = 50: " + w);
                    Long.parseLong(w.get(i + 1)); // vkind = "i64"
                    fields.add(w.get(i));
                }
                assertEquals(5, fields.size(), "five different fields: " + w);
            } else if (w.get(0).equals("HINCRBY")) {
                assertEquals(4, w.size(), w.toString());
            }
        }

        String setKey = load.stream().filter(w -> w.get(0).equals("SET")).reduce((a, b) -> b).orElseThrow().get(1);
        long ttl = (Long) redis.command("TTL", setKey);
        assertTrue(ttl > 880 && ttl <= 900, "ttl = \"15m\" on the set keys: " + ttl);
        byte[] value = ((String) redis.command("GET", setKey)).getBytes(StandardCharsets.ISO_8859_1);
        assertEquals(1024, value.length);
        Deflater deflater = new Deflater();
        deflater.setInput(value);
        deflater.finish();
        int compressed = deflater.deflate(new byte[4096]);
        deflater.end();
        double ratio = (double) value.length / compressed;
        assertTrue(ratio > 3 && ratio < 5, "compression_ratio = 4.0: the stored value deflates " + ratio + " to 1");
        Object counter = redis.command("HGET", load.stream().filter(w -> w.get(0).equals("HINCRBY")).findFirst()
                .orElseThrow().get(1), load.stream().filter(w -> w.get(0).equals("HINCRBY")).findFirst().orElseThrow().get(2));
        Long.parseLong((String) counter); // a counter hincrby incremented
    }

    @Test
    void memcacheKeyspacesAndServerFlag(MemcachedProcess memcached) {
        Path file = write(dir, "memcache5.toml", """
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
                weight = 9
                klen = 6
                nkeys = 500
                vlen = 64
                commands = [
                    { verb = "get", weight = 4 },
                    { verb = "set", weight = 1 },
                ]

                [[workload.keyspace]]
                weight = 1
                klen = 9
                nkeys = 500
                vkind = "i64"
                commands = [
                    { verb = "set", weight = 1 },
                    { verb = "get", weight = 4 },
                ]
                """);
        List<String> keys;
        CliRun run;
        try (MemcachedProcess.Watch watch = memcached.watch()) {
            run = ok("run", "--config", file.toString(), "-s", memcached.address(), "--no-live");
            Map<String, Long> stats = memcached.stats();
            keys = watch.awaitCommands(stats.get("cmd_get") + stats.get("cmd_set"), Duration.ofSeconds(10));
            assertEquals(0, watch.skipped());
        }
        Map<String, Long> stats = memcached.stats();
        assertShare(0.8, stats.get("cmd_get"), stats.get("cmd_get") + stats.get("cmd_set"), "get:set 4:1");
        assertEquals(CliRun.field(run.line("Requests:"), "Requests:"), keys.size(), "-s replaced the endpoint");
        assertShare(0.9, byLength(keys).get(6), keys.size(), "keyspace 0 (weight 9) in memcached's log");
        String counter = memcached.keys().stream().filter(k -> k.length() == 9).findFirst().orElseThrow();
        long stored = Long.parseLong(new String(memcached.get(counter), StandardCharsets.US_ASCII));
        assertTrue(stored >= 0, "vkind = \"i64\": a number memcached's incr takes: " + stored);
    }

    @Test
    void tlsTableTrustsItsCa() {
        SelfSignedCertificate cert = SelfSignedCertificate.create(dir, "server");
        // the embedded memcache target speaks TLS (the redis one does not)
        try (TargetServer target = Protocols.startTarget("memcache",
                TargetOptions.builder().tls(cert.certificate(), cert.privateKey()).build())) {
            Path file = write(dir, "tls5.toml", """
                    [general]
                    protocol = "memcache"
                    interval = 1
                    duration = 1

                    [target]
                    endpoints = ["SERVER"]

                    [tls]
                    ca_file = "CA"
                    verify_hostname = true

                    [[workload.keyspace]]
                    klen = 4
                    nkeys = 100
                    commands = [{ verb = "set" }, { verb = "get" }]
                    """.replace("SERVER", "127.0.0.1:" + target.address().getPort())
                    .replace("CA", cert.certificate().toString()));
            CliRun run = ok("run", "--config", file.toString(), "--requests", "500", "--no-live");
            assertEquals(500, CliRun.field(run.line("Requests:"), "Requests:"));
            assertEquals(500, target.stats().command("get") + target.stats().command("set"),
                    "the TLS target answered them all");
        }
    }
}
