package io.fluxperf.engine.load;

import io.fluxperf.engine.config.KeyspaceConfig;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.request.Command;
import io.fluxperf.testkit.WindowAllocations;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import io.netty.util.ResourceLeakDetector;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Invariant 4 on a real paced run: once warm, the load thread allocates (next to) nothing per
 * request, the pacing wake-ups included. At 5,000/s each request has a wake-up of its own
 * (200 µs apart, more than the early window), so a task per wake-up (Netty's schedule(), 64 B)
 * would show as 64 B per request (it did: 62.8 B per request before the loop's alarm).
 */
@Tag("timing")
@ExtendWith(RealServers.class)
class PacedRunAllocationTest {
    private static final int RATE = 5_000;

    @Test
    void aWarmPacedLoadThreadAllocatesNothingPerRequest(MemcachedProcess memcached) {
        WorkloadConfig get = WorkloadConfig.of(Command.GET).withRate(RATE)
                .withKeyspace(KeyspaceConfig.defaults().withCount(1000));
        RunConfig config = RunConfig.builder().threads(1).connections(8).pipeline(1).duration(Duration.ofSeconds(1))
                .windows(5).warmup(Duration.ofSeconds(1)).timeout(Duration.ofSeconds(1)).tcpNoDelay(false).seed(7)
                .workload(get).build();
        WindowAllocations listener = new WindowAllocations();
        List<long[]> perWindow = listener.perWindow(); // {requests, bytes the load thread allocated}
        RunResult result;
        // the suite's leak detector samples buffers and records their paths: its garbage, not the run's
        ResourceLeakDetector.Level leakDetection = ResourceLeakDetector.getLevel();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        try {
            LoadRun run = new LoadRun(config, listener);
            result = run.execute(new InetSocketAddress("127.0.0.1", memcached.port()), memcached.address());
        } finally {
            ResourceLeakDetector.setLevel(leakDetection);
        }
        assertEquals(5, perWindow.size(), "windows");
        assertEquals(0, result.total().total().outcomes().error(), "errors");
        // the first two windows may still compile and load classes; the last three are measured
        long requests = 0;
        long bytes = 0;
        for (int w = 2; w < perWindow.size(); w++) {
            requests += perWindow.get(w)[0];
            bytes += perWindow.get(w)[1];
        }
        assertTrue(requests > RATE * 3 * 0.9, "requests in windows 3-5: " + requests);
        double perRequest = (double) bytes / requests;
        // a window's own bookkeeping on the loop (a snapshot task, its future) is a few KB
        assertTrue(perRequest < 4, "the load thread allocated " + perRequest + " B per request (" + bytes + " B for "
                + requests + " requests)");
    }
}
