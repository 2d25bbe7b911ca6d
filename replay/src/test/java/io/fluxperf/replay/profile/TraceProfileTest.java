package io.fluxperf.replay.profile;

import io.fluxperf.engine.config.KeyDistribution;
import io.fluxperf.engine.config.KeyspaceConfig;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.connection.ServerAddress;
import io.fluxperf.engine.load.LoadRun;
import io.fluxperf.engine.load.RunListener;
import io.fluxperf.engine.metrics.OutcomeCounts;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.report.JsonReport;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.trace.RunTrace;
import io.fluxperf.replay.ReadableLog;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A fluxperf trace records every request's outcome: its profile's hit rate is the run's own. */
@ExtendWith(RealServers.class)
class TraceProfileTest {
    @TempDir
    Path dir;

    @Test
    void theHitRateOfARunsTraceIsThatOfItsGets(MemcachedProcess memcached) {
        KeyspaceConfig keys = new KeyspaceConfig(200, 10, KeyDistribution.UNIFORM, 0.99);
        // gets of preloaded keys, some of which the deletes remove: hits and misses both
        List<WorkloadConfig> workloads = List.of(
                WorkloadConfig.of(Command.GET).withRate(600).withKeyspace(keys).withHit(true),
                WorkloadConfig.of(Command.DELETE).withRate(100).withKeyspace(keys));
        RunConfig config = RunConfig.builder().server(memcached.address()).threads(1).connections(2).pipeline(1)
                .duration(Duration.ofMillis(800)).windows(1).timeout(Duration.ofSeconds(1)).tcpNoDelay(true)
                .seed(7).workloads(workloads).build();
        Path trace = dir.resolve("trace");
        RunResult run;
        try (RunTrace t = RunTrace.open(trace, config, new JsonReport().configJson(config))) {
            run = new LoadRun(config, new RunListener() { }).trace(t)
                    .execute(ServerAddress.parse(memcached.address(), "--server"), memcached.address());
        }
        OutcomeCounts gets = run.total().workloads().get(0).outcomes();
        assertTrue(gets.ok() > 0 && gets.miss() > 0, "hits and misses: " + gets.ok() + " and " + gets.miss());

        LogProfile p = Profiler.of(ReadableLog.open(trace, null), false);
        assertEquals("trace", p.format());
        assertEquals(gets.ok() + gets.miss(), p.repliedReads());
        assertEquals((double) gets.ok() / (gets.ok() + gets.miss()), p.hitRate(), 1e-9);
        assertTrue(ProfileText.of(p).contains(String.format(java.util.Locale.ROOT,
                "Hit rate: %.2f %% (of %d reads the original server answered)", 100.0 * p.hitRate(), p.repliedReads())),
                ProfileText.of(p));
    }
}
