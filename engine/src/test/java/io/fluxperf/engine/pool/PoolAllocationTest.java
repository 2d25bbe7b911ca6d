package io.fluxperf.engine.pool;

import io.fluxperf.engine.config.KeyspaceConfig;
import io.fluxperf.engine.config.ServerDistribution;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.request.Command;
import io.fluxperf.testkit.WindowAllocations;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import io.netty.util.ResourceLeakDetector;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Invariant 4 with several servers: placing each key by ketama (an MD5 of its bytes and a search
 * of the continuum) and choosing a connection of its server allocates nothing per request, as
 * one server's paced run does not ({@code PacedRunAllocationTest}).
 */
@Tag("timing")
@ExtendWith(RealServers.class)
class PoolAllocationTest {
    private static final int RATE = 5_000;

    @Test
    void aWarmPacedPoolAllocatesNothingPerRequest(MemcachedProcess a, MemcachedProcess b, MemcachedProcess c) {
        WorkloadConfig get = WorkloadConfig.of(Command.GET).withRate(RATE)
                .withKeyspace(KeyspaceConfig.defaults().withCount(1000));
        WindowAllocations listener = new WindowAllocations();
        List<long[]> perWindow = listener.perWindow(); // {requests, bytes the load thread allocated}
        RunResult result;
        ResourceLeakDetector.Level leakDetection = ResourceLeakDetector.getLevel();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        try {
            result = PoolRuns.run(PoolRuns.config("memcache", PoolRuns.servers(List.of(a.address(), b.address(), c.address()),
                    ServerDistribution.KETAMA), 0, List.of(get)).connections(3).duration(Duration.ofSeconds(1)).windows(5)
                    .warmup(Duration.ofSeconds(1)).timeout(Duration.ofSeconds(1)).build(), listener);
        } finally {
            ResourceLeakDetector.setLevel(leakDetection);
        }
        assertEquals(5, perWindow.size(), "windows");
        assertEquals(0, result.total().total().outcomes().error(), "errors");
        long requests = 0;
        long bytes = 0;
        for (int w = 2; w < perWindow.size(); w++) {
            requests += perWindow.get(w)[0];
            bytes += perWindow.get(w)[1];
        }
        assertTrue(requests > RATE * 3 * 0.9, "requests in windows 3-5: " + requests);
        double perRequest = (double) bytes / requests;
        assertTrue(perRequest < 4, "the load thread allocated " + perRequest + " B per request (" + bytes + " B for "
                + requests + " requests)");
    }
}
