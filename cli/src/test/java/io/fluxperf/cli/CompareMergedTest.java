package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.engine.target.TargetOptions;
import io.fluxperf.engine.target.TargetServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** compare and report --html take a merged directory like any other: two runs made together add up to twice one. */
@Tag("timing")
class CompareMergedTest {
    @TempDir
    Path tmp;

    @Test
    void aMergeOfTwoRunsHasTwiceTheRequestsPerSecondOfOne() throws Exception {
        List<Path> dirs = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (TargetServer server = Protocols.startTarget("memcache", TargetOptions.defaults())) {
            String address = "127.0.0.1:" + server.address().getPort();
            CountDownLatch go = new CountDownLatch(1);
            List<Future<CliRun>> runs = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                Path dir = tmp.resolve("host" + i);
                dirs.add(dir);
                runs.add(pool.submit(() -> {
                    go.await();
                    return CliRun.of("run", "-s", address, "--method", "get", "--rate", "300", "-c", "2", "-d", "4",
                            "--seed", "3", "--out", dir.toString(), "--no-live");
                }));
            }
            go.countDown();
            for (Future<CliRun> f : runs) {
                CliRun run = f.get(60, TimeUnit.SECONDS);
                assertEquals(0, run.exitCode(), run.out() + run.err());
            }
        } finally {
            pool.shutdownNow();
        }
        Path merged = tmp.resolve("all");
        CliRun merge = CliRun.of("merge", dirs.get(0).toString(), dirs.get(1).toString(), "--out", merged.toString());
        assertEquals(0, merge.exitCode(), merge.out() + merge.err());

        CliRun compare = CliRun.of("compare", dirs.get(0).toString(), merged.toString(), "--json");
        assertEquals(0, compare.exitCode(), compare.err());
        JsonNode rate = CompareCommandTest.figure(new ObjectMapper().readTree(compare.out()), "requests/s");
        JsonNode versus = rate.get("versus").get(0);
        assertTrue(versus.get("ratio").asDouble() > 1.9 && versus.get("ratio").asDouble() < 2.1, rate.toString());
        assertEquals("faster", versus.get("verdict").asText(), "more requests/s: " + rate);

        Path html = tmp.resolve("all.html");
        CliRun report = CliRun.of("report", merged.toString(), "--html", html.toString());
        assertEquals(0, report.exitCode(), report.err());
        assertTrue(Files.readString(html).contains("\"rate\":[["), "the merged seconds' requests/s are on the page");
    }
}
