package io.fluxperf.engine.load;

import io.fluxperf.engine.config.KeyspaceConfig;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Request;
import io.fluxperf.engine.trace.RunTrace;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.PacedRate;
import io.fluxperf.testkit.RealServers;
import io.fluxperf.trace.TraceReader;
import io.fluxperf.trace.TraceRecord;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Open-loop pacing against a real memcached: requests due within the early-send allowance
 * ({@link io.fluxperf.engine.config.RunConfig#earlySend}) of each other leave on one wake-up, none leaves earlier than that before its schedule, and a
 * request that left early is timed from its write, never from its later intended time.
 */
@ExtendWith(RealServers.class)
class OpenLoopPacingTest {
    private static final int RATE = 20_000;
    private static final long SPACING_NANOS = 1_000_000_000L / RATE;
    private static final int CONNECTIONS = 8;

    @TempDir
    Path dir;

    @Tag("timing")
    @Test
    void requestsDueTogetherLeaveTogetherAndNoneIsTimedFromAfterItsWrite(MemcachedProcess memcached) {
        WorkloadConfig get = WorkloadConfig.of(Command.GET).withRate(RATE)
                .withKeyspace(KeyspaceConfig.defaults().withCount(1000));
        RunConfig config = RunConfig.builder().threads(1).connections(CONNECTIONS).pipeline(1)
                .duration(Duration.ofSeconds(2)).windows(1).warmup(Duration.ofSeconds(1)).timeout(Duration.ofSeconds(1))
                .tcpNoDelay(false).seed(7).workload(get).build();
        // a cold JVM falls up to a second behind 20,000/s while it compiles the request path (a warm-up
        // of 2-3 s did not always make it up): a second of closed loop compiles most of it first
        RunConfig closedLoop = RunConfig.builder().threads(1).connections(CONNECTIONS).pipeline(1)
                .duration(Duration.ofSeconds(1)).windows(1).timeout(Duration.ofSeconds(1)).tcpNoDelay(false).seed(7)
                .workload(WorkloadConfig.of(Command.GET)).build();
        Path traceDir = dir.resolve("trace");
        RunResult result;
        try (RunTrace trace = RunTrace.open(traceDir, config, "{}")) {
            new LoadRun(closedLoop, new RunListener() { })
                    .execute(new InetSocketAddress("127.0.0.1", memcached.port()), memcached.address());
            LoadRun run = new LoadRun(config, new RunListener() { });
            run.trace(trace);
            result = run.execute(new InetSocketAddress("127.0.0.1", memcached.port()), memcached.address());
        }
        long requests = result.total().total().outcomes().requests();
        PacedRate.assertHeld(RATE, result.windows().get(0).rate(0), result.windows().get(0), "the rate");

        long[] sent = new long[(int) requests];
        long origin = Long.MAX_VALUE;
        int n = 0;
        try (TraceReader reader = TraceReader.open(traceDir)) {
            TraceRecord r = new TraceRecord();
            while (reader.next(r)) {
                if (r.warmup()) {
                    continue; // the window's requests are the ones counted
                }
                assertTrue(r.actualSendNanos() >= r.intendedSendNanos(), "latency is never measured from after the write: " + r);
                assertTrue(r.completionNanos() - r.intendedSendNanos() >= r.completionNanos() - r.actualSendNanos(), r.toString());
                origin = Math.min(origin, r.intendedSendNanos());
                sent[n++] = r.actualSendNanos();
            }
        }
        assertEquals(requests, n, "one record per request of the window");
        Arrays.sort(sent); // the k-th send is the k-th request of the schedule: origin + k × spacing
        int early = 0;
        for (int k = 0; k < n; k++) {
            long scheduled = origin + k * SPACING_NANOS;
            assertTrue(sent[k] >= scheduled - RunConfig.DEFAULT_EARLY_SEND.toNanos(),
                    "request " + k + " left " + (scheduled - sent[k]) + " ns before its time");
            if (sent[k] < scheduled) {
                early++;
            }
        }
        // 50 µs apart with a 50 µs window: a wake-up for one request takes the next one along
        assertTrue(early > n / 20, "requests that left with an earlier one: " + early + " of " + n);
    }

    @Test
    void aRequestIsTimedFromTheEarlierOfItsScheduleAndItsWrite() {
        Request r = new Request();
        r.intendedNanos(1_000).sentNanos(900);
        assertEquals(900, r.latencyOriginNanos(), "left early: from the write");
        r.intendedNanos(1_000).sentNanos(1_300);
        assertEquals(1_000, r.latencyOriginNanos(), "left late: from the schedule (no coordinated omission)");
        r.intendedNanos(Request.UNSCHEDULED).sentNanos(1_300);
        assertEquals(1_300, r.latencyOriginNanos(), "closed loop: from the write");
    }
}
