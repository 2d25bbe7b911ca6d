package io.fluxperf.engine.load;

import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.protocol.memcache.target.MemcacheTargetServer;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.target.TargetOptions;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Each window says how much of it every load loop spent on its CPU, measured on the loop's own thread. */
@Tag("timing")
class LoopCpuShareTest {
    private static RunResult run(int threads, WorkloadConfig workload) {
        try (MemcacheTargetServer target = MemcacheTargetServer.start(TargetOptions.builder().build())) {
            RunConfig config = RunConfig.builder().threads(threads).connections(2 * threads).pipeline(1)
                    .duration(Duration.ofSeconds(1)).windows(2).timeout(Duration.ofSeconds(1)).tcpNoDelay(true).seed(7)
                    .workload(workload).build();
            return new LoadRun(config, new RunListener() { }).execute(target.address(), "embedded target");
        }
    }

    @Test
    void aClosedLoopKeepsItsLoopsBusyAndNoLoopIsBusierThanTheClock() {
        RunResult result = run(2, WorkloadConfig.of(Command.GET));
        for (WindowResult w : result.windows()) {
            long[] loops = w.loopCpuNanos();
            assertEquals(2, loops.length, "one figure per load thread: " + Arrays.toString(loops));
            for (long n : loops) {
                // each loop had replies to read all the time; a thread cannot use more CPU than the window lasts
                assertTrue(n > 0.02 * w.seconds() * 1e9, "loop CPU " + Arrays.toString(loops) + " in " + w.seconds() + " s");
            }
            double share = w.busiestLoopShare();
            assertTrue(share > 0.02 && share <= 1.02, "busiest loop share " + share);
        }
        double whole = result.total().busiestLoopShare();
        assertTrue(whole > 0.02 && whole <= 1.02, "whole run's busiest loop share " + whole);
    }

    @Test
    void aSlowFixedRateLeavesTheLoopMostlyIdle() {
        RunResult result = run(1, WorkloadConfig.of(Command.GET).withRate(200));
        for (WindowResult w : result.windows()) {
            // 200 requests a second take a few ms of the loop's CPU, not most of the window
            assertTrue(w.busiestLoopShare() >= 0 && w.busiestLoopShare() < 0.3, "busiest loop share " + w.busiestLoopShare());
            assertTrue(!w.loopSaturated());
        }
    }
}
