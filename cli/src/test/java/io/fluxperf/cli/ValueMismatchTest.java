package io.fluxperf.cli;

import static io.fluxperf.cli.CliRun.field;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import io.fluxperf.testkit.RedisProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A --hit run whose keys hold another run's values (issue 46, item 3): a sharded agent preloads
 * only its slice of the keys and reads them all, after a plain run wrote every key with another
 * seed. Each read of a key the agent did not write finds a value other than its own: an error
 * counted as a mismatch, with the likely cause named; the reply kept the protocol, so no
 * connection closes, and the server is not blamed.
 */
@ExtendWith(RealServers.class)
class ValueMismatchTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int KEYS = 400;

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"memcache", "memcache-binary", "memcache-meta"})
    void aValueWrittenByAnotherRunIsAMismatchAndTheConnectionStays(String protocol, MemcachedProcess memcached)
            throws IOException {
        assertMismatchesCounted(protocol, memcached.address(), () -> memcached.stats().get("total_connections"));
    }

    @Test
    void redisReadsCheckTheirValuesToo(RedisProcess redis) throws IOException {
        assertMismatchesCounted("redis", redis.address(), () -> redis.stat("total_connections_received"));
    }

    private void assertMismatchesCounted(String protocol, String server, LongSupplier connections) throws IOException {
        CliRun other = CliRun.of("run", "--protocol", protocol, "-s", server, "--method", "set",
                "--seed", "7", "--keyspace", String.valueOf(KEYS), "--distribution", "sequential",
                "--requests", String.valueOf(KEYS), "-c", "1", "-d", "10", "--no-live");
        assertEquals(0, other.exitCode(), other.out() + other.err());
        long connectionsBefore = connections.getAsLong();

        Path json = dir.resolve(protocol + ".json");
        Path out = dir.resolve(protocol);
        CliRun run = CliRun.of("run", "--protocol", protocol, "-s", server, "--method", "get", "--hit",
                "--keyspace", String.valueOf(KEYS), "--requests", "2000", "-c", "4", "-d", "10", "--shard", "0/2",
                "--run-id", "r", "--out", out.toString(), "--json", json.toString(), "--no-live");
        assertEquals(0, run.exitCode(), run.out() + run.err());

        List<String> totals = run.out().lines().filter(l -> l.startsWith("Requests:")).toList();
        String total = totals.get(totals.size() - 1);
        long errors = field(total, "Error:");
        assertEquals(1000, field(total, "Requests:"), "the agent's half of --requests: " + total);
        assertTrue(errors > 250 && errors < 750, "about half the keys are the other run's: " + total);
        assertEquals(1000, field(total, "Ok:") + errors, "every read hit or mismatched: " + total);
        assertEquals(0, field(total, "Closed:"), total);
        String mismatch = "Mismatch: " + errors + " of the errors read a value other than the one this run writes for"
                + " the key (keys written by another workload or run; --flush or a key-offset of its own avoids it)";
        assertEquals(2, run.out().lines().filter(mismatch::equals).count(), "in the window and the total:\n" + run.out());
        assertFalse(run.out().contains("corrupted"), run.out());
        assertFalse(run.out().contains("Errors:"), "no protocol or connection error:\n" + run.out());

        // the connections stayed: the server saw the load's, the shard's clock readings and this test's own
        // (a reconnect per mismatch, as before, was hundreds)
        long opened = connections.getAsLong() - connectionsBefore;
        assertTrue(opened <= 16, "connections opened: " + opened + "\n" + run.out());

        JsonNode result = JSON.readTree(json.toFile());
        for (JsonNode w : List.of(result.get("total"), result.get("windows").get(0), result.get("total").get("workloads").get(0))) {
            assertEquals(errors, w.get("mismatch").asLong(), w.toString());
            assertEquals(errors, w.get("error").asLong(), w.toString());
            assertEquals(w.get("requests").asLong(), w.get("ok").asLong() + w.get("miss").asLong() + w.get("error").asLong()
                    + w.get("timeout").asLong() + w.get("closed").asLong());
        }
        assertEquals(0, result.get("total").get("connections").get("closed").asLong());

        // the run directory holds it too: the report made again equals the one printed
        Path runDir = out.resolve("r").resolve("shard-0");
        CliRun again = CliRun.of("report", runDir.toString());
        assertEquals(0, again.exitCode(), again.err());
        assertEquals(Files.readString(runDir.resolve("report.txt")), again.out());
        assertTrue(again.out().contains(mismatch), again.out());
        assertEquals(errors, JSON.readTree(runDir.resolve("result.json").toFile()).get("total").get("mismatch").asLong());
    }
}
