package io.fluxperf.engine.fault;

import static io.fluxperf.engine.fault.FaultRun.assertTrueAbout;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.OutcomeCounts;
import io.fluxperf.engine.request.Command;
import io.fluxperf.testkit.FaultProxy;
import io.fluxperf.testkit.FreePorts;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A target that accepts connections and closes each at once: a proxy (mcrouter, twemproxy, a
 * load balancer) whose back end is down. The run goes on and counts the closes, and reconnects
 * back off (50 ms doubling to 1 s) instead of hammering the target at 20 connects per second and
 * connection.
 */
class FlappingTargetTest {
    private static final int CONNECTIONS = 4;

    @TempDir
    Path dir;

    @Test
    void connectionsClosedRightAfterConnectingAreCountedAndTheRunEndsOnTime() {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            FaultRun run = flappingRun();
            run.assertReconciles(22);
            OutcomeCounts o = run.result.total().total().outcomes();
            assertEquals(o.requests(), o.closed(), "every request sent ends as closed");
            long closes = run.result.windows().stream().mapToLong(w -> w.connections().closedCount()).sum();
            assertTrueAbout(closes >= CONNECTIONS, "the closes are counted", run);
            assertTrueAbout(run.wallNanos < Duration.ofSeconds(10).toNanos(), "the run ends on time", run);
        });
    }

    @Test
    void reconnectsToATargetThatClosesAtOnceBackOff() {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            FaultRun run = flappingRun();
            long attempts = run.result.windows().stream().mapToLong(w -> w.connections().attempts()).sum();
            // 3 s of 50, 100, 200, 400, 800, 1000, 1000 ms waits: at most 7 attempts per connection, and the first
            long allowed = CONNECTIONS * 9L;
            assertTrueAbout(attempts <= allowed, "connection attempts " + attempts + " in 3 s (at most " + allowed
                    + " with a backoff of 50 ms doubling to 1 s)", run);
        });
    }

    private FaultRun flappingRun() {
        try (FaultProxy proxy = FaultProxy.start("127.0.0.1", FreePorts.tcp())) { // nothing listens behind it
            FaultRun run = new FaultRun(FaultRun.config(CONNECTIONS, 1, Duration.ofSeconds(1), 3, Duration.ofMillis(500),
                    WorkloadConfig.of(Command.GET).withRate(1000)), dir.resolve("trace"));
            run.execute(proxy.address());
            System.out.println(run.describe() + "\n" + proxy.counters());
            return run;
        }
    }
}
