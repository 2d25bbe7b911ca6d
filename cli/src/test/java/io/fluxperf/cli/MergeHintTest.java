package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A merged run keeps the hint of a server of another kind (no reply could be read) only when it
 * holds for the whole: every input has it. One input whose server answered is enough to drop it,
 * since then some replies of the merged run were read.
 */
@ExtendWith(RealServers.class)
class MergeHintTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    /**
     * Redis commands to memcached: every reply is unexpected, and the run ends with the hint. Run
     * on a thread of its own, so that two of them measure together, as a merge wants.
     */
    private Future<Path> wrongProtocolRun(ExecutorService pool, CountDownLatch go, MemcachedProcess memcached, String name) {
        Path dir = tmp.resolve(name);
        return pool.submit(() -> {
            go.await();
            CliRun run = CliRun.of("run", "--protocol", "redis", "-s", memcached.address(), "-d", "1s", "--rate", "100",
                    "-c", "2", "--no-live", "--out", dir.toString());
            assertEquals(0, run.exitCode(), run.out() + run.err());
            assertTrue(run.out().contains("\nHint: no reply could be read"), run.out());
            assertTrue(result(dir).path("errors").path("hint").asText().contains("try --protocol memcache"), run.out());
            return dir;
        });
    }

    private static JsonNode result(Path dir) throws Exception {
        return JSON.readTree(dir.resolve("result.json").toFile());
    }

    @Test
    void theHintIsKeptWhenEveryInputHasItAndDroppedOtherwise(MemcachedProcess memcached) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        CountDownLatch go = new CountDownLatch(1);
        Future<Path> runA = wrongProtocolRun(pool, go, memcached, "a");
        Future<Path> runB = wrongProtocolRun(pool, go, memcached, "b");
        go.countDown();
        Path a = runA.get(60, TimeUnit.SECONDS);
        Path b = runB.get(60, TimeUnit.SECONDS);
        pool.shutdown();

        Path both = tmp.resolve("both");
        CliRun merge = CliRun.of("merge", a.toString(), b.toString(), "--out", both.toString());
        assertEquals(0, merge.exitCode(), merge.out() + merge.err());
        assertEquals(result(a).path("errors").path("hint"), result(both).path("errors").path("hint"));
        String report = CliRun.of("report", both.toString()).out();
        assertTrue(report.contains("\nHint: no reply could be read"), report);

        // b as an input whose server answered: the same run's figures without the hint
        ObjectNode answered = (ObjectNode) result(b);
        ((ObjectNode) answered.get("errors")).remove("hint");
        Files.writeString(b.resolve("result.json"), JSON.writeValueAsString(answered));
        Path mixed = tmp.resolve("mixed");
        merge = CliRun.of("merge", a.toString(), b.toString(), "--out", mixed.toString());
        assertEquals(0, merge.exitCode(), merge.out() + merge.err());
        JsonNode errors = result(mixed).path("errors");
        assertFalse(errors.has("hint"), errors.toString());
        assertEquals(result(a).path("errors").path("protocol").asLong() + answered.path("errors").path("protocol").asLong(),
                errors.path("protocol").asLong(), "the counts still add up");
        report = CliRun.of("report", mixed.toString()).out();
        assertTrue(report.contains("\nTotal:"), report);
        assertFalse(report.contains("Hint:"), report);
    }
}
