package io.fluxperf.engine.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.KeyspaceConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.request.Command;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServer;
import io.fluxperf.testkit.RealServers;
import io.fluxperf.trace.TraceReader;
import io.fluxperf.trace.TraceRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The in-process warm-up before a run: what it sends, where, and how fast. */
@ExtendWith(RealServers.class)
class RunOrchestratorWarmupTest {
    @RealServer
    private MemcachedProcess memcached;

    @Test
    void theWarmUpGoesToAnEmbeddedTargetAndTheServerSeesOnlyTheRun() {
        RunConfig config = RunConfig.builder().server(memcached.address()).threads(2).connections(3).requests(400)
                .duration(Duration.ofSeconds(10)).workloads(List.of(WorkloadConfig.of(Command.GET))).build();
        String[] skipped = {null};
        RunResult result = new RunOrchestrator(config, new RunReport() {
            @Override
            public void warmupSkipped(String reason) {
                skipped[0] = reason;
            }
        }).warmUp(new RunOrchestrator.Warmup(3_000, null)).execute();
        assertNull(skipped[0], "both warm-up rounds ran");
        assertEquals(400, result.total().total().outcomes().requests());
        assertEquals(400, memcached.stats().get("cmd_get"), "memcached saw the run's gets, none of the warm-up's");
    }

    @Test
    void aTracedRunWarmsUpTheTraceInAThrowAwayDirectory(@TempDir Path dir) throws IOException {
        Path trace = dir.resolve("trace");
        RunConfig config = RunConfig.builder().server(memcached.address()).connections(2).requests(300)
                .duration(Duration.ofSeconds(10)).workloads(List.of(WorkloadConfig.of(Command.GET))).build();
        RunResult result = new RunOrchestrator(config, new RunReport() { })
                .outputs(new RunOutputs(null, null, trace, false))
                .warmUp(new RunOrchestrator.Warmup(2_000, null)).execute();
        assertEquals(300, result.total().total().outcomes().requests());
        long records = 0;
        try (TraceReader reader = TraceReader.open(trace)) {
            TraceRecord r = new TraceRecord();
            while (reader.next(r)) {
                records++;
            }
        }
        assertEquals(300, records, "the run's trace holds the run's requests, none of the warm-up's");

        WarmupTrace warm = WarmupTrace.open(config);
        Path warmDir = warm.directory();
        assertNotNull(warm.trace());
        assertTrue(Files.isDirectory(warmDir));
        warm.close();
        assertFalse(Files.exists(warmDir), "the warm-up's trace is deleted with its directory");
    }

    @Test
    void aSlowPacedWarmUpIsSpedUpWithItsMixKept() {
        List<WorkloadConfig> slow = List.of(WorkloadConfig.of(Command.GET).withRate(800),
                WorkloadConfig.of(Command.SET).withRate(200));
        List<WorkloadConfig> warm = RunOrchestrator.atLeastMinRate(slow);
        assertEquals(RunOrchestrator.WARMUP_MIN_RATE * 0.8, warm.get(0).rate(), 1e-6);
        assertEquals(RunOrchestrator.WARMUP_MIN_RATE * 0.2, warm.get(1).rate(), 1e-6);

        List<WorkloadConfig> fast = List.of(WorkloadConfig.of(Command.GET).withRate(50_000));
        assertSame(fast, RunOrchestrator.atLeastMinRate(fast), "a run faster than the floor warms up at its own rate");
        List<WorkloadConfig> closed = List.of(WorkloadConfig.of(Command.GET));
        assertSame(closed, RunOrchestrator.atLeastMinRate(closed), "a closed loop has no rate to scale");
    }

    @Test
    void aGeneratedWarmUpPreloadsAtMostItsOwnKeys() {
        KeyspaceConfig large = KeyspaceConfig.defaults().withCount(100_000).withKeyLength(24);
        List<WorkloadConfig> run = List.of(WorkloadConfig.of(Command.GET).withKeyspace(large).withHit(true),
                WorkloadConfig.of(Command.SET));
        List<WorkloadConfig> warm = RunOrchestrator.atMostWarmupKeys(run);
        assertEquals(RunOrchestrator.WARMUP_MAX_KEYS, warm.get(0).keyspace().count());
        assertEquals(24, warm.get(0).keyspace().keyLength(), "the keys keep their length");
        assertTrue(warm.get(0).hit(), "and the reads still hit");
        assertSame(run.get(1), warm.get(1), "a small key space is kept as it is");
    }
}
