package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import io.fluxperf.testkit.RedisProcess;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run pointed at a server of another kind: no latency floor is made of its error replies, and
 * when not one reply could be read the report ends with the {@code --protocol} to try.
 */
@ExtendWith(RealServers.class)
class WrongServerTest {
    @TempDir
    Path dir;

    @Test
    void memcacheAgainstRedisNamesRedis(RedisProcess redis) {
        Path out = dir.resolve("run");
        CliRun run = CliRun.of("run", "-s", "127.0.0.1:" + redis.port(), "-d", "1", "--rate", "20", "--no-live",
                "--out", out.toString());
        assertEquals(0, run.exitCode(), "a run with errors exits as any run: " + run.err());
        String floor = run.line("Config: Floor:");
        assertTrue(floor.startsWith("Config: Floor: not measured (the server answered version with '-ERR"), floor);
        assertTrue(floor.endsWith("does the server speak memcache? That is how redis answers: try --protocol redis)"), floor);
        String hint = run.line("Hint:");
        assertEquals("Hint: no reply could be read, each was unexpected: does the server speak memcache?"
                + " That is how redis answers: try --protocol redis", hint);
        assertEquals(1, run.out().lines().filter(l -> l.startsWith("Hint:")).count(), run.out());

        CliRun report = CliRun.of("report", out.toString());
        assertEquals(0, report.exitCode(), report.err());
        assertEquals(hint, report.line("Hint:"), "made again from the run directory");
    }

    @Test
    void redisAgainstMemcachedNamesMemcache(MemcachedProcess memcached) {
        CliRun run = CliRun.of("run", "--protocol", "redis", "-s", memcached.address(), "-d", "1", "--rate", "20",
                "--no-live");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("Config: Floor: not measured (the server answered PING with 'ERROR': does the server speak redis?"
                + " That is how memcache answers: try --protocol memcache)", run.line("Config: Floor:"));
        assertEquals("Hint: no reply could be read, each was unexpected: does the server speak redis?"
                + " That is how memcache answers: try --protocol memcache", run.line("Hint:"));
    }

    @Test
    void theRightServerGetsNoHint(MemcachedProcess memcached) {
        CliRun run = CliRun.of("run", "-s", memcached.address(), "-d", "1", "--rate", "20", "--no-live");
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.line("Config: Floor:").startsWith("Config: Floor: p50 "), run.line("Config: Floor:"));
        assertFalse(run.out().contains("Hint:"), run.out());
    }
}
