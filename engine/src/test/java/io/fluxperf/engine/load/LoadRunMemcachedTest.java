package io.fluxperf.engine.load;

import io.fluxperf.engine.config.KeyspaceConfig;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.ValueSize;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.OutcomeCounts;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.StopReason;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.workload.GeneratedLoad;
import io.fluxperf.engine.workload.ValuePattern;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.PacedRate;
import io.fluxperf.testkit.RealServer;
import io.fluxperf.testkit.RealServers;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The load engine against a real memcached on a free loopback port. */
@ExtendWith(RealServers.class)
class LoadRunMemcachedTest {
    @RealServer
    private MemcachedProcess memcached;

    private RunResult run(RunConfig config) {
        return new LoadRun(config, new RunListener() { }).execute(
                new InetSocketAddress("127.0.0.1", memcached.port()), memcached.address());
    }

    static RunConfig config(Duration duration, int windows, long requests, List<WorkloadConfig> workloads) {
        return RunConfig.builder().threads(1).connections(4).pipeline(1).duration(duration).windows(windows)
                .timeout(Duration.ofSeconds(1)).tcpNoDelay(false).requests(requests).seed(7).workloads(workloads)
                .build();
    }

    private static void assertReconciles(WindowResult w) {
        OutcomeCounts o = w.total().outcomes();
        assertEquals(o.requests(), o.ok() + o.miss() + o.error() + o.timeout() + o.closed());
        assertEquals(o.requests(), w.total().latency().getTotalCount(), "every request is timed");
        long perWorkload = w.workloads().stream().mapToLong(s -> s.outcomes().requests()).sum();
        assertEquals(o.requests(), perWorkload);
    }

    @Test
    void getWithHitHitsEveryTime() {
        WorkloadConfig get = WorkloadConfig.of(Command.GET).withHit(true)
                .withKeyspace(KeyspaceConfig.defaults().withCount(2000));
        RunResult result = run(config(Duration.ofSeconds(1), 1, 0, List.of(get)));
        OutcomeCounts o = result.total().total().outcomes();
        assertTrue(o.requests() > 1000, "requests: " + o.requests());
        assertEquals(o.requests(), o.ok(), "every get hits");
        assertEquals(2000, result.preloadedKeys());
        assertReconciles(result.total());
        Map<String, Long> stats = memcached.stats();
        assertEquals(o.requests(), stats.get("get_hits"));
    }

    @Test
    void getAfterFlushAlwaysMisses() {
        memcached.command("set 0000000000000001 0 0 1\r\nx");
        WorkloadConfig get = WorkloadConfig.of(Command.GET).withFlush(true)
                .withKeyspace(KeyspaceConfig.defaults().withCount(3));
        RunResult result = run(config(Duration.ofSeconds(5), 1, 3000, List.of(get)));
        OutcomeCounts o = result.total().total().outcomes();
        assertEquals(3000, o.requests());
        assertEquals(3000, o.miss());
        assertEquals(StopReason.REQUEST_LIMIT, result.stopReason());
        assertEquals(3000, memcached.stats().get("get_misses"));
    }

    @Test
    void setValuesReadBackByteForByte() {
        WorkloadConfig set = WorkloadConfig.of(Command.SET).withBytes(ValueSize.fixed(100))
                .withKeyspace(new KeyspaceConfig(500, 12, io.fluxperf.engine.config.KeyDistribution.SEQUENTIAL, 1));
        RunConfig config = config(Duration.ofSeconds(5), 1, 1000, List.of(set));
        RunResult result = run(config);
        assertEquals(1000, result.total().total().outcomes().ok());
        assertEquals(1000, memcached.stats().get("cmd_set"));
        ValuePattern pattern = GeneratedLoad.patternFor(config);
        for (long key : new long[] {0, 1, 17, 250, 251, 499}) {
            byte[] stored = memcached.get(String.format("%012d", key));
            assertArrayEquals(pattern.expected(key, 100), stored, "value of key " + key);
        }
    }

    @Tag("timing")
    @Test
    void twoRatedWorkloadsHoldTheirRates() {
        WorkloadConfig set = WorkloadConfig.of(Command.SET).withRate(2000).withBytes(ValueSize.fixed(32));
        WorkloadConfig get = WorkloadConfig.of(Command.GET).withRate(8000);
        RunResult result = run(config(Duration.ofSeconds(5), 1, 0, List.of(set, get)));
        WindowResult w = result.windows().get(0);
        PacedRate.assertHeld(2000, w.rate(0), w, "set rate");
        PacedRate.assertHeld(8000, w.rate(1), w, "get rate");
        assertReconciles(w);
        assertTrue(w.sendLag().getTotalCount() > 0);
    }
}
