package io.fluxperf.engine.load;

import static org.awaitility.Awaitility.await;

import io.fluxperf.engine.host.HostTuning;
import io.fluxperf.engine.protocol.Protocol;
import io.fluxperf.engine.protocol.Protocols;
import java.lang.ref.WeakReference;

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

    /**
     * A driver closed on loops that outlive it leaves nothing of itself there: its periodic timeout
     * check held it, and its figures, for as long as the loop lived (the in-process warm-up's two
     * rounds kept 4 threads' recorders in the run after them: 90 MB with 20 workloads).
     */
    @Test
    void aClosedDriverIsNotKeptByTheLoopsItRanOn() {
        ClientLoops loops = new ClientLoops(false);
        try {
            WeakReference<LoadDriver> closed = closedDriver(config(1), loops);
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).until(() -> {
                System.gc();
                return closed.get() == null;
            });
        } finally {
            loops.close();
        }
    }

    private static WeakReference<LoadDriver> closedDriver(RunConfig c, ClientLoops loops) {
        Protocol p = Protocols.find(c.protocol());
        LoadDriver d = new LoadDriver(0, c, p, p.codecs(c.protocolOptions(), c.server()), loops.get(0),
                new InetSocketAddress("127.0.0.1", 1), new RunErrors(), null, HostTuning.standard());
        LoopTasks.await(d.close(), Duration.ofSeconds(5));
        return new WeakReference<>(d);
    }
}
