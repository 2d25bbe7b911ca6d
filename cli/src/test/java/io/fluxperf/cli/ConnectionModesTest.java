package io.fluxperf.cli;

import static io.fluxperf.cli.CliRun.field;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Connection per request (CPS), held connections, and the per-second statistics block. */
@ExtendWith(RealServers.class)
class ConnectionModesTest {
    @TempDir
    Path dir;

    @Test
    void connectPerRequestOpensOneConnectionPerRequest(MemcachedProcess memcached) {
        long before = memcached.stats().get("total_connections");
        CliRun run = CliRun.of("run", "-s", memcached.address(), "--connect-per-request", "-c", "25",
                "--requests", "2000", "-d", "30", "--no-live");
        assertEquals(0, run.exitCode(), run.out() + run.err());
        assertEquals(2000, field(run.line("Requests:"), "Ok:") + field(run.line("Requests:"), "Miss:"));
        long made = memcached.stats().get("total_connections") - before - 1; // -1: the stats connection
        // every request on its own connection, and no spare one (mcb's -s and dperf's CPS count them)
        assertEquals(2000, made, "connections made by the run");
        String connect = run.line("Connect:");
        assertTrue(connect.contains("connections/s p50:"), connect);
        String connections = run.line("Connections: attempts");
        assertEquals(made, field(connections, "opened"), connections);
        assertEquals(2000, field(connections, "closed"), "closed after each reply: " + connections);
        // the latency floor's idle connection would be one more for the server to count
        assertTrue(run.out().contains("Floor: not measured (a connection per request)"), run.out());
    }

    @Test
    void heldConnectionsStayOpenAndEverySecondSaysSo() throws Exception {
        Path json = dir.resolve("hold.json");
        CliRun run = CliRun.of("run", "--hold-connections", "5000", "--connect-rate", "20000", "--rate", "500",
                "-d", "4", "--stats-interval", "1", "--timeout", "5s", "--json", json.toString(), "--no-live");
        assertEquals(0, run.exitCode(), run.out() + run.err());
        assertTrue(run.line("Config: Server:").contains("embedded memcache"), run.out());
        List<String> open = run.out().lines().filter(l -> l.startsWith("skOpen")).toList();
        assertTrue(open.size() >= 3, "a block every second: " + open.size());
        for (String line : open.subList(0, open.size() - 1)) {
            assertTrue(line.contains("skCon 5,000"), "all 5000 connections open: " + line);
        }
        JsonNode root = new ObjectMapper().readTree(json.toFile());
        long responses = 0;
        for (JsonNode second : root.get("intervals")) {
            responses += second.get("responses").asLong();
            assertEquals(0, second.get("connectFailures").asLong());
        }
        assertEquals(root.get("total").get("requests").asLong(), responses, "the blocks add up to the run");
        assertEquals(5000, root.get("windows").get(0).get("connections").get("open").asLong());
    }
}
