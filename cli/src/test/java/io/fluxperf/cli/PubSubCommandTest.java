package io.fluxperf.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxperf.testkit.RealServer;
import io.fluxperf.testkit.RealServers;
import io.fluxperf.testkit.RedisProcess;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code run --method publish --subscribers N} from the command line, and its refusal by other protocols. */
@Timeout(120)
@ExtendWith(RealServers.class)
class PubSubCommandTest {
    @RealServer
    private RedisProcess redis;

    @TempDir
    Path tmp;

    @Test
    void publishesToSubscribersAndReconcilesInTextAndJson() throws Exception {
        Path dir = tmp.resolve("run");
        CliRun run = CliRun.of("run", "--protocol", "redis", "-s", redis.address(), "--method", "publish", "--subscribers", "2",
                "--rate", "2000", "--keyspace", "50", "-d", "1", "-w", "2", "--no-live", "--out", dir.toString());
        assertEquals(0, run.exitCode(), run.out() + run.err());
        String total = run.out().substring(run.out().indexOf("Total:"));
        String messages = total.lines().filter(l -> l.startsWith("Messages:")).findFirst().orElseThrow();
        long published = CliRun.field(messages, "published");
        // not a rate test (a busy machine held it to a third of 2,000/s once): what went out must reconcile
        assertTrue(published > 100, messages);
        assertEquals(2 * published, CliRun.field(messages, "delivered"), messages);
        assertEquals(0, CliRun.field(messages, "lost"), messages);
        assertEquals(2, total.lines().filter(l -> l.startsWith("Subscriber ")).count(), total);
        assertTrue(run.out().contains("Subscribers: 2"), "the workload line says so: " + run.out());

        JsonNode result = new ObjectMapper().readTree(dir.resolve("result.json").toFile());
        JsonNode m = result.path("total").path("messages");
        assertEquals(published, m.path("published").asLong());
        assertTrue(m.path("reconciled").asBoolean());
        assertEquals(2, m.path("subscribers").size());
        assertEquals(published, m.path("subscribers").get(1).path("delivered").asLong());
        assertTrue(m.path("subscribers").get(0).path("latency").path("p99").asLong() > 0);
        assertTrue(result.path("windows").get(0).path("messages").path("lost").isNull(), "a window has no lost count");
        CliRun report = CliRun.of("report", dir.toString());
        assertEquals(run.out(), report.out(), "report DIR prints the same");
        assertTrue(Path.of(dir.toString(), "config.toml").toFile().exists());
        assertTrue(java.nio.file.Files.readString(dir.resolve("config.toml")).contains("subscribers = 2"));
    }

    @Test
    void anotherProtocolRefusesPublishInOneSentence() {
        CliRun run = CliRun.of("run", "-s", "127.0.0.1:11211", "--method", "publish", "--subscribers", "2");
        assertEquals(2, run.exitCode(), run.out() + run.err());
        assertTrue(run.err().strip().startsWith("fluxperf: --method: protocol memcache does not support publish; it speaks get,"),
                run.err());
    }
}
