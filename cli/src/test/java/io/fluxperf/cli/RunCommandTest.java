package io.fluxperf.cli;

import static io.fluxperf.cli.CliRun.decimal;
import static io.fluxperf.cli.CliRun.field;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServer;
import io.fluxperf.testkit.RealServers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** {@code fluxperf run} end to end, against a real memcached and against the embedded target. */
@ExtendWith(RealServers.class)
class RunCommandTest {
    @RealServer
    private static MemcachedProcess memcached;

    @TempDir
    Path dir;

    @Test
    void getWithHitHitsEverything() {
        CliRun run = CliRun.of("run", "-s", memcached.address(), "--method", "get", "--hit", "--keyspace", "1000",
                "-c", "4", "-d", "1", "--no-live");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(100.0, decimal(run.line("Rate:"), "Hitrate:"));
        assertTrue(run.out().contains("Preloaded: 1000 keys"), run.out());
        assertTrue(run.line("Config: Server:").contains(memcached.address()));
    }

    @Test
    void getAfterFlushMisses() {
        CliRun run = CliRun.of("run", "-s", memcached.address(), "--method", "get", "--flush", "-c", "2",
                "--requests", "500", "-d", "10", "--no-live");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(0.0, decimal(run.line("Rate:"), "Hitrate:"));
        assertEquals(500, field(run.line("Requests:"), "Requests:"));
        assertEquals(500, field(run.line("Requests:"), "Miss:"));
    }

    @Test
    void everyWindowReconcilesInTextAndJson() throws IOException {
        Path json = dir.resolve("result.json");
        Path hlog = dir.resolve("run.hlog");
        CliRun run = CliRun.of("run", "-s", memcached.address(), "--method", "get", "--rate", "3000", "-c", "3",
                "-d", "1", "-w", "2", "--json", json.toString(), "--hdr-log", hlog.toString(), "--no-live");
        assertEquals(0, run.exitCode(), run.err());
        List<String> requestLines = run.out().lines().filter(l -> l.startsWith("Requests:")).toList();
        assertEquals(3, requestLines.size(), "two windows and the total: " + run.out());
        for (String line : requestLines) {
            assertEquals(field(line, "Requests:"), field(line, "Ok:") + field(line, "Miss:") + field(line, "Error:")
                    + field(line, "Timeout:") + field(line, "Closed:"), line);
        }
        JsonNode root = new ObjectMapper().readTree(json.toFile());
        assertEquals(2, root.get("windows").size());
        long windowSum = 0;
        for (JsonNode w : root.get("windows")) {
            assertEquals(w.get("requests").asLong(), w.get("ok").asLong() + w.get("miss").asLong()
                    + w.get("error").asLong() + w.get("timeout").asLong() + w.get("closed").asLong());
            windowSum += w.get("requests").asLong();
        }
        assertEquals(windowSum, root.get("total").get("requests").asLong());
        assertEquals(field(requestLines.get(2), "Requests:"), root.get("total").get("requests").asLong());
        assertEquals(3000, root.get("config").get("workloads").get(0).get("rate").asDouble());
        assertTrue(Files.size(hlog) > 0);
    }

    @Test
    void withoutServerItLoadsTheEmbeddedTarget() {
        CliRun run = CliRun.of("run", "--method", "set", "--bytes", "100", "-c", "2", "--requests", "2000",
                "-d", "10", "--no-live");
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.line("Config: Server:").contains("embedded memcache on 127.0.0.1:"), run.out());
        assertEquals(2000, field(run.line("Requests:"), "Ok:"));
    }

    @Test
    void rateZeroRunsClosedLoopAsARateLeftOutDoes() {
        CliRun run = CliRun.of("run", "-s", memcached.address(), "--method", "set", "-c", "1", "--rate", "0", "--requests", "200",
                "--no-live");
        CliRun.assertAllOk(run, 200);
        assertTrue(run.line("Workload 0:").contains("Rate: unlimited"), run.out());
    }

    @Test
    void tcpNoDelayIsOnByDefaultAndCanBeTurnedOff() {
        CliRun on = CliRun.of("run", "-s", memcached.address(), "-c", "1", "--requests", "10", "--no-live");
        assertTrue(on.line("Config: TCP_NODELAY:").startsWith("Config: TCP_NODELAY: true"), on.out());
        CliRun flag = CliRun.of("run", "-s", memcached.address(), "-c", "1", "--requests", "10", "--tcp-nodelay", "--no-live");
        assertTrue(flag.line("Config: TCP_NODELAY:").startsWith("Config: TCP_NODELAY: true"), flag.out());
        CliRun off = CliRun.of("run", "-s", memcached.address(), "-c", "1", "--requests", "10", "--tcp-nodelay=false", "--no-live");
        assertEquals(0, off.exitCode(), off.err());
        assertTrue(off.line("Config: TCP_NODELAY:").startsWith("Config: TCP_NODELAY: false"), off.out());
    }
}
