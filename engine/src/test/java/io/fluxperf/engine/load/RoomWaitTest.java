package io.fluxperf.engine.load;

import io.fluxperf.engine.config.KeyspaceConfig;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.ConnectionCounts;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.request.Command;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A paced run counts how long due requests found no connection with room (they waited for
 * replies), against a real memcached: nearly the whole window when one connection is asked
 * for more than it can carry, next to nothing when connections are plenty.
 */
@ExtendWith(RealServers.class)
class RoomWaitTest {

    private static RunResult run(MemcachedProcess memcached, int connections, int rate, Duration duration) {
        WorkloadConfig get = WorkloadConfig.of(Command.GET).withRate(rate)
                .withKeyspace(KeyspaceConfig.defaults().withCount(100));
        RunConfig config = RunConfig.builder().threads(1).connections(connections).pipeline(1).duration(duration)
                .windows(1).timeout(Duration.ofSeconds(1)).tcpNoDelay(false).seed(7).workload(get).build();
        return new LoadRun(config, new RunListener() { })
                .execute(new InetSocketAddress("127.0.0.1", memcached.port()), memcached.address());
    }

    @Tag("timing")
    @Test
    void oneConnectionAskedForMoreThanItCarriesWaitsForRoomMostOfTheWindow(MemcachedProcess memcached) {
        // one request in flight at a time over loopback: far below 1,000,000/s
        WindowResult w = run(memcached, 1, 1_000_000, Duration.ofMillis(800)).windows().get(0);
        double share = w.connections().roomWaitNanos() / (w.seconds() * 1e9);
        assertTrue(share > 0.5 && share <= 1.01, "waited for room " + share + " of the window");
        // behind from its second request on: each wait begins with a request already late
        double behind = (double) w.connections().roomWaitBehindNanos() / w.connections().roomWaitNanos();
        assertTrue(behind > 0.9, "behind in " + behind + " of the wait");
    }

    @Tag("timing")
    @Test
    void plentyOfConnectionsAtALowRateHardlyEverWait(MemcachedProcess memcached) {
        // 500/s on 8 connections: all 8 busy at once only if memcached stalls for 16 ms
        WindowResult w = run(memcached, 8, 500, Duration.ofMillis(800)).windows().get(0);
        double share = w.connections().roomWaitNanos() / (w.seconds() * 1e9);
        assertTrue(share < 0.05, "waited for room " + share + " of the window");
        assertTrue(w.total().outcomes().requests() > 300, "requests: " + w.total().outcomes().requests());
    }

    @Test
    void countsAddAcrossThreadsAndStartAgainOnReset() {
        ConnectionCounts a = new ConnectionCounts();
        a.addRoomWait(1_000, true);
        ConnectionCounts b = a.copy();
        b.addRoomWait(500, false);
        a.add(b);
        assertEquals(2_500, a.roomWaitNanos());
        assertEquals(2_000, a.roomWaitBehindNanos());
        a.reset();
        assertEquals(0, a.roomWaitNanos());
        assertEquals(0, a.roomWaitBehindNanos());
        assertEquals(1_500, b.roomWaitNanos());
        assertEquals(1_000, b.roomWaitBehindNanos());
    }
}
