package io.fluxperf.engine.load;

import io.fluxperf.engine.config.ConnectionOptions;
import io.fluxperf.engine.config.KeyDistribution;
import io.fluxperf.engine.config.KeyspaceConfig;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.ValueSize;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.OutcomeCounts;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.request.Command;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.PacedRate;
import io.fluxperf.testkit.RealServers;
import io.fluxperf.testkit.RedisProcess;
import io.netty.channel.uring.IoUring;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --io-uring}: the load engine on Netty's io_uring transport against a real memcached and a
 * real redis, counts reconciled with the servers' own; and epoll stays the default although the
 * io_uring classes are on the class path (reactor-netty would otherwise prefer them).
 */
@ExtendWith(RealServers.class)
class LoadRunIoUringTest {
    private static final ConnectionOptions IO_URING = ConnectionOptions.builder().ioUring(true).build();

    @BeforeAll
    static void ioUringAvailable() {
        Assumptions.assumeTrue(IoUring.isAvailable(), () -> "io_uring is not available: " + IoUring.unavailabilityCause());
    }

    private static RunConfig config(String protocol, int pipeline, Duration duration, long requests, WorkloadConfig w) {
        return RunConfig.builder().protocol(protocol).threads(1).connections(4).pipeline(pipeline).duration(duration)
                .windows(1).timeout(Duration.ofSeconds(1)).tcpNoDelay(true).requests(requests).seed(7).workload(w)
                .connection(IO_URING).build();
    }

    private static OutcomeCounts assertReconciles(WindowResult w) {
        OutcomeCounts o = w.total().outcomes();
        assertEquals(o.requests(), o.ok() + o.miss() + o.error() + o.timeout() + o.closed());
        assertEquals(o.requests(), w.total().latency().getTotalCount(), "every request is timed");
        return o;
    }

    @Test
    void closedLoopGetsHitEveryTime(MemcachedProcess memcached) {
        WorkloadConfig get = WorkloadConfig.of(Command.GET).withHit(true)
                .withKeyspace(KeyspaceConfig.defaults().withCount(2000));
        RunResult result = new LoadRun(config("memcache", 4, Duration.ofSeconds(1), 0, get), new RunListener() { })
                .execute(new InetSocketAddress("127.0.0.1", memcached.port()), memcached.address());
        OutcomeCounts o = assertReconciles(result.total());
        assertTrue(o.requests() > 1000, "requests: " + o.requests());
        assertEquals(o.requests(), o.ok(), "every get hits");
        Map<String, Long> stats = memcached.stats();
        assertEquals(2000, stats.get("cmd_set"), "the preload");
        assertEquals(o.requests(), stats.get("get_hits"));
    }

    @Tag("timing")
    @Test
    void openLoopHoldsItsRate(MemcachedProcess memcached) {
        WorkloadConfig get = WorkloadConfig.of(Command.GET).withRate(5000).withHit(true)
                .withKeyspace(KeyspaceConfig.defaults().withCount(500));
        RunResult result = new LoadRun(config("memcache", 1, Duration.ofSeconds(2), 0, get), new RunListener() { })
                .execute(new InetSocketAddress("127.0.0.1", memcached.port()), memcached.address());
        WindowResult w = result.windows().get(0);
        OutcomeCounts o = assertReconciles(w);
        PacedRate.assertHeld(5000, w.rate(0), w, "rate");
        assertEquals(o.requests(), o.ok(), "every get hits");
        assertTrue(w.sendLag().getTotalCount() > 0, "paced sends are timed");
        assertEquals(o.requests(), memcached.stats().get("get_hits"));
    }

    @Test
    void redisSetsAndGetsMatchItsCounters(RedisProcess redis) {
        KeyspaceConfig keys = new KeyspaceConfig(100, 8, KeyDistribution.SEQUENTIAL, 1);
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", redis.port());
        WorkloadConfig set = WorkloadConfig.of(Command.SET).withKeyspace(keys).withBytes(ValueSize.fixed(32));
        RunResult sets = new LoadRun(config("redis", 8, Duration.ofSeconds(30), 3000, set), new RunListener() { })
                .execute(address, "redis");
        assertEquals(3000, assertReconciles(sets.total()).ok());
        WorkloadConfig get = WorkloadConfig.of(Command.GET).withKeyspace(keys);
        RunResult gets = new LoadRun(config("redis", 8, Duration.ofSeconds(30), 3000, get), new RunListener() { })
                .execute(address, "redis");
        assertEquals(3000, assertReconciles(gets.total()).ok(), "every key was set");
        Map<String, Long> stats = redis.commandstats();
        assertEquals(3000, stats.get("set"));
        assertEquals(3000, stats.get("get"));
        assertEquals(3000, redis.stat("keyspace_hits"));
    }

    /** Bare sockets are an epoll thing: with io_uring a connection per request stays a channel, and works. */
    @Test
    void aConnectionPerRequestRunsOnChannels(MemcachedProcess memcached) {
        ConnectionOptions perRequest = ConnectionOptions.builder().connectPerRequest(true).ioUring(true).build();
        RunConfig config = RunConfig.builder().threads(1).connections(4).pipeline(1)
                .duration(Duration.ofSeconds(30)).windows(1).timeout(Duration.ofSeconds(1)).tcpNoDelay(true)
                .requests(300).seed(7).workload(WorkloadConfig.of(Command.GET)).connection(perRequest).build();
        long before = memcached.stats().get("total_connections");
        RunResult result = new LoadRun(config, new RunListener() { })
                .execute(new InetSocketAddress("127.0.0.1", memcached.port()), memcached.address());
        OutcomeCounts o = assertReconciles(result.total());
        assertEquals(300, o.miss(), "every get misses on an empty memcached");
        long made = memcached.stats().get("total_connections") - before - 1; // -1: the second stats connection
        assertEquals(300, made, "a connection per request, and no spare one");
    }

}
