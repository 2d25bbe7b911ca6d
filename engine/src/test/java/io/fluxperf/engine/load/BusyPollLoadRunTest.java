package io.fluxperf.engine.load;

import io.fluxperf.engine.config.ConnectionOptions;
import io.fluxperf.engine.config.KeyspaceConfig;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.request.Command;
import io.fluxperf.testkit.LoadThread;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.PacedRate;
import io.fluxperf.testkit.RealServers;
import io.netty.util.ResourceLeakDetector;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code --busy-poll} on a real paced run against memcached: the load thread never sleeps (its
 * voluntary context switches, from /proc), holds the rate, allocates nothing per request, and
 * does not count as saturated although it is on its CPU all the time (its idle polls are left out
 * of the loop's share). Without the flag the same run sleeps before nearly every send.
 */
@Tag("timing")
@ExtendWith(RealServers.class)
class BusyPollLoadRunTest {
    private static final int RATE = 2_000;
    private static final int KEYS = 500;

    /** What the second (warm) window of a run showed. */
    private record Observed(WindowResult window, long sleeps, long allocatedBytes, long memcachedHits, long requests) {
    }

    @Test
    void aBusyPollingLoadThreadNeverSleepsAndHasRoomToSpare(MemcachedProcess memcached) {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux /proc");
        Observed o = run(memcached, true);
        WindowResult w = o.window();
        long requests = w.total().outcomes().requests();
        PacedRate.assertHeld(RATE, w.rate(0), w, "rate");
        assertEquals(requests, w.total().outcomes().ok(), "every get hits");
        long warmup = o.memcachedHits() - o.requests(); // memcached counts the warm-up's gets too: 1 s of them
        assertTrue(Math.abs(warmup - RATE) <= RATE / 20, "memcached saw the run's gets and 1 s of warm-up: "
                + o.memcachedHits() + " against " + o.requests() + " reported");
        // 2,000 sends 500 µs apart; a safepoint of this test JVM may still stop the thread now and then
        assertTrue(o.sleeps() < requests / 20, "the busy-polling load thread slept " + o.sleeps() + " times for " + requests + " requests");
        assertTrue(w.cpuNanos() / 1e9 / w.seconds() > 0.5, "it polls on its CPU: the process used "
                + w.cpuNanos() / 1e9 / w.seconds() + " cores");
        assertTrue(w.busiestLoopShare() >= 0 && !w.loopSaturated(), "at 2,000/s it works a small part of the time: loop share "
                + w.busiestLoopShare());
        assertTrue((double) o.allocatedBytes() / requests < 4, "the load thread allocated " + o.allocatedBytes() + " B for "
                + requests + " requests");
    }

    @Test
    void withoutItTheLoadThreadSleepsBetweenSends(MemcachedProcess memcached) {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux /proc");
        Observed o = run(memcached, false);
        long requests = o.window().total().outcomes().requests();
        assertTrue(o.sleeps() > requests / 2, "a waiting loop sleeps before its sends: " + o.sleeps() + " times for " + requests);
        assertTrue(o.window().busiestLoopShare() < 0.5, "loop share " + o.window().busiestLoopShare());
    }

    private static Observed run(MemcachedProcess memcached, boolean busyPoll) {
        WorkloadConfig get = WorkloadConfig.of(Command.GET).withRate(RATE).withHit(true)
                .withKeyspace(KeyspaceConfig.defaults().withCount(KEYS));
        ConnectionOptions connection = ConnectionOptions.builder().busyPoll(busyPoll).build();
        RunConfig config = RunConfig.builder().threads(1).connections(4).pipeline(1).duration(Duration.ofSeconds(1))
                .windows(2).warmup(Duration.ofSeconds(1)).timeout(Duration.ofSeconds(1)).tcpNoDelay(true).seed(7)
                .workload(get).connection(connection).build();
        long[] marks = new long[2]; // voluntary switches and allocated bytes of the load thread at the last window's start
        Observed[] second = new Observed[1];
        int[] windows = {0};
        RunListener listener = new RunListener() {
            @Override
            public void warmupComplete() {
                mark();
            }

            @Override
            public void window(WindowResult window) {
                long sleeps = LoadThread.voluntarySwitches() - marks[0];
                long allocated = LoadThread.allocatedBytes() - marks[1];
                if (++windows[0] == 2) {
                    second[0] = new Observed(window, sleeps, allocated, 0, 0);
                }
                mark();
            }

            private void mark() {
                marks[0] = LoadThread.voluntarySwitches();
                marks[1] = LoadThread.allocatedBytes();
            }
        };
        // the suite's leak detector samples buffers and records their paths: its garbage, not the run's
        ResourceLeakDetector.Level leakDetection = ResourceLeakDetector.getLevel();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        try {
            RunResult result = new LoadRun(config, listener)
                    .execute(new InetSocketAddress("127.0.0.1", memcached.port()), memcached.address());
            assertEquals(2, windows[0], "windows");
            Observed o = second[0];
            return new Observed(o.window(), o.sleeps(), o.allocatedBytes(), memcached.stats().get("get_hits"),
                    result.total().total().outcomes().requests());
        } finally {
            ResourceLeakDetector.setLevel(leakDetection);
        }
    }
}
