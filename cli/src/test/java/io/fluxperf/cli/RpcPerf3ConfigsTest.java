package io.fluxperf.cli;

import static io.fluxperf.cli.RpcPerfRuns.assertShare;
import static io.fluxperf.cli.RpcPerfRuns.assertWarmedUp;
import static io.fluxperf.cli.RpcPerfRuns.byLength;
import static io.fluxperf.cli.RpcPerfRuns.ok;
import static io.fluxperf.cli.RpcPerfRuns.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.target.TargetOptions;
import io.fluxperf.engine.target.TargetServer;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import io.fluxperf.testkit.RedisProcess;
import io.fluxperf.testkit.SelfSignedCertificate;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * rpc-perf 3.x config files, written the way rpc-perf 3's documentation writes them (for these
 * tests, not copied), run against real servers: the servers' own counters and logs show the
 * keyspaces, the command mix, the value lengths and the ttl the file describes.
 */
@ExtendWith(RealServers.class)
class RpcPerf3ConfigsTest {
    @TempDir
    Path dir;

    /** Every [general] key but TLS's; two keyspaces weighted 9:1 (8- and 10-byte keys), get:set 4:1 in each. */
    static final String REDIS3 = """
            [general]
            protocol = "redis_resp"
            interval = 2
            windows = 1
            clients = 2
            poolsize = 2
            tcp_nodelay = true
            request_timeout = 500_000
            connect_timeout = 1_000_000
            request_ratelimit = 5000
            request_distribution = "normal"
            connect_ratelimit = 1000
            warmup_hitrate = 0.9
            waterfall = "PNG"
            endpoints = ["SERVER"]

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
            length = 10
            count = 100
            weight = 1
            commands = [
                {action = "get", weight = 4},
                {action = "set", weight = 1},
            ]
            """;

    @Test
    @Tag("timing") // it judges the run's request count against its rate limit, within 1 %
    void everyKeyAgainstRedis(RedisProcess redis) throws IOException {
        Path png = dir.resolve("waterfall.png");
        Path file = write(dir, "redis3.toml", REDIS3.replace("SERVER", redis.address()).replace("PNG", png.toString()));
        Path trace = dir.resolve("trace");
        CliRun run;
        List<List<String>> commands = new ArrayList<>();
        try (RedisProcess.Monitor monitor = redis.monitor()) {
            run = ok("run", "--config", file.toString(), "--trace", trace.toString(), "--no-live");
            Map<String, Long> calls = redis.commandstats();
            commands.addAll(RpcPerfRuns.monitored(monitor, java.util.Set.of("GET", "SET"),
                    calls.get("get") + calls.get("set")));
        }
        assertWarmedUp(run, 90);
        long requests = CliRun.field(run.line("Requests:"), "Requests:");
        assertTrue(Math.abs(requests - 10_000) <= 100, "request_ratelimit 5000 for a 2-s interval: " + requests);

        Map<String, Long> calls = redis.commandstats();
        assertShare(0.8, calls.get("get"), calls.get("get") + calls.get("set"), "get:set 4:1 at redis");
        Map<Integer, Long> lengths = byLength(commands.stream().map(w -> w.get(1)).toList());
        assertShare(0.9, lengths.get(8), commands.size(), "keyspace 0 (weight 9) in redis' MONITOR");
        assertShare(0.1, lengths.get(10), commands.size(), "keyspace 1 (weight 1) in redis' MONITOR");

        String setKey = commands.stream().filter(w -> w.get(0).equals("SET") && w.get(1).length() == 8)
                .reduce((a, b) -> b).orElseThrow().get(1);
        long ttl = (Long) redis.command("TTL", setKey);
        assertTrue(ttl > 280 && ttl <= 300, "the set's ttl = 300 is on the item: " + ttl);
        String otherKey = commands.stream().filter(w -> w.get(0).equals("SET") && w.get(1).length() == 10)
                .reduce((a, b) -> b).orElseThrow().get(1);
        assertEquals(-1L, redis.command("TTL", otherKey), "keyspace 1's set has no ttl");

        Map<Integer, Long> sizes = new HashMap<>();
        long[] sets = new long[1];
        RpcPerfRuns.eachRecord(trace, r -> {
            if (!r.warmup() && r.command() == Command.SET.ordinal() && r.keyText().length() == 8) {
                sizes.merge(r.valueSize(), 1L, Long::sum);
                sets[0]++;
            }
        });
        assertEquals(3, sizes.size(), sizes.toString());
        assertShare(0.8, sizes.get(64), sets[0], "64-byte values (weight 8) in the trace");
        assertShare(0.1, sizes.get(512), sets[0], "512-byte values (weight 1) in the trace");
        assertShare(0.1, sizes.get(4096), sets[0], "4096-byte values (weight 1) in the trace");

        assertEquals("Waterfall: " + png + " (" + requests + " requests, latency heatmap of the measured run)",
                run.line("Waterfall:"));
        BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(1200, image.getWidth());
        assertEquals(700, image.getHeight());
    }

    @Test
    void rateLimitedMemcacheWithItsEndpointReplacedByServerFlag(MemcachedProcess memcached) {
        Path png = dir.resolve("mc.png");
        Path file = write(dir, "memcache3.toml", """
                [general]
                protocol = "memcache"
                interval = 2
                windows = 1
                clients = 1
                poolsize = 4
                request_ratelimit = 5000
                request_distribution = "uniform"
                endpoints = ["127.0.0.1:1"]
                waterfall = "PNG"

                [[keyspace]]
                length = 6
                count = 10000
                weight = 9
                commands = [
                    {action = "get", weight = 4},
                    {action = "set", weight = 1},
                ]
                values = [{length = 100, weight = 1}]

                [[keyspace]]
                length = 7
                count = 10000
                weight = 1
                commands = [
                    {action = "get", weight = 4},
                    {action = "set", weight = 1},
                ]
                """.replace("PNG", png.toString()));
        CliRun run;
        List<String> keys;
        try (MemcachedProcess.Watch watch = memcached.watch()) {
            run = ok("run", "--config", file.toString(), "-s", memcached.address(), "--no-live");
            Map<String, Long> stats = memcached.stats();
            keys = watch.awaitCommands(stats.get("cmd_get") + stats.get("cmd_set"), Duration.ofSeconds(10));
            assertEquals(0, watch.skipped());
        }
        Map<String, Long> stats = memcached.stats();
        assertShare(0.8, stats.get("cmd_get"), stats.get("cmd_get") + stats.get("cmd_set"), "get:set 4:1");
        long requests = CliRun.field(run.line("Requests:"), "Requests:");
        assertTrue(Math.abs(requests - 10000) <= 100, "5,000/s for 2 s: " + requests);
        assertEquals(requests, keys.size(), "-s replaced the file's endpoint: memcached got every request");
        Map<Integer, Long> lengths = byLength(keys);
        assertShare(0.9, lengths.get(6), keys.size(), "keyspace 0 (weight 9) in memcached's log");
        assertTrue(Files.exists(png), "the waterfall is drawn without --trace too");
        assertTrue(run.line("Waterfall:").startsWith("Waterfall: " + png), run.out());
    }

    @Test
    void tlsTableTrustsItsCa() {
        SelfSignedCertificate cert = SelfSignedCertificate.create(dir, "server");
        try (TargetServer target = Protocols.startTarget("memcache",
                TargetOptions.builder().tls(cert.certificate(), cert.privateKey()).build())) {
            Path file = write(dir, "tls3.toml", """
                    [general]
                    protocol = "memcache"
                    interval = 1
                    windows = 1
                    endpoints = ["SERVER"]

                    [tls]
                    ca_file = "CA"
                    verify_hostname = true

                    [[keyspace]]
                    length = 4
                    count = 100
                    commands = [{action = "set", weight = 1}, {action = "get", weight = 1}]
                    """.replace("SERVER", "127.0.0.1:" + target.address().getPort())
                    .replace("CA", cert.certificate().toString()));
            CliRun run = ok("run", "--config", file.toString(), "--requests", "500", "--no-live");
            assertEquals(500, CliRun.field(run.line("Requests:"), "Requests:"));
            assertEquals(500, target.stats().command("get") + target.stats().command("set"),
                    "the TLS target answered them all");
        }
    }
}
