package io.fluxperf.engine.fault;

import static io.fluxperf.engine.fault.FaultRun.assertTrueAbout;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.fluxperf.engine.config.KeyspaceConfig;
import io.fluxperf.engine.config.ValueSize;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.OutcomeCounts;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.request.Command;
import io.fluxperf.testkit.FaultProxy;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server that stops reading (the proxy stops reading from the client, so the client's writes
 * back up) while a closed-loop run of 16 KB sets keeps every connection's pipeline full: requests
 * time out, the run ends on time, in flight stays within connections × pipeline, and the heap
 * after the run is where it was (invariant 4: a slow server yields timeouts, not memory growth).
 */
@ExtendWith(RealServers.class)
class StoppedReadingTest {
    private static final int CONNECTIONS = 8;
    private static final int PIPELINE = 16;
    private static final Duration TIMEOUT = Duration.ofMillis(300);
    private static final long HEAP_GROWTH_LIMIT = 64L << 20;

    @TempDir
    Path dir;

    @Test
    void aServerThatStopsReadingYieldsTimeoutsNotMemory(MemcachedProcess memcached) {
        assertTimeoutPreemptively(Duration.ofSeconds(40), () -> {
            MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
            long heapBefore = usedHeapAfterGc(memory);
            try (FaultProxy proxy = FaultProxy.start("127.0.0.1", memcached.port())) {
                WorkloadConfig sets = WorkloadConfig.of(Command.SET).withBytes(ValueSize.fixed(16 * 1024))
                        .withKeyspace(KeyspaceConfig.defaults().withCount(1000));
                FaultRun run = new FaultRun(FaultRun.config(CONNECTIONS, PIPELINE, Duration.ofSeconds(1), 4, TIMEOUT, sets),
                        dir.resolve("trace"));
                proxy.after(Duration.ofMillis(1200), FaultProxy::stopReading); // first ~1 s normal, then nothing is read
                run.execute(proxy.address());
                System.out.println(run.describe());

                run.assertReconciles(0);
                long allowed = TimeUnit.SECONDS.toNanos(4) + TIMEOUT.toNanos() + TimeUnit.SECONDS.toNanos(3);
                assertTrueAbout(run.wallNanos < allowed, "the run ends on time: " + run.wallNanos / 1_000_000 + " ms", run);

                WindowResult first = run.result.windows().get(0);
                assertTrueAbout(first.total().outcomes().ok() > 1000, "sets go through before the stop", run);
                long maxPerWindow = (long) CONNECTIONS * PIPELINE * (1000 / TIMEOUT.toMillis() + 2);
                for (WindowResult w : run.result.windows().subList(2, 4)) {
                    OutcomeCounts o = w.total().outcomes();
                    assertTrueAbout(o.timeout() > 0, "requests time out while the server does not read", run);
                    assertEquals(0, o.ok() + o.miss(), "nothing is answered while the server does not read");
                    assertTrueAbout(o.requests() <= maxPerWindow, "in flight stays bounded: at most " + maxPerWindow
                            + " requests can end in a window (each connection sends a pipeline, then waits for the timeout)", run);
                }
            }
            long heapAfter = usedHeapAfterGc(memory);
            long growth = heapAfter - heapBefore;
            System.out.println("heap after GC: before the run " + (heapBefore >> 20) + " MB, after " + (heapAfter >> 20) + " MB");
            assertTrueAbout(growth < HEAP_GROWTH_LIMIT, "heap grew by " + (growth >> 20) + " MB", null);
        });
    }

    /** The used heap once it has settled: collected again and again until a collection frees less than 1 MB. */
    private static long usedHeapAfterGc(MemoryMXBean memory) {
        long[] used = {Long.MAX_VALUE};
        await("the heap settled after collections").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    System.gc();
                    long now = memory.getHeapMemoryUsage().getUsed();
                    boolean settled = used[0] - now < (1 << 20);
                    used[0] = Math.min(used[0], now);
                    return settled;
                });
        return used[0];
    }
}
