package io.fluxperf.engine.fault;

import static io.fluxperf.engine.fault.FaultRun.assertTrueAbout;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.OutcomeCounts;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.request.Command;
import io.fluxperf.testkit.Fault;
import io.fluxperf.testkit.FaultProxy;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import java.nio.file.Path;
import java.time.Duration;
import org.HdrHistogram.AbstractHistogram;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stalls of 300 ms every second, inside each window (every byte held by the proxy, both ways),
 * under an open-loop rate, shorter than the timeout: the percentiles show the stalls (latency counts from the intended
 * send time, invariant 2), nothing times out, the rate is caught up after each stall, and the
 * counts reconcile.
 */
@Tag("timing")
@ExtendWith(RealServers.class)
class StallTest {
    private static final int RATE = 2000;
    private static final int WINDOWS = 4;
    private static final long MS = 1_000_000L;

    @TempDir
    Path dir;

    @Test
    void stallsShowInTheOpenLoopPercentiles(MemcachedProcess memcached) {
        assertTimeoutPreemptively(Duration.ofSeconds(40), () -> {
            try (FaultProxy proxy = FaultProxy.start("127.0.0.1", memcached.port())) {
                FaultRun run = new FaultRun(FaultRun.config(4, 1, Duration.ofSeconds(1), WINDOWS, Duration.ofSeconds(1),
                        WorkloadConfig.of(Command.GET).withRate(RATE)), dir.resolve("trace"));
                AutoCloseable[] stalls = new AutoCloseable[1];
                // half a window off the window ends: a window's end may hold the loop for a few ms
                // (its bookkeeping, the collection its fresh histograms set off), which would make
                // the stall's first wait begin behind
                run.onConnected(() -> stalls[0] = proxy.every(Duration.ofMillis(500), Duration.ofSeconds(1),
                        Fault.stall(Duration.ofMillis(300))));
                run.execute(proxy.address());
                System.out.println(run.describe());
                stalls[0].close();

                run.assertReconciles(22);
                OutcomeCounts o = run.result.total().total().outcomes();
                assertEquals(0, o.timeout() + o.closed() + o.error(), "stalls shorter than the timeout end in replies");
                assertTrueAbout(proxy.counters().stalls() >= WINDOWS - 1, "stalls happened: " + proxy.counters(), run);
                assertTrueAbout(o.requests() >= RATE * WINDOWS * 97L / 100, "the rate is caught up after each stall", run);

                AbstractHistogram latency = run.result.total().total().latency();
                long p50 = latency.getValueAtPercentile(50);
                long p99 = latency.getValueAtPercentile(99);
                String percentiles = "p50 " + p50 / MS + " ms, p99 " + p99 / MS + " ms, max " + latency.getMaxValue() / MS + " ms";
                assertTrueAbout(p99 >= 200 * MS, "p99 shows the 300 ms stalls: " + percentiles, run);
                assertTrueAbout(p50 < 100 * MS, "most requests are not stalled: " + percentiles, run);
                assertTrueAbout(latency.getMaxValue() < 700 * MS, "no request waits much longer than a stall: " + percentiles, run);
                for (WindowResult w : run.result.windows().subList(1, WINDOWS)) {
                    long windowP99 = w.total().latency().getValueAtPercentile(99);
                    assertTrueAbout(windowP99 >= 150 * MS, "every window with a stall shows it: window " + w.number()
                            + " p99 " + windowP99 / MS + " ms", run);
                    // the stall holds all 4 connections while requests come due on time; then the
                    // backlog goes out 4 at a time, each wait beginning with a request already behind
                    long room = w.connections().roomWaitNanos();
                    long behind = w.connections().roomWaitBehindNanos();
                    String waits = "window " + w.number() + " waited for room " + room / MS + " ms, " + behind / MS + " ms of it behind";
                    System.out.println(waits);
                    assertTrueAbout(room - behind >= 100 * MS, "a 300-ms stall is a wait for room that began on time: " + waits, run);
                    assertTrueAbout(behind > 0, "the backlog after it waits for room too: " + waits, run);
                }
            }
        });
    }
}
