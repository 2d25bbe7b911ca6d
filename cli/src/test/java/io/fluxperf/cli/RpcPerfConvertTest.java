package io.fluxperf.cli;

import static io.fluxperf.cli.RpcPerfRuns.ok;
import static io.fluxperf.cli.RpcPerfRuns.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.testkit.RealServers;
import io.fluxperf.testkit.RedisProcess;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code fluxperf convert}: an rpc-perf file of each generation and its conversion to fluxperf's
 * own TOML, each run against a redis-server of its own, send the same workload (the same
 * workloads in the runs' config echo, and each command's share of the servers' counts within half
 * a point); and what fluxperf cannot do is one sentence, exit 2, in run and
 * convert alike.
 */
@ExtendWith(RealServers.class)
class RpcPerfConvertTest {
    @TempDir
    Path dir;

    static final String REDIS2 = """
            [general]
            threads = 1
            connections = 2
            duration = 2
            windows = 1
            protocol = "redis"

            [[workload]]
            name = "get"
            method = "get"
            rate = 3000
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
            name = "script"
            method = "evalsha"
            rate = 500
            script-body = "return redis.call('incr', KEYS[1])"
              [[workload.parameter]]
              style = "static"
              size = 4
              seed = 9
            """;

    static String file(String generation) {
        return switch (generation) {
            case "2" -> REDIS2;
            case "3" -> RpcPerf3ConfigsTest.REDIS3.replace("warmup_hitrate = 0.9\n", "")
                    .replace("waterfall = \"PNG\"\n", "");
            default -> RpcPerf5ConfigsTest.REDIS5;
        };
    }

    @ParameterizedTest
    @ValueSource(strings = {"2", "3", "5"})
    void convertedFileSendsTheSameWorkload(String generation, RedisProcess a, RedisProcess b) {
        Path original = write(dir, "rpc-perf-" + generation + ".toml", file(generation).replace("SERVER", a.address()));
        CliRun convert = CliRun.of("convert", original.toString());
        assertEquals(0, convert.exitCode(), convert.err());
        assertTrue(convert.out().startsWith("# fluxperf config converted from " + original + " (rpc-perf "), convert.out());
        Path converted = write(dir, "converted-" + generation + ".toml", convert.out());
        CliRun forced = CliRun.of("convert", converted.toString());
        assertEquals(convert.out(), forced.out(), "the conversion is fluxperf's own TOML: converting it again keeps it");
        CliRun fromOriginal = ok("run", "--config", original.toString(), "-s", a.address(), "--no-live");
        CliRun fromConverted = ok("run", "--config", converted.toString(), "-s", b.address(), "--no-live");
        // the rates, sizes and methods each run applied, as its config echo shows them
        assertEquals(fromOriginal.out().lines().filter(l -> l.matches("Workload \\d+: Name: .*")).toList(),
                fromConverted.out().lines().filter(l -> l.matches("Workload \\d+: Name: .*")).toList(),
                "rpc-perf " + generation + ": the workloads as run");
        Map<String, Long> ca = a.commandstats();
        Map<String, Long> cb = b.commandstats();
        List<String> commands = List.of("get", "set", "hset", "hincrby", "evalsha");
        long total = commands.stream().mapToLong(c -> ca.getOrDefault(c, 0L)).sum();
        long totalB = commands.stream().mapToLong(c -> cb.getOrDefault(c, 0L)).sum();
        // at least a second's worth, so that the shares mean something: a loaded machine's 2 s run sent 78 % of 9,000
        assertTrue(total > 4_500 && totalB > 4_500, "the runs sent their load (2 s at 4,500/s or 5,000/s): " + ca + " " + cb);
        // what the servers saw: each command's share of the total within half a point, which a workload's rate
        // converted 10 % off misses. Not the counts: a loaded machine moves a paced 2 s run's start and end in
        // every workload alike (counts within 1 % failed by 1.4 %; once 5,966 commands against 8,810, in the same 6:2:1)
        for (String c : commands) {
            long x = ca.getOrDefault(c, 0L);
            long y = cb.getOrDefault(c, 0L);
            assertEquals(x == 0, y == 0, "rpc-perf " + generation + ", " + c + ": sent by one file only: " + ca + " " + cb);
            assertEquals(100.0 * x / total, 100.0 * y / totalB, 0.5, "rpc-perf " + generation + ", " + c + ": " + x
                    + " of " + total + " from the rpc-perf file, " + y + " of " + totalB + " from its conversion");
        }
    }

    @Test
    void unsupportedProtocolsAndKeysAreOneSentenceAndExit2() {
        Path thrift = write(dir, "thrift.toml", """
                [general]
                protocol = "thrift"
                threads = 1
                [[workload]]
                method = "get"
                  [[workload.parameter]]
                  size = 1
                """);
        Path ramp = write(dir, "ramp.toml", """
                [general]
                protocol = "resp"
                interval = 1
                [target]
                endpoints = ["127.0.0.1:6379"]
                [workload.ratelimit]
                start = 6000
                end = 5000
                step = 1000
                interval = 10
                [[workload.keyspace]]
                klen = 4
                nkeys = 10
                commands = [{ verb = "get" }]
                """);
        Path lrem = write(dir, "lrem.toml", """
                [general]
                protocol = "resp"
                interval = 1
                [target]
                endpoints = ["127.0.0.1:6379"]
                [[workload.keyspace]]
                klen = 4
                nkeys = 10
                commands = [{ verb = "lrem" }]
                """);
        Path softTimeout = write(dir, "soft.toml", """
                [general]
                protocol = "memcache"
                soft_timeout = true
                [[keyspace]]
                length = 3
                commands = [{ action = "get" }]
                """);
        for (String[] c : List.of(
                new String[] {thrift.toString(), "general.protocol (line 2): rpc-perf's protocol 'thrift' is not one fluxperf speaks"},
                new String[] {ramp.toString(), "workload.ratelimit.start (line 7): is above end (6000 > 5000)"},
                new String[] {lrem.toString(), "workload.keyspace[0].commands[0].verb (line 9): 'lrem' is not a command fluxperf sends"},
                new String[] {softTimeout.toString(), "general.soft_timeout (line 3): fluxperf ends a request at its timeout"})) {
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
