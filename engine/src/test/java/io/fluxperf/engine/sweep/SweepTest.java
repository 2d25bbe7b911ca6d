package io.fluxperf.engine.sweep;

import io.fluxperf.engine.config.KeyspaceConfig;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.protocol.memcache.target.MemcacheTargetServer;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.target.TargetOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sweeps against the embedded memcache server with a reply delay of 2 ms: a first rate that breaks
 * the objective, and a first step that meets a stall. Where the knee falls against the server's
 * capacity, step by step, is checked end to end by the CLI's SweepCommandTest on the sweep's files
 * (one sweep of that scenario in the suite, not two).
 */
@Tag("timing")
class SweepTest {
    private static RunConfig base(MemcacheTargetServer target) {
        WorkloadConfig get = WorkloadConfig.of(Command.GET).withRate(1).withKeyspace(KeyspaceConfig.defaults().withCount(100));
        return RunConfig.builder().server("127.0.0.1:" + target.address().getPort()).threads(1).connections(10).pipeline(1)
                .duration(Duration.ofSeconds(2)).windows(1).warmup(Duration.ofMillis(300)).timeout(Duration.ofSeconds(2)).seed(5)
                .workloads(List.of(get)).build();
    }

    @Test
    void whenTheFirstRateBreaksTheObjectiveThereIsNoKnee() {
        try (MemcacheTargetServer target = MemcacheTargetServer.start(
                TargetOptions.builder().responseDelay(Duration.ofMillis(2)).build())) {
            StepObjective p50 = new PercentileObjective("p50<1ms", 50, 1_000_000);
            List<SweepStep> retried = new ArrayList<>();
            SweepResult r = new Sweep(base(target), new SweepPlan(200, 1000, 200, 0, 3, Duration.ofSeconds(1)), List.of(p50),
                    warmRunner()).onRetry(retried::add).execute();
            assertEquals(2, r.steps().size(), "the first rate once more, and no bisection without a good rate");
            assertNull(r.knee());
            SweepStep s = r.steps().get(0);
            assertTrue(s.failure().startsWith("p50<1ms broken (2."), s.failure()); // the 2 ms delay
            assertEquals(List.of(s), retried);
            SweepStep again = r.steps().get(1);
            assertTrue(again.again() && again.target() == 200 && !again.good(), again.toString());
            assertTrue(r.stoppedBecause().startsWith("at 200/s: p50<1ms broken (2."), r.stoppedBecause());
            assertTrue(SweepTable.kneeLine(r).startsWith("Knee: none"), SweepTable.kneeLine(r));
        }
    }

    /**
     * A first step that meets a stall (here: a server that answers it 2 ms late, where the rest are
     * answered at once) is tried once more before the sweep gives up, and only the first step warms
     * up when the config has no warm-up of its own; with no step failing up to --to, the knee lies
     * above it (issue 46).
     */
    @Test
    void aNoisyFirstStepIsTriedAgainAfterItsOwnWarmup() {
        try (MemcacheTargetServer slow = MemcacheTargetServer.start(
                TargetOptions.builder().responseDelay(Duration.ofMillis(2)).build());
             MemcacheTargetServer fast = MemcacheTargetServer.start(TargetOptions.builder().build())) {
            StepObjective p50 = new PercentileObjective("p50<1ms", 50, 1_000_000);
            RunConfig base = base(fast).toBuilder().warmup(Duration.ZERO).build();
            StepRunner real = warmRunner();
            List<RunConfig> configs = new ArrayList<>();
            StepRunner stalledFirst = (number, rate, config) -> {
                configs.add(config);
                RunConfig c = number == 1 ? config.toBuilder().server("127.0.0.1:" + slow.address().getPort()).build() : config;
                return real.run(number, rate, c);
            };
            List<SweepStep> retried = new ArrayList<>();
            List<SweepStep> seen = new ArrayList<>();
            SweepResult r = new Sweep(base, new SweepPlan(200, 400, 0, 2, 0, Duration.ofSeconds(1)), List.of(p50), stalledFirst)
                    .warmUpFirstStep(Duration.ofMillis(300)).onRetry(retried::add).onStep(seen::add).execute();

            assertEquals(List.of(200.0, 200.0, 400.0), r.steps().stream().map(SweepStep::target).toList(), r.steps().toString());
            assertFalse(r.steps().get(0).good(), r.steps().get(0).toString());
            assertEquals(List.of(r.steps().get(0)), retried);
            assertEquals(r.steps(), seen, "each step is heard as it ends, the retried one too");
            assertTrue(r.steps().get(1).again() && r.steps().get(1).good(), r.steps().get(1).toString());
            assertTrue(r.steps().get(2).good(), r.steps().get(2).toString());
            assertEquals(Duration.ofMillis(300), configs.get(0).warmup(), "the first step warms up");
            assertEquals(Duration.ZERO, configs.get(1).warmup(), "its second try does not");
            assertEquals(Duration.ZERO, configs.get(2).warmup());

            assertTrue(r.kneeAboveTo());
            assertEquals(400, r.knee().target());
            assertTrue(r.stoppedBecause().contains("the knee lies above it"), r.stoppedBecause());
            assertTrue(SweepTable.kneeLine(r).startsWith("Knee: above 400/s, the --to bound"), SweepTable.kneeLine(r));
        }
    }

    /** Steps run as run runs them: the JVM warmed up in-process before the first. */
    private static StepRunner warmRunner() {
        return OrchestratedSteps.withoutFiles(true);
    }
}
