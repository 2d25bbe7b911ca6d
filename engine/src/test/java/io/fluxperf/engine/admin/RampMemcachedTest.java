package io.fluxperf.engine.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A ramp 5,000 → 20,000 by 5,000 every 2 s, mirrored, against memcached: each step's rate holds
 * within 1 % by memcached's own counters, the ramp comes back down, and the report has one window
 * per step. (At 10,000 → 40,000 the suite's loaded machine, with a browser test beside it, could
 * not hold the top step: the client's shortfall, not the ramp's.)
 */
@Tag("timing")
@ExtendWith(RealServers.class)
class RampMemcachedTest {
    /** memcached's cmd_get at a moment (the middle of the stats request's round trip). */
    private record Sample(double millis, long gets) {
    }

    @Test
    void eachStepHoldsItsRateByMemcachedsCountersAndMirrorComesBackDown(@TempDir Path dir, MemcachedProcess memcached)
            throws Exception {
        Path toml = dir.resolve("ramp.toml");
        Files.writeString(toml, """
                [[workload]]
                method = "get"

                [workload.ratelimit]
                start = 5000
                end = 20000
                step = 5000
                interval = 2
                on_ramp_completion = "mirror"
                """);
        try (AdminRun run = AdminRun.start(s -> {
                 s.config = toml;
                 s.server = memcached.address();
                 s.warmup = java.time.Duration.ofSeconds(2); // the JIT's first compilations before the steps
             })) {
            run.awaitMeasuring(60);
            List<Sample> samples = new ArrayList<>();
            while (!run.result.isDone()) {
                double before = System.currentTimeMillis() + (System.nanoTime() % 1_000_000) / 1e6;
                long t0 = System.nanoTime();
                long gets = memcached.stats().get("cmd_get");
                long t1 = System.nanoTime();
                samples.add(new Sample(epochMillis(t0, t1), gets));
                Thread.sleep(40); // deliberate: the sampling period of memcached's counter
            }
            RunResult result = run.awaitResult(60);
            JsonNode json = new ObjectMapper().readTree(run.get("/metrics.json"));
            JsonNode changes = json.get("rate_changes");
            double[] expected = {5_000, 10_000, 15_000, 20_000, 15_000, 10_000, 5_000};
            assertEquals(expected.length, changes.size(), "one change per step: " + changes);
            StringBuilder seen = new StringBuilder();
            for (int k = 0; k < expected.length; k++) {
                assertEquals(expected[k], changes.get(k).get("rate").asDouble(), "step " + (k + 1));
                double from = changes.get(k).get("unix_millis").asDouble() + 100;
                double to = (k + 1 < changes.size() ? changes.get(k + 1).get("unix_millis").asDouble()
                        : changes.get(k).get("unix_millis").asDouble() + 2000) - 100;
                double rate = (at(samples, to) - at(samples, from)) / ((to - from) / 1000);
                seen.append(String.format("step %d: asked %.0f, memcached saw %.0f/s%n", k + 1, expected[k], rate));
            }
            System.out.print(seen);
            for (int k = 0; k < expected.length; k++) {
                double from = changes.get(k).get("unix_millis").asDouble() + 100;
                double to = (k + 1 < changes.size() ? changes.get(k + 1).get("unix_millis").asDouble()
                        : changes.get(k).get("unix_millis").asDouble() + 2000) - 100;
                double rate = (at(samples, to) - at(samples, from)) / ((to - from) / 1000);
                assertEquals(expected[k], rate, expected[k] * 0.01, "by memcached's counters:\n" + seen);
            }
            // one window per step, each at its step's rate, and the report's target is the step's
            List<WindowResult> windows = result.windows();
            assertEquals(expected.length, windows.size(), "windows");
            for (int k = 0; k < expected.length; k++) {
                // a window counts replies by when they end: a stall at its edge moves a few into the next
                assertEquals(expected[k], windows.get(k).rate(), expected[k] * 0.02, "window " + (k + 1));
                assertEquals(expected[k], windows.get(k).workloadConfigs().get(0).rate(), expected[k] * 0.01,
                        "window " + (k + 1) + "'s target");
            }
            // memcached also had the warm-up's gets, which the report leaves out
            assertTrue(memcached.stats().get("cmd_get") > result.total().total().outcomes().requests());
        }
    }

    /** System.currentTimeMillis() with sub-millisecond detail, at the middle of {@code t0}..{@code t1} (nanoTime). */
    private static double epochMillis(long t0, long t1) {
        long nowNanos = System.nanoTime();
        double nowMillis = System.currentTimeMillis();
        return nowMillis - (nowNanos - (t0 + t1) / 2) / 1e6;
    }

    /** memcached's count at {@code millis}, between the two samples around it. */
    private static double at(List<Sample> samples, double millis) {
        for (int i = 1; i < samples.size(); i++) {
            Sample a = samples.get(i - 1);
            Sample b = samples.get(i);
            if (a.millis() <= millis && millis <= b.millis()) {
                return a.gets() + (b.gets() - a.gets()) * (millis - a.millis()) / (b.millis() - a.millis());
            }
        }
        throw new AssertionError("no samples around " + millis);
    }
}
