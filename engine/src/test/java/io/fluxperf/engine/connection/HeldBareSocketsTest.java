package io.fluxperf.engine.connection;

import io.fluxperf.engine.config.KeyDistribution;
import io.fluxperf.engine.config.KeyspaceConfig;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.ValueSize;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.load.LoadRun;
import io.fluxperf.engine.load.RunListener;
import io.fluxperf.engine.metrics.ConnectionCounts;
import io.fluxperf.engine.metrics.OutcomeCounts;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.StopReason;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.metrics.WorkloadStats;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.workload.GeneratedLoad;
import io.fluxperf.testkit.WindowAllocations;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.PacedRate;
import io.fluxperf.testkit.RealServers;
import io.fluxperf.testkit.RedisProcess;
import io.netty.buffer.AbstractByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import java.lang.reflect.Field;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Held connections on bare sockets ({@code -Dfluxperf.connect.heldBareSockets=true}) in whole runs
 * against real servers: big values pipelined both ways, counted as the channel wire counts the same
 * run and with no buffer leaked (Netty's paranoid leak detection); a paced run that holds its rate
 * without allocating per request; a server killed and started again, reconnected to as channels are.
 * Which wire a connection gets is {@link TransportsSocketOptionsTest}'s to check.
 */
@ExtendWith(RealServers.class)
class HeldBareSocketsTest {
    private static final int BIG = 100 * 1024;
    private boolean before;

    @BeforeEach
    void switchOn() {
        before = Transports.heldBareSockets(true);
    }

    @AfterEach
    void restore() {
        Transports.heldBareSockets(before);
    }

    private static RunResult run(RunConfig config, InetSocketAddress target, RunListener listener) {
        return new LoadRun(config, listener).execute(target, "127.0.0.1:" + target.getPort());
    }

    /** {@code requests} of {@code command} with 100 KB values over 4 connections at pipeline 8, closed loop. */
    private static RunConfig bigValues(String protocol, Command command, long requests) {
        WorkloadConfig w = WorkloadConfig.of(command).withBytes(ValueSize.fixed(BIG))
                .withKeyspace(new KeyspaceConfig(64, 16, KeyDistribution.SEQUENTIAL, 1));
        return RunConfig.builder().protocol(protocol).threads(1).connections(4).pipeline(8)
                .duration(Duration.ofSeconds(30)).windows(1).timeout(Duration.ofSeconds(5)).tcpNoDelay(true)
                .requests(requests).seed(7).workload(w).build();
    }

    /** Sets then gets 100 KB values on bare sockets and on channels; returns the bare sockets' results. */
    private List<RunResult> setsThenGets(String protocol, InetSocketAddress target) {
        List<RunResult> bare = new ArrayList<>();
        List<RunResult> channels = new ArrayList<>();
        withoutLeaks(() -> {
            for (Command c : List.of(Command.SET, Command.GET)) {
                bare.add(run(bigValues(protocol, c, 256), target, new RunListener() { }));
            }
            return null;
        });
        Transports.heldBareSockets(false);
        for (Command c : List.of(Command.SET, Command.GET)) {
            channels.add(run(bigValues(protocol, c, 256), target, new RunListener() { }));
        }
        for (int i = 0; i < 2; i++) {
            WindowResult b = bare.get(i).total();
            WindowResult ch = channels.get(i).total();
            String what = (i == 0 ? "set" : "get") + " on bare sockets against channels";
            assertEquals(StopReason.REQUEST_LIMIT, bare.get(i).stopReason(), what);
            assertEquals(counters(ch), counters(b), what);
            OutcomeCounts o = b.total().outcomes();
            assertEquals(256, o.requests(), what);
            assertEquals(256, o.ok(), what + ": every request ok, every get a hit");
        }
        return bare;
    }

    /** What both wires must count alike for the same run. */
    private static String counters(WindowResult w) {
        WorkloadStats t = w.total();
        OutcomeCounts o = t.outcomes();
        ConnectionCounts c = w.connections();
        return "requests " + o.requests() + " ok " + o.ok() + " miss " + o.miss() + " error " + o.error()
                + " timeout " + o.timeout() + " closed " + o.closed() + " bytes sent " + t.bytesSent()
                + " received " + t.bytesReceived() + " connections opened " + c.openedCount() + " failed "
                + c.failures() + " open " + c.open();
    }

    @Test
    void pipelinedBigValuesAgainstMemcached(MemcachedProcess memcached) {
        InetSocketAddress target = new InetSocketAddress("127.0.0.1", memcached.port());
        setsThenGets("memcache", target);
        byte[] expected = GeneratedLoad.patternFor(bigValues("memcache", Command.SET, 256)).expected(17, BIG);
        assertArrayEquals(expected, memcached.get(String.format("%016d", 17)), "a value written on a bare socket");
    }

    @Test
    void pipelinedBigValuesAgainstRedis(RedisProcess redis) {
        InetSocketAddress target = new InetSocketAddress("127.0.0.1", redis.port());
        setsThenGets("redis", target);
        byte[] expected = GeneratedLoad.patternFor(bigValues("redis", Command.SET, 256)).expected(17, BIG);
        String stored = (String) redis.command("GET", String.format("%016d", 17)); // bytes as ISO-8859-1
        assertArrayEquals(expected, stored.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1),
                "a value written on a bare socket");
    }

    /** Runs {@code work} with every buffer tracked and fails if one was never released. */
    private static <T> T withoutLeaks(Supplier<T> work) {
        List<String> leaks = new CopyOnWriteArrayList<>();
        ResourceLeakDetector<?> detector = byteBufLeaks();
        ResourceLeakDetector.Level level = ResourceLeakDetector.getLevel();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
        detector.setLeakListener((type, records) -> leaks.add(records));
        try {
            T result = work.get();
            // a leaked buffer is reported once it is collected, at a later allocation: collect and
            // allocate until nothing has been reported for a while
            try {
                await("no leaked buffer").atMost(Duration.ofSeconds(5)).during(Duration.ofMillis(300))
                        .pollInterval(Duration.ofMillis(50)).until(() -> {
                            System.gc();
                            ByteBufAllocator.DEFAULT.directBuffer(16).release();
                            return leaks.isEmpty();
                        });
            } catch (ConditionTimeoutException e) {
                throw new AssertionError(leaks.size() + " buffers never released; the first: " + leaks.get(0));
            }
            return result;
        } finally {
            detector.setLeakListener(null);
            ResourceLeakDetector.setLevel(level);
        }
    }

    /** Netty's detector of leaked buffers, which it keeps package-private. */
    private static ResourceLeakDetector<?> byteBufLeaks() {
        try {
            Field f = AbstractByteBuf.class.getDeclaredField("leakDetector");
            f.setAccessible(true);
            return (ResourceLeakDetector<?>) f.get(null);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("Netty's buffer leak detector cannot be reached", e);
        }
    }

    /**
     * Paced at 5,000/s the rate is held and, once warm, the load thread allocates (next to) nothing
     * per request: the reused write and read buffers (PacedRunAllocationTest's bar for channels).
     */
    @Tag("timing")
    @Test
    void aPacedRunHoldsItsRateWithoutAllocating(MemcachedProcess memcached) {
        int rate = 5_000;
        WorkloadConfig get = WorkloadConfig.of(Command.GET).withRate(rate)
                .withKeyspace(KeyspaceConfig.defaults().withCount(1000));
        RunConfig config = RunConfig.builder().threads(1).connections(8).pipeline(1).duration(Duration.ofSeconds(1))
                .windows(3).warmup(Duration.ofSeconds(1)).timeout(Duration.ofSeconds(1)).tcpNoDelay(true).seed(7)
                .workload(get).build();
        WindowAllocations listener = new WindowAllocations();
        List<long[]> perWindow = listener.perWindow(); // {requests, bytes the load thread allocated}
        RunResult result;
        // the suite's leak detector samples buffers and records their paths: its garbage, not the run's
        ResourceLeakDetector.Level leakDetection = ResourceLeakDetector.getLevel();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        try {
            result = run(config, new InetSocketAddress("127.0.0.1", memcached.port()), listener);
        } finally {
            ResourceLeakDetector.setLevel(leakDetection);
        }
        assertEquals(3, result.windows().size(), "windows");
        for (WindowResult w : result.windows()) {
            PacedRate.assertHeld(rate, w.rate(0), w, "window " + w.number());
            OutcomeCounts o = w.total().outcomes();
            assertEquals(o.requests(), o.ok() + o.miss(), "window " + w.number() + ": no errors, timeouts or closes");
        }
        // the first window may still compile; the last two are measured
        long requests = perWindow.get(1)[0] + perWindow.get(2)[0];
        long bytes = perWindow.get(1)[1] + perWindow.get(2)[1];
        double perRequest = (double) bytes / requests;
        assertTrue(perRequest < 4, "the load thread allocated " + perRequest + " B per request (" + bytes + " B for "
                + requests + " requests)");
        assertTrue(result.total().tcp().figures().samples() >= 8, "TCP_INFO sampled: "
                + result.total().tcp().figures().samples());
        assertTrue(result.total().tcp().figures().rttP50Micros() > 0, "srtt");
    }

    /**
     * memcached is killed in the middle of a paced run and started again on its port: the losses
     * and refused reconnects are counted, every connection comes back, and traffic with it.
     */
    @Tag("timing")
    @Test
    void aServerKilledAndStartedAgainIsReconnectedTo() throws Exception {
        int connections = 4;
        MemcachedProcess memcached = MemcachedProcess.start();
        int port = memcached.port();
        WorkloadConfig get = WorkloadConfig.of(Command.GET).withRate(2000);
        RunConfig config = RunConfig.builder().threads(1).connections(connections).pipeline(2)
                .duration(Duration.ofMillis(250)).windows(14).timeout(Duration.ofMillis(500)).tcpNoDelay(true).seed(7)
                .workload(get).build();
        List<WindowResult> windows = new CopyOnWriteArrayList<>();
        RunListener listener = new RunListener() {
            @Override
            public void window(WindowResult window) {
                windows.add(window);
            }
        };
        long killedAt;
        RunResult result;
        try {
            CompletableFuture<RunResult> running = CompletableFuture.supplyAsync(
                    () -> run(config, new InetSocketAddress("127.0.0.1", port), listener));
            await("3 windows").atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(5))
                    .until(() -> windows.size() >= 3);
            memcached.kill();
            killedAt = System.nanoTime();
            Thread.sleep(500); // deliberate: the server stays down for half a second, the outage under test
            memcached = MemcachedProcess.start(port);
            result = running.get(30, TimeUnit.SECONDS);
        } finally {
            memcached.close();
        }
        assertEquals(StopReason.COMPLETED, result.stopReason());
        long closes = 0;
        long failures = 0;
        long reopened = 0;
        for (WindowResult w : result.windows()) {
            OutcomeCounts o = w.total().outcomes();
            assertEquals(o.requests(), o.ok() + o.miss() + o.error() + o.timeout() + o.closed(), "window " + w.number());
            closes += w.connections().closedCount();
            failures += w.connections().failures();
            if (w.startNanos() >= killedAt) {
                reopened += w.connections().openedCount();
            }
        }
        String windowsSeen = result.windows().stream().map(HeldBareSocketsTest::counters).toList().toString();
        assertTrue(closes >= connections, "every connection's loss is counted: " + windowsSeen);
        assertTrue(failures > 0, "reconnects refused while the server was down are counted: " + windowsSeen);
        assertTrue(reopened >= connections, "every connection came back: " + windowsSeen);
        WindowResult lastWindow = result.windows().get(result.windows().size() - 1);
        assertEquals(connections, lastWindow.connections().open(), "all connections open at the end");
        OutcomeCounts o = lastWindow.total().outcomes();
        assertTrue(o.ok() + o.miss() > 0, "the last window has traffic: " + windowsSeen);
    }
}
