package io.fluxperf.engine.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxperf.engine.config.KeyspaceConfig;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.ValueSize;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.HitrateWarmup;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.StopReason;
import io.fluxperf.engine.report.WindowFigures;
import io.fluxperf.engine.request.Command;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServer;
import io.fluxperf.testkit.RealServers;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The warm-up to a hit rate (--warmup-hitrate) against a real memcached: it ends at the first
 * one-second check that reaches the target, or at its bound (--warmup), and the text report and
 * the JSON result say which, with the hit rate and the time.
 */
@ExtendWith(RealServers.class)
class RunOrchestratorWarmupHitrateTest {
    private static final Pattern COMPLETE =
            Pattern.compile("Warmup complete: hit rate (\\d+\\.\\d) % after (\\d+\\.\\d) s \\(target 90 %\\)");

    @RealServer
    private MemcachedProcess memcached;

    @TempDir
    Path dir;

    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();

    private RunResult run(RunConfig config, Path json) {
        PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);
        return new RunOrchestrator(config, new TextRunReport(out, out, false))
                .outputs(new RunOutputs(json, null, null, false)).execute();
    }

    private List<String> lines() {
        return printed.toString(StandardCharsets.UTF_8).lines().toList();
    }

    private static RunConfig.Builder base(MemcachedProcess memcached) {
        return RunConfig.builder().server(memcached.address()).threads(2).connections(2).pipeline(1)
                .duration(Duration.ofSeconds(1)).windows(1).timeout(Duration.ofSeconds(1)).seed(3);
    }

    @Test
    void getsAndSetsOnAThousandKeysReachNinetyPercentBeforeTheBound() throws Exception {
        // sets at 2,000/s fill 1,000 keys: the reads of the first second hit about 57 %, of the
        // second about 94 %, so the warm-up ends at the second check, long before its bound
        KeyspaceConfig keys = KeyspaceConfig.defaults().withCount(1000);
        WorkloadConfig get = WorkloadConfig.of(Command.GET).withRate(2000).withKeyspace(keys);
        WorkloadConfig set = WorkloadConfig.of(Command.SET).withRate(2000).withKeyspace(keys).withBytes(ValueSize.fixed(32));
        memcached.command("flush_all");
        RunConfig config = base(memcached).warmup(Duration.ofSeconds(10)).warmupHitrate(90).workloads(List.of(get, set))
                .build();
        Path json = dir.resolve("result.json");
        RunResult result = run(config, json);

        HitrateWarmup w = result.warmup();
        assertNotNull(w, "the result says how the warm-up ended");
        assertTrue(w.reached(), w.toString());
        assertTrue(w.hitratePercent() >= 90, w.toString());
        assertTrue(w.seconds() >= 1.9 && w.seconds() < 10, "ended at a one-second check after the first: " + w);
        assertEquals(90, w.targetPercent());
        assertEquals(10, w.boundSeconds());
        assertEquals(StopReason.COMPLETED, result.stopReason());
        Double measured = WindowFigures.hitratePercent(result.windows().get(0), config.workloads());
        assertTrue(measured != null && measured >= 90, "the window is measured after the warm-up: " + measured);

        List<String> out = lines();
        String line = out.stream().filter(l -> l.startsWith("Warmup")).findFirst().orElseThrow(() -> new AssertionError(out));
        Matcher m = COMPLETE.matcher(line);
        assertTrue(m.matches(), line);
        assertTrue(Double.parseDouble(m.group(1)) >= 90, line);
        assertTrue(Double.parseDouble(m.group(2)) < 10, line);
        assertEquals("-----", out.get(out.indexOf(line) - 1));
        assertTrue(out.indexOf(line) < out.indexOf("Window: 1"), "the window follows the warm-up");
        assertTrue(out.stream().anyMatch(l -> l.contains("Warmup: 10 s (ends early at a hit rate of 90 %)")), out::toString);

        JsonNode warmup = new ObjectMapper().readTree(Files.readString(json)).get("warmup");
        assertTrue(warmup.get("reached").asBoolean(), warmup::toString);
        assertEquals(w.hitratePercent(), warmup.get("hitratePercent").asDouble(), 1e-9);
        assertEquals(w.seconds(), warmup.get("seconds").asDouble(), 1e-9);
        assertEquals(90, warmup.get("targetHitratePercent").asDouble());
        assertEquals(10, warmup.get("boundSeconds").asDouble());
    }

    @Test
    void getsAfterAFlushNeverHitAndTheBoundEndsTheWarmUp() throws Exception {
        memcached.command("set 0000000000000001 0 0 1\r\nx");
        WorkloadConfig get = WorkloadConfig.of(Command.GET).withFlush(true).withRate(2000)
                .withKeyspace(KeyspaceConfig.defaults().withCount(1000));
        RunConfig config = base(memcached).warmup(Duration.ofSeconds(2)).warmupHitrate(90).workload(get).build();
        Path json = dir.resolve("result.json");
        long started = System.nanoTime();
        RunResult result = run(config, json);
        double seconds = (System.nanoTime() - started) / 1e9;

        HitrateWarmup w = result.warmup();
        assertNotNull(w);
        assertFalse(w.reached(), w.toString());
        assertEquals(0.0, w.hitratePercent(), w.toString());
        assertEquals(2, w.seconds(), 0.2, "ran to its bound: " + w);
        assertTrue(seconds >= 3, "warm-up and window: " + seconds + " s");
        assertTrue(lines().contains("Warmup ended at its bound of 2 s: hit rate 0.0 %, short of the 90 % target"),
                lines()::toString);
        assertFalse(lines().stream().anyMatch(l -> l.startsWith("Warmup complete")), lines()::toString);
        JsonNode warmup = new ObjectMapper().readTree(Files.readString(json)).get("warmup");
        assertFalse(warmup.get("reached").asBoolean());
        assertEquals(0.0, warmup.get("hitratePercent").asDouble());
    }

    @Test
    void aWarmUpOfFixedLengthLeavesNoHitrateInTheResult() throws Exception {
        RunConfig config = base(memcached).warmup(Duration.ofMillis(300)).requests(0)
                .workload(WorkloadConfig.of(Command.GET).withRate(1000)).build();
        Path json = dir.resolve("result.json");
        RunResult result = run(config, json);
        assertNull(result.warmup());
        assertTrue(lines().contains("Warmup complete"), lines()::toString);
        assertTrue(new ObjectMapper().readTree(Files.readString(json)).get("warmup").isNull());
    }
}
