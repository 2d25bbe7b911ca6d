package io.fluxperf.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxperf.testkit.FreePorts;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServer;
import io.fluxperf.testkit.RealServers;
import io.fluxperf.testkit.RedisProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code run} with several servers from the command line and from a config file: a line per
 * server in each window and statistics block, a per-server section in the JSON result (and none
 * for one server), and the mistakes a user can make with pools and clusters, each one sentence
 * with exit code 2.
 */
@ExtendWith(RealServers.class)
@Timeout(120)
class PoolCommandTest {
    @TempDir
    Path dir;

    @RealServer
    private static MemcachedProcess a;
    @RealServer
    private static MemcachedProcess b;
    @RealServer
    private static MemcachedProcess c;

    @Test
    void aPoolRunReportsEachServer() throws IOException {
        Path json = dir.resolve("pool.json");
        CliRun run = CliRun.of("run", "-s", a.address(), "-s", b.address(), "-s", c.address() + ":2", "--method", "set",
                "--requests", "3000", "-d", "30", "-c", "2", "--stats-interval", "1", "--no-live", "--json", json.toString());
        CliRun.assertAllOk(run, 3000);
        assertTrue(run.out().contains("Config: Server: " + a.address() + ", " + b.address() + ", " + c.address()
                + ":2 (ketama) Protocol: memcache"), run.out());
        long total = 0;
        for (MemcachedProcess m : List.of(a, b, c)) {
            String line = run.out().lines().dropWhile(l -> !l.equals("Total:"))
                    .filter(l -> l.startsWith("Server " + m.address() + ": ")).findFirst().orElseThrow();
            long requests = CliRun.field(line, "Requests:");
            assertEquals(requests, CliRun.field(line, "Ok:"), line);
            assertTrue(line.matches(".* Rate: \\d+ rps p50: \\d+ ns p99: \\d+ ns p999: \\d+ ns"), line);
            total += requests;
        }
        assertEquals(3000, total, "the servers' requests add up");
        assertTrue(run.out().lines().anyMatch(l -> l.matches("server " + a.address() + " +responses [\\d,]+ +rps .*p999 .*")),
                "a statistics block has a line per server: " + run.out());
        JsonNode result = new ObjectMapper().readTree(json.toFile());
        assertEquals("ketama", result.at("/config/pool/distribution").asText());
        assertEquals(c.address() + ":2", result.at("/config/pool/servers/2").asText());
        JsonNode servers = result.at("/total/servers");
        assertEquals(3, servers.size(), result.toPrettyString());
        long jsonTotal = 0;
        for (JsonNode s : servers) {
            jsonTotal += s.get("requests").asLong();
            assertTrue(s.get("p999").asLong() >= s.get("p50").asLong());
            assertTrue(s.get("moved").isNull() || !s.has("moved") || s.get("moved").isNull(), "no redirects in a pool");
        }
        assertEquals(3000, jsonTotal);
        assertTrue(result.at("/total/redirects").isMissingNode(), "redirects are a cluster's");
        assertEquals(3, result.at("/intervals/0/servers").size(), "a statistics block's servers");
        // the heavier server takes about half the keys
        long heavier = servers.get(2).get("requests").asLong();
        assertTrue(heavier > 1200 && heavier < 1800, "weight 2 of 4: " + heavier);
    }

    @Test
    void serversFromAConfigFile() throws IOException {
        Path toml = dir.resolve("pool.toml");
        Files.writeString(toml, "[general]\nservers = [\"" + a.address() + "\", \"" + b.address() + "\"]\n"
                + "distribution = \"modula\"\nrequests = 500\nconnections = 1\n\n[[workload]]\nmethod = \"set\"\n");
        CliRun run = CliRun.of("run", "--config", toml.toString(), "--no-live");
        CliRun.assertAllOk(run, 500);
        assertTrue(run.out().contains("(modula)"), run.out());
        assertTrue(run.out().contains("Server " + b.address() + ": Requests: "), run.out());
    }

    @Test
    void oneServerKeepsItsReportAndJson() throws IOException {
        Path json = dir.resolve("one.json");
        CliRun run = CliRun.of("run", "-s", a.address(), "--method", "set", "--requests", "200", "-c", "1",
                "--stats-interval", "1", "--no-live", "--json", json.toString());
        CliRun.assertAllOk(run, 200);
        assertFalse(run.out().contains("Server "), "no per-server line: " + run.out());
        assertFalse(run.out().lines().anyMatch(l -> l.startsWith("server ")), run.out());
        JsonNode result = new ObjectMapper().readTree(json.toFile());
        assertTrue(result.at("/config/pool").isMissingNode());
        assertTrue(result.at("/total/servers").isMissingNode());
        assertTrue(result.at("/intervals/0/servers").isMissingNode());
        assertNull(result.get("total").get("redirects"));
    }

    @Test
    void clusterMistakesAreOneSentence(RedisProcess plainRedis) throws IOException {
        int closed = FreePorts.tcp();
        assertOneSentence(CliRun.of("run", "--protocol", "redis", "--cluster", "-s", plainRedis.address(), "-d", "1"),
                "--cluster: " + plainRedis.address() + " is not a redis Cluster node");
        assertOneSentence(CliRun.of("run", "--protocol", "redis", "--cluster", "-s", "127.0.0.1:" + closed, "-d", "1"),
                "--cluster: no node answered to give the slot map (127.0.0.1:" + closed + ": connection refused)");
        assertOneSentence(CliRun.of("run", "--protocol", "redis", "--cluster", "-s", plainRedis.address(), "--method", "get",
                "--keys-per-request", "5", "-d", "1"), "--keys-per-request: 5 keys per request would span slots");
        assertOneSentence(CliRun.of("run", "--cluster", "-s", a.address(), "-d", "1"),
                "--cluster: protocol memcache has no cluster mode");
        Path log = dir.resolve("monitor.log");
        Files.writeString(log, "OK\n1700000000.000000 [0 127.0.0.1:50000] \"SET\" \"k\" \"v\"\n");
        assertOneSentence(CliRun.of("replay", "--cluster", "-s", "127.0.0.1:" + closed, "-l", log.toString(), "--no-live"),
                "--cluster: no node answered to give the slot map");
        assertOneSentence(CliRun.of("replay", "--cluster", "-s", plainRedis.address(), "-l", log.toString(), "--no-live"),
                "--cluster: " + plainRedis.address() + " is not a redis Cluster node");
    }

    private static void assertOneSentence(CliRun run, String start) {
        assertEquals(2, run.exitCode(), run.out() + run.err());
        List<String> lines = run.err().lines().toList();
        assertEquals(1, lines.size(), run.err());
        assertTrue(lines.get(0).startsWith("fluxperf: " + start), lines.get(0));
        assertFalse(run.err().contains("Exception") || run.err().contains("\tat "), run.err());
    }
}
