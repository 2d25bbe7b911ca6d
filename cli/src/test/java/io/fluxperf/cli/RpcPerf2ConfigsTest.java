package io.fluxperf.cli;

import static io.fluxperf.cli.RpcPerfRuns.assertShare;
import static io.fluxperf.cli.RpcPerfRuns.assertWarmedUp;
import static io.fluxperf.cli.RpcPerfRuns.byLength;
import static io.fluxperf.cli.RpcPerfRuns.ok;
import static io.fluxperf.cli.RpcPerfRuns.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import io.fluxperf.testkit.RedisProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * rpc-perf 0.2 / 2.x config files, written the way rpc-perf 2's documentation writes them (for
 * these tests, not copied), run against real servers: the servers' own counters and logs show
 * the workload the file describes. rpc-perf 2 has no keyspace weights, value-length weights, ttl
 * or cardinality: its workloads' rates make the mix.
 */
@ExtendWith(RealServers.class)
class RpcPerf2ConfigsTest {
    @TempDir
    Path dir;

    /**
     * Every [general] key, and workloads over two key spaces (6- and 8-byte keys) at rates 9:1,
     * get:set 4:1 in each.
     */
    static final String MEMCACHE2 = """
            # a mixed workload the way rpc-perf 2 writes one
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
            warmup = 90.0

            [[workload]]
            name = "get"
            method = "get"
            rate = 3600
              [[workload.parameter]]
              style = "random"
              size = 6
              num = 500
              regenerate = true

            [[workload]]
            name = "set"
            method = "set"
            rate = 900
              [[workload.parameter]]
              style = "random"
              size = 6
              num = 500
              regenerate = true
              [[workload.parameter]]
              style = "random"
              size = 48
              regenerate = false

            [[workload]]
            name = "get-small"
            method = "get"
            rate = 400
              [[workload.parameter]]
              style = "random"
              size = 8
              num = 50
              seed = 3
              regenerate = true

            [[workload]]
            name = "set-small"
            method = "set"
            rate = 100
              [[workload.parameter]]
              style = "random"
              size = 8
              num = 50
              seed = 3
              regenerate = true
              [[workload.parameter]]
              style = "random"
              size = 16
              regenerate = true
            """;

    @Test
    void everyKeyAgainstMemcached(MemcachedProcess memcached) {
        Path file = write(dir, "memcache2.toml", MEMCACHE2);
        CliRun run;
        List<String> commands;
        try (MemcachedProcess.Watch watch = memcached.watch()) {
            run = ok("run", "--config", file.toString(), "-s", memcached.address(), "--no-live");
            Map<String, Long> stats = memcached.stats();
            commands = watch.awaitCommands(stats.get("cmd_get") + stats.get("cmd_set"), Duration.ofSeconds(10));
            assertEquals(0, watch.skipped(), "memcached logged every command");
        }
        assertTrue(run.err().contains("fluxperf: note: " + file + ": general.ipv4 (line 9)"), run.err());
        assertWarmedUp(run, 90);
        Map<String, Long> stats = memcached.stats();
        long gets = stats.get("cmd_get");
        long sets = stats.get("cmd_set");
        assertShare(0.8, gets, gets + sets, "get:set 4:1 at memcached");
        Map<Integer, Long> lengths = byLength(commands);
        assertShare(0.9, lengths.get(6), commands.size(), "6-byte keys (rates 3600 + 900 of 5000) in memcached's log");
        assertShare(0.1, lengths.get(8), commands.size(), "8-byte keys (rates 400 + 100 of 5000) in memcached's log");

        Set<String> six = new HashSet<>();
        Set<String> eight = new HashSet<>();
        for (String k : memcached.keys()) {
            (k.length() == 6 ? six : eight).add(k);
        }
        assertTrue(six.size() <= 500 && six.size() > 450, "random with num = 500 touches at most 500 keys: " + six.size());
        assertTrue(eight.size() <= 50 && eight.size() > 40, "num = 50: " + eight.size());
        Set<String> values = new HashSet<>();
        for (String k : six) {
            byte[] v = memcached.get(k);
            assertEquals(48, v.length);
            values.add(new String(v, StandardCharsets.ISO_8859_1));
        }
        assertEquals(1, values.size(), "regenerate = false keeps one value for every key");
        Set<String> fresh = new HashSet<>();
        for (String k : eight) {
            fresh.add(new String(memcached.get(k), StandardCharsets.ISO_8859_1));
        }
        assertTrue(fresh.size() > 20, "regenerate = true makes a new value each time: " + fresh.size() + " different");
    }

    @Test
    void staticKeyIsOneKeyChosenBySeed(MemcachedProcess memcached) {
        Path file = write(dir, "hotkey2.toml", """
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
        assertEquals(List.of("0007"), memcached.keys(), "static sends the same key every time, the one the seed picks");
        assertEquals(3000, CliRun.field(run.line("Requests:"), "Requests:"));
        Map<String, Long> stats = memcached.stats();
        assertEquals(3000, stats.get("cmd_get") + stats.get("cmd_set"));
    }

    /**
     * A probe beside the load, as rpc-perf 2's files mix them: a workload at rate 0 loads memcached
     * as fast as it answers while one at 1,000/s measures latency on a thread and connections of its
     * own. The probe's rate is held within 1 % in every window, its latency is reported apart, and
     * memcached served every request the report counts.
     */
    @Test
    @org.junit.jupiter.api.Tag("timing") // a window's length is the load threads' hand-over, which a busy machine delays
    void aRatedWorkloadBesideARateZeroOneIsAProbe(MemcachedProcess memcached) throws Exception {
        Path file = write(dir, "probe2.toml", """
                [general]
                threads = 1
                connections = 4
                protocol = "memcache"

                [[workload]]
                name = "load"
                method = "get"
                rate = 0
                  [[workload.parameter]]
                  style = "random"
                  size = 6
                  num = 5000

                [[workload]]
                name = "probe"
                method = "get"
                rate = 1000
                  [[workload.parameter]]
                  style = "random"
                  size = 8
                  num = 500
                """);
        Path json = dir.resolve("probe.json");
        // a second's warm-up: the windows then start with the probe's schedule under way, not with its connections
        CliRun run = ok("run", "--config", file.toString(), "-s", memcached.address(), "-d", "1", "-w", "3", "--warmup", "1",
                "--no-live", "--json", json.toString());
        assertTrue(run.out().contains("Threads: 2 "), "the probe's thread beside the one that loads: " + run.out());
        com.fasterxml.jackson.databind.JsonNode r = new com.fasterxml.jackson.databind.ObjectMapper().readTree(json.toFile());
        for (com.fasterxml.jackson.databind.JsonNode w : r.path("windows")) {
            com.fasterxml.jackson.databind.JsonNode probe = w.path("workloads").get(1);
            com.fasterxml.jackson.databind.JsonNode load = w.path("workloads").get(0);
            assertEquals("probe", probe.path("name").asText());
            // the probe holds its rate within 1 %, or the window's trust names what held the client (a busy
            // machine stalls it for 100 ms and more, and the backlog then leaves in the next window)
            com.fasterxml.jackson.databind.JsonNode trust = null;
            for (com.fasterxml.jackson.databind.JsonNode t : r.path("trust").path("windows")) {
                trust = t.path("window").asInt() == w.path("number").asInt() ? t : trust;
            }
            assertTrue(trust != null, "the window's trust: " + r.path("trust"));
            boolean held = Math.abs(probe.path("rate").asDouble() - 1000) <= 10;
            assertTrue(held || trust.path("pauses").size() > 0 || trust.path("clientLimited").size() > 0,
                    "window " + w.path("number") + ": " + probe + "\n" + trust);
            assertTrue(!held || !probe.path("belowTarget").asBoolean(), "held, so not below its target: " + probe);
            assertTrue(load.path("rate").asDouble() > 3 * probe.path("rate").asDouble(), "the load saturates: " + load);
            assertTrue(probe.path("latency").path("p50").asLong() > 0, "the probe's latency apart: " + probe);
            assertTrue(load.path("latency").path("p50").asLong() > 0, load.toString());
        }
        assertTrue(run.out().contains("Workload 1 (probe): "), run.out());
        long requests = r.path("total").path("requests").asLong();
        assertTrue(memcached.stats().get("cmd_get") >= requests, "memcached served every request counted (and the warm-up's)");
    }

    @Test
    void warmupTablesLoadTheKeysAndTheHitRateEndsTheWarmup(MemcachedProcess memcached) {
        Path file = write(dir, "warmup2.toml", """
                [general]
                connections = 2
                duration = 1
                windows = 1
                warmup = 95.0

                [[warmup]]
                name = "fill"
                method = "set"
                rate = 1000
                  [[warmup.parameter]]
                  style = "random"
                  size = 5
                  num = 2000
                  regenerate = true

                [[workload]]
                name = "get"
                method = "get"
                rate = 2000
                  [[workload.parameter]]
                  style = "random"
                  size = 5
                  num = 2000
                  regenerate = true
                """);
        CliRun run = ok("run", "--config", file.toString(), "-s", memcached.address(), "--no-live");
        assertWarmedUp(run, 95);
        assertEquals(2000, memcached.stats().get("curr_items"), "the warm-up wrote every key the reads read");
        assertEquals(100.0, CliRun.decimal(run.line("Rate:"), "Hitrate:"), 0.001, run.line("Rate:"));
    }

    @Test
    void evalAndEvalshaRunTheScriptBody(RedisProcess redis) {
        Path file = write(dir, "eval2.toml", """
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
                script-body = "return redis.call('incr', KEYS[1])"
                  [[workload.parameter]]
                  style = "random"
                  size = 4
                  num = 100
                  regenerate = true
                """);
        ok("run", "--config", file.toString(), "-s", redis.address(), "--requests", "2000", "--no-live");
        Map<String, Long> calls = redis.commandstats();
        long eval = calls.getOrDefault("eval", 0L);
        long evalsha = calls.getOrDefault("evalsha", 0L);
        assertEquals(2000, eval + evalsha, calls.toString());
        assertShare(0.5, eval, 2000, "eval at redis");
        assertEquals(2, calls.get("script|load"), "each of the 2 connections loads the evalsha script once: " + calls);
        assertEquals(8, ((String) redis.command("GET", "042")).length(), "eval's script set the key to ARGV[1]");
        long counted = 0;
        for (int k = 0; k < 100; k++) {
            Object v = redis.command("GET", String.format("%04d", k));
            counted += v instanceof String s ? Long.parseLong(s) : 0;
        }
        assertEquals(evalsha, counted, "evalsha's script counted each call on its key");
    }
}
