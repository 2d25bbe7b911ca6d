package io.fluxperf.engine.load;

import io.fluxperf.engine.config.KeyspaceConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.host.HostTuning;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.request.Command;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServer;
import io.fluxperf.testkit.RealServers;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link io.fluxperf.engine.host.HostTuning#beforeLoad}: a run of several windows goes through its window bookkeeping,
 * the listener's included, before the first request; the made-up windows stay out of the result.
 * Against a real memcached, whose get counter says when the load began.
 */
@ExtendWith(RealServers.class)
class SettleBeforeLoadTest {
    @RealServer
    private MemcachedProcess memcached;

    /** What the listener saw: "rehearsal@<server gets so far>" and "window <n>", in order. */
    private final List<String> events = new ArrayList<>();

    private RunResult run(int windows, boolean settle) {
        WorkloadConfig get = WorkloadConfig.of(Command.GET).withKeyspace(KeyspaceConfig.defaults().withCount(100));
        RunListener listener = new RunListener() {
            @Override
            public void rehearseWindow(WindowResult window) {
                events.add("rehearsal@" + memcached.stats().get("cmd_get"));
            }

            @Override
            public void window(WindowResult window) {
                events.add("window " + window.number());
            }
        };
        return new LoadRun(LoadRunMemcachedTest.config(Duration.ofMillis(300), windows, 0, List.of(get)), listener)
                .tuning(settle ? HostTuning.ownProcess(false, false) : HostTuning.standard())
                .execute(new InetSocketAddress("127.0.0.1", memcached.port()), memcached.address());
    }

    @Test
    void severalWindowsAreRehearsedBeforeTheFirstRequest() {
        RunResult result = run(3, true);
        List<String> rehearsals = events.stream().filter(e -> e.startsWith("rehearsal")).toList();
        assertEquals(HostTuning.REHEARSAL_ROUNDS, rehearsals.size(), events.toString());
        assertTrue(rehearsals.stream().allMatch("rehearsal@0"::equals), "no get reached the server before: " + events);
        assertEquals(List.of("window 1", "window 2", "window 3"), events.subList(HostTuning.REHEARSAL_ROUNDS, events.size()));
        assertEquals(3, result.windows().size(), "the made-up windows are not in the result");
        long requests = result.total().total().outcomes().requests();
        assertTrue(requests > 0, "requests: " + requests);
        assertEquals(requests, memcached.stats().get("cmd_get"), "the result counts only the real load");
    }

    @Test
    void aSingleWindowIsNotRehearsed() {
        run(1, true);
        assertEquals(List.of("window 1"), events, "its bookkeeping comes after the load");
    }

    @Test
    void withoutSettlingNothingIsRehearsed() {
        run(2, false);
        assertEquals(List.of("window 1", "window 2"), events);
    }
}
