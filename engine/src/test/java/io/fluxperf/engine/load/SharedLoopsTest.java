package io.fluxperf.engine.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.connection.ClientLoop;
import io.fluxperf.engine.connection.ClientLoops;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.request.Command;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServer;
import io.fluxperf.testkit.RealServers;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs on loops they do not own (a warm-up and the run after it): each run loads on the same
 * threads, leaves them running, and whoever made them stops them.
 */
@ExtendWith(RealServers.class)
class SharedLoopsTest {
    @RealServer
    private MemcachedProcess memcached;

    private RunConfig config(int threads) {
        return RunConfig.builder().threads(threads).connections(2).duration(Duration.ofSeconds(5)).requests(300)
                .workloads(List.of(WorkloadConfig.of(Command.GET))).build();
    }

    private RunResult run(RunConfig config, ClientLoops loops) {
        return new LoadRun(config, new RunListener() { }).loops(loops)
                .execute(new InetSocketAddress("127.0.0.1", memcached.port()), memcached.address());
    }

    @Test
    void twoRunsShareTheLoopsAndLeaveThemRunning() {
        ClientLoops loops = new ClientLoops(false);
        ClientLoop first;
        try {
            assertEquals(300, run(config(2), loops).total().total().outcomes().requests());
            first = loops.get(0);
            assertFalse(first.loop().isShuttingDown(), "the first run left its loops running");
            assertEquals(300, run(config(2), loops).total().total().outcomes().requests());
            assertSame(first, loops.get(0), "the second run loaded on the same loop");
            assertFalse(loops.get(1).loop().isShuttingDown());
        } finally {
            loops.close();
        }
        assertTrue(first.loop().isShuttingDown(), "closing the loops stops them");
        assertEquals(600, memcached.stats().get("cmd_get"), "both runs' requests reached the server");
    }

    @Test
    void loopsOfAnotherTransportAreRefused() {
        try (ClientLoops loops = new ClientLoops(true)) {
            RunConfig epoll = config(1);
            assertThrows(IllegalArgumentException.class, () -> new LoadRun(epoll, new RunListener() { }).loops(loops));
        }
    }
}
