package io.fluxperf.engine.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.engine.config.KeyspaceConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.LiveSample;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.request.Command;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServer;
import io.fluxperf.testkit.RealServers;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link LoadRun#liveSamples}: a live sample every second by default, none when nothing shows
 * them (`--no-live`), and the window's figures are the same either way. Against a real memcached.
 */
@Tag("timing")
@ExtendWith(RealServers.class)
class LiveSamplesTest {
    @RealServer
    private static MemcachedProcess memcached;

    private static RunResult run(boolean live, AtomicInteger samples) {
        WorkloadConfig get = WorkloadConfig.of(Command.GET).withKeyspace(KeyspaceConfig.defaults().withCount(100));
        RunListener listener = new RunListener() {
            @Override
            public void live(LiveSample sample) {
                samples.incrementAndGet();
            }
        };
        LoadRun run = new LoadRun(LoadRunMemcachedTest.config(Duration.ofMillis(2_300), 1, 0, List.of(get)), listener);
        if (!live) {
            run.liveSamples(false);
        }
        return run.execute(new InetSocketAddress("127.0.0.1", memcached.port()), memcached.address());
    }

    @Test
    void aSampleEverySecondUnlessTheyAreOff() {
        AtomicInteger shown = new AtomicInteger();
        RunResult withLive = run(true, shown);
        assertTrue(shown.get() >= 1 && shown.get() <= 2, "at 1 s and 2 s of a 2.3-s window: " + shown.get());
        AtomicInteger none = new AtomicInteger();
        RunResult without = run(false, none);
        assertEquals(0, none.get());
        assertTrue(without.total().total().outcomes().requests() > 0);
        assertEquals(without.total().total().outcomes().requests(), without.total().total().latency().getTotalCount());
        assertTrue(withLive.total().total().outcomes().requests() > 0);
    }
}
