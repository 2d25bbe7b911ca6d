package io.fluxperf.engine.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.StopReason;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Outcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static io.fluxperf.engine.report.Fixtures.SECOND;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JsonReportTest {
    private final ObjectMapper mapper = new ObjectMapper();

    private JsonNode written(RunResult result, Path dir) throws Exception {
        Path file = dir.resolve("out/result.json");
        new JsonReport("1.2.3").write(result, file);
        return mapper.readTree(Files.readString(file));
    }

    private static void assertReconciles(JsonNode w) {
        long sum = w.get("ok").asLong() + w.get("miss").asLong() + w.get("error").asLong()
                + w.get("timeout").asLong() + w.get("closed").asLong();
        assertEquals(w.get("requests").asLong(), sum, w::toString);
    }

    @Test
    void everyWindowEveryWorkloadAndTheTotal(@TempDir Path dir) throws Exception {
        RunConfig config = Fixtures.config(Fixtures.setAndGet());
        RunResult result = Fixtures.run(config, StopReason.COMPLETED,
                Fixtures.mixedWindow(1, 10 * SECOND), Fixtures.mixedWindow(2, 11 * SECOND));
        JsonNode root = written(result, dir);

        assertEquals("1.2.3", root.get("fluxperf").asText());
        assertEquals("127.0.0.1:11211", root.get("target").asText());
        assertEquals("completed", root.get("stopReason").asText());
        assertEquals(0, root.get("preloadedKeys").asLong());
        assertEquals(2, root.get("windows").size());

        JsonNode w2 = root.get("windows").get(1);
        assertEquals(2, w2.get("number").asInt());
        assertEquals(SECOND, w2.get("start").asLong(), "ns since the first window started");
        assertEquals(2 * SECOND, w2.get("end").asLong());
        assertEquals(1.0, w2.get("seconds").asDouble());
        assertEquals(10, w2.get("requests").asLong());
        assertEquals(7, w2.get("ok").asLong());
        assertEquals(2, w2.get("miss").asLong());
        assertEquals(1, w2.get("error").asLong());
        assertEquals(10.0, w2.get("rate").asDouble());
        assertEquals(90.0, w2.get("successPercent").asDouble());
        assertEquals(100.0 * 4 / 6, w2.get("hitratePercent").asDouble(), 1e-9);
        JsonNode latency = w2.get("latency");
        assertEquals(10, latency.get("count").asLong());
        assertEquals(100, latency.get("min").asLong());
        assertEquals(1000, latency.get("max").asLong());
        assertEquals(550, latency.get("mean").asLong());
        assertEquals(287, latency.get("stddev").asLong());
        assertEquals(500, latency.get("p50").asLong());
        assertEquals(900, latency.get("p90").asLong());
        assertEquals(1000, latency.get("p99").asLong());
        assertEquals(1000, latency.get("p999").asLong());
        assertEquals(1000, latency.get("p9999").asLong());
        assertEquals(250, w2.get("service").get("p50").asLong());
        assertTrue(w2.get("sendLag").isNull(), "closed loop has no intended send time");
        assertTrue(w2.get("busiestLoadThreadCpuShare").isNull(), "the fixture's loop CPU is unknown");
        assertEquals(0, w2.get("connections").get("failures").asLong());
        assertEquals(200, w2.get("bytesSent").asLong());

        JsonNode get = w2.get("workloads").get(1);
        assertEquals(1, get.get("index").asInt());
        assertEquals("get", get.get("name").asText());
        assertEquals("get", get.get("method").asText());
        assertEquals(0.0, get.get("targetRate").asDouble());
        assertEquals(7, get.get("requests").asLong());
        assertEquals(7.0, get.get("rate").asDouble());
        assertEquals(700, get.get("latency").get("p50").asLong());
        assertEquals(140, get.get("bytesSent").asLong());
        assertEquals(70, get.get("bytesReceived").asLong());
        assertTrue(w2.get("workloads").get(0).get("hitratePercent").isNull(), "set does not read");

        JsonNode total = root.get("total");
        assertEquals(0, total.get("number").asInt());
        assertEquals(0, total.get("start").asLong());
        assertEquals(2 * SECOND, total.get("end").asLong());
        assertEquals(20, total.get("requests").asLong());
        assertEquals(10.0, total.get("rate").asDouble());
        assertEquals(20, total.get("latency").get("count").asLong());
    }

    @Test
    void theBusiestLoadThreadsShareOfEachWindowAndOfTheRun(@TempDir Path dir) throws Exception {
        RunConfig config = Fixtures.config(Fixtures.setAndGet());
        RunResult result = Fixtures.run(config, StopReason.COMPLETED,
                Fixtures.withLoopCpu(Fixtures.mixedWindow(1, 10 * SECOND), 600_000_000L, 100_000_000L),
                Fixtures.withLoopCpu(Fixtures.mixedWindow(2, 11 * SECOND), 200_000_000L, 950_000_000L));
        JsonNode root = written(result, dir);
        assertEquals(0.6, root.get("windows").get(0).get("busiestLoadThreadCpuShare").asDouble(), 1e-9);
        assertEquals(0.95, root.get("windows").get(1).get("busiestLoadThreadCpuShare").asDouble(), 1e-9);
        assertEquals(0.525, root.get("total").get("busiestLoadThreadCpuShare").asDouble(), 1e-9,
                "thread 1: 1.05 s of CPU in 2 s");
    }

    @Test
    void requestsEqualTheSumOfOutcomesInEveryWindowAndWorkload(@TempDir Path dir) throws Exception {
        List<WorkloadConfig> rated = Fixtures.ratedSetAndGet();
        RunConfig config = Fixtures.config(rated);
        WindowResult w1 = Fixtures.window(1, 0, SECOND, rated,
                new Fixtures.Stats().replies(Outcome.OK, 5, 100).noReply(Outcome.TIMEOUT, 3),
                new Fixtures.Stats().replies(Outcome.MISS, 4, 200).replies(Outcome.ERROR, 2, 300)
                        .noReply(Outcome.CLOSED, 6));
        WindowResult w2 = Fixtures.window(2, SECOND, 2 * SECOND, rated,
                new Fixtures.Stats().noReply(Outcome.CLOSED, 1),
                new Fixtures.Stats().replies(Outcome.OK, 9, 400));
        JsonNode root = written(Fixtures.run(config, StopReason.INTERRUPTED, w1, w2), dir);

        for (JsonNode w : root.get("windows")) {
            assertReconciles(w);
            for (JsonNode wl : w.get("workloads")) {
                assertReconciles(wl);
            }
        }
        assertReconciles(root.get("total"));
        for (JsonNode wl : root.get("total").get("workloads")) {
            assertReconciles(wl);
        }
        assertEquals(30, root.get("total").get("requests").asLong());
        assertEquals(3, root.get("total").get("timeout").asLong());
        assertEquals(7, root.get("total").get("closed").asLong());
        assertEquals("interrupted", root.get("stopReason").asText());
        // open loop: the send lag is there, and both workloads missed their rates
        assertEquals(10, root.get("windows").get(0).get("sendLag").get("count").asLong());
        assertTrue(root.get("windows").get(0).get("workloads").get(1).get("belowTarget").asBoolean());
        assertEquals(5000.0, root.get("windows").get(0).get("workloads").get(1).get("targetRate").asDouble());
    }

    @Test
    void hitrateIsNullWhenNothingWasRead(@TempDir Path dir) throws Exception {
        List<WorkloadConfig> sets = List.of(WorkloadConfig.of(Command.SET));
        RunConfig config = Fixtures.config(sets);
        WindowResult w = Fixtures.window(1, 0, SECOND, sets, new Fixtures.Stats().reply(Outcome.OK, 100));
        JsonNode root = written(Fixtures.run(config, StopReason.COMPLETED, w), dir);
        assertTrue(root.get("windows").get(0).get("hitratePercent").isNull());
        assertTrue(root.get("total").get("hitratePercent").isNull());
        assertEquals(100.0, root.get("total").get("successPercent").asDouble());
    }

    @Test
    void effectiveConfigWithEveryField(@TempDir Path dir) throws Exception {
        RunConfig config = Fixtures.config(List.of(WorkloadConfig.of(Command.GET).withRate(50000).withHit(true)
                .withKeysPerRequest(4).withTtlSeconds(30)));
        WindowResult w = Fixtures.window(1, 0, SECOND, config.workloads(), new Fixtures.Stats());
        JsonNode c = written(Fixtures.run(config, StopReason.COMPLETED, w), dir).get("config");
        assertEquals("127.0.0.1:11211", c.get("server").asText());
        assertEquals("memcache", c.get("protocol").asText());
        assertEquals(1, c.get("threads").asInt());
        assertEquals(25, c.get("connections").asInt());
        assertEquals(1, c.get("pipeline").asInt());
        assertEquals(60_000, c.get("durationMs").asLong());
        assertEquals(1, c.get("windows").asInt());
        assertEquals(0, c.get("warmupMs").asLong());
        assertEquals(1000, c.get("timeoutMs").asLong());
        assertEquals(false, c.get("tcpNoDelay").asBoolean());
        assertEquals(0, c.get("requests").asLong());
        assertEquals(42, c.get("seed").asLong());
        assertEquals(true, c.get("openLoop").asBoolean());
        JsonNode wl = c.get("workloads").get(0);
        assertEquals("get", wl.get("name").asText());
        assertEquals("get", wl.get("method").asText());
        assertEquals(50000.0, wl.get("rate").asDouble());
        assertEquals(1, wl.get("weight").asInt());
        assertEquals("fixed", wl.get("bytes").get("kind").asText());
        assertEquals(64, wl.get("bytes").get("bytes").asInt());
        assertEquals(10000, wl.get("keyspace").get("count").asLong());
        assertEquals(16, wl.get("keyspace").get("keyLength").asInt());
        assertEquals("uniform", wl.get("keyspace").get("distribution").asText());
        assertTrue(wl.get("hit").asBoolean());
        assertEquals(false, wl.get("flush").asBoolean());
        assertEquals(4, wl.get("keysPerRequest").asInt());
        assertEquals(30, wl.get("ttlSeconds").asInt());
    }
}
