package io.fluxperf.engine.sweep;

import io.fluxperf.engine.config.KeyspaceConfig;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.protocol.memcache.target.MemcacheTargetServer;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.target.TargetOptions;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sweeps against the embedded memcache server with a reply delay: 2 ms per reply on 10 connections
 * of one request each holds at most 5,000/s, so the knee falls where the capacity is; the rates
 * tried are far from it on both sides (a shared machine's stalls must not decide the test).
 */
@Tag("timing")
class SweepTest {
    @TempDir
    Path tmp;

    private static RunConfig base(MemcacheTargetServer target) {
        WorkloadConfig get = WorkloadConfig.of(Command.GET).withRate(1).withKeyspace(KeyspaceConfig.defaults().withCount(100));
        return RunConfig.builder().server("127.0.0.1:" + target.address().getPort()).threads(1).connections(10).pipeline(1)
                .duration(Duration.ofSeconds(2)).windows(1).warmup(Duration.ofMillis(300)).timeout(Duration.ofSeconds(2)).seed(5)
                .workloads(List.of(get)).build();
    }

    @Test
    void theKneeIsTheHighestRateTheDelayedServerHolds() throws Exception {
        try (MemcacheTargetServer target = MemcacheTargetServer.start(
                TargetOptions.builder().responseDelay(Duration.ofMillis(2)).build())) {
            StepObjective p50 = new PercentileObjective("p50<20ms", 50, 20_000_000);
            SweepPlan plan = new SweepPlan(250, 50_000, 0, 6, 1, Duration.ofSeconds(2));
            List<SweepStep> seen = new ArrayList<>();
            SweepResult r = new Sweep(base(target), plan, List.of(p50), warmRunner()).onStep(seen::add).execute();

            // 250 and 1,500 held (5 % and 30 % of 5,000/s); 9,000 not; the bisection tries 5,250: not either
            assertEquals(List.of(250.0, 1500.0, 9000.0, 5250.0), r.steps().stream().map(SweepStep::target).toList(),
                    r.steps().toString());
            assertEquals(r.steps(), seen, "each step is heard as it ends");
            assertTrue(r.steps().get(0).good() && r.steps().get(1).good(), r.steps().toString());
            SweepStep bad = r.steps().get(2);
            assertFalse(bad.good());
            assertFalse(bad.reached(), bad.toString());
            assertTrue(bad.achieved() < 5100, "the server's capacity caps what a step achieves: " + bad.achieved());
            assertTrue(r.steps().get(3).refinement());
            assertFalse(r.steps().get(3).good());
            assertEquals(1500, r.knee().target());
            assertTrue(r.stoppedBecause().startsWith("at 9,000/s: "), r.stoppedBecause());
            SweepStep good = r.steps().get(1);
            assertTrue(good.p50() >= 2_000_000, "the delay is in the latency: " + good.p50());
            assertTrue(Math.abs(good.achieved() - 1500) < 15, "achieved " + good.achieved());
            assertEquals(0, good.errors());

            String table = tableOf(r);
            assertTrue(table.contains("Knee: 1,500/s"), table);
            assertTrue(table.lines().anyMatch(l -> l.startsWith("3 ") && l.contains("9,000") && l.contains("no: ")), table);

            SweepPlot plot = new SweepPlot(r, List.of(p50), "sweep test");
            Path png = Path.of("target", "sweep-test.png").toAbsolutePath(); // left for a person to look at
            plot.writePng(png);
            BufferedImage img = ImageIO.read(png.toFile());
            assertNotNull(img);
            assertEquals(PlotFrame.WIDTH, img.getWidth());
            String html = plot.html();
            assertEquals(4 * 3, count(html, "class=\"point\""), "a point per step and series");
            assertTrue(html.contains("<g id=\"knee\" data-target=\"1500\""), "the knee is marked");
            assertTrue(html.contains("data-objective=\"p50&lt;20ms\" data-bound-ms=\"20\""), "the objective's line");
        }
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
            SweepResult r = new Sweep(base, new SweepPlan(200, 400, 0, 2, 0, Duration.ofSeconds(1)), List.of(p50), stalledFirst)
                    .warmUpFirstStep(Duration.ofMillis(300)).onRetry(retried::add).execute();

            assertEquals(List.of(200.0, 200.0, 400.0), r.steps().stream().map(SweepStep::target).toList(), r.steps().toString());
            assertFalse(r.steps().get(0).good(), r.steps().get(0).toString());
            assertEquals(List.of(r.steps().get(0)), retried);
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

    private static String tableOf(SweepResult r) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        SweepTable.print(r, new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8));
        return out.toString(java.nio.charset.StandardCharsets.UTF_8);
    }

    private static int count(String s, String what) {
        int n = 0;
        for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }
}
