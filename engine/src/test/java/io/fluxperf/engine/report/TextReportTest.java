package io.fluxperf.engine.report;

import io.fluxperf.engine.config.KeyDistribution;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.ValueSize;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.ConnectionCounts;
import io.fluxperf.engine.metrics.LiveSample;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.StopReason;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Outcome;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import static io.fluxperf.engine.report.Fixtures.SECOND;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TextReportTest {

    private static List<String> lines(Consumer<TextReport> body) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        body.accept(new TextReport(out));
        return bytes.toString(StandardCharsets.UTF_8).lines().toList();
    }

    @Test
    void configEchoInRpcPerfLayout() {
        RunConfig config = Fixtures.config(List.of(WorkloadConfig.of(Command.GET).withRate(50000).withHit(true)));
        assertEquals(List.of(
                "-----",
                "Config:",
                "Config: Server: 127.0.0.1:11211 Protocol: memcache",
                "Config: TCP_NODELAY: false Timeout: 1000 ms Pipeline: 1",
                "Config: Threads: 1 Connections: 25",
                "Config: Windows: 1 Duration: 60 s Warmup: 0 s Seed: 42",
                "-----",
                "Workload:",
                "Workload 0: Name: get Method: get Bytes: 64 Rate: 50000 Hit: true Flush: false"
                        + " Keys: 10000 keys of 16 bytes, uniform",
                "-----"), lines(r -> r.configEcho(config, "127.0.0.1:11211")));
    }

    @Test
    void configEchoNamesTheEmbeddedTargetRequestLimitWeightsAndKeysPerRequest() {
        RunConfig config = RunConfig.builder().threads(2).connections(4).pipeline(8).duration(Duration.ofMillis(1500))
                .windows(3).warmup(Duration.ofSeconds(5)).timeout(Duration.ofMillis(250)).tcpNoDelay(true)
                .requests(1000).seed(7)
                .workloads(List.of( WorkloadConfig.of(Command.SET).withName("writes").withWeight(1).withBytes(new ValueSize.Range(16, 1024)), WorkloadConfig.of(Command.GET).withWeight(9).withKeysPerRequest(4) .withKeyspace(io.fluxperf.engine.config.KeyspaceConfig.defaults() .withDistribution(KeyDistribution.ZIPF, 0.99))))
                .build();
        List<String> out = lines(r -> r.configEcho(config, "embedded memcache on 127.0.0.1:40211"));
        assertEquals("Config: Server: embedded memcache on 127.0.0.1:40211 Protocol: memcache", out.get(2));
        assertEquals("Config: TCP_NODELAY: true Timeout: 250 ms Pipeline: 8", out.get(3));
        assertEquals("Config: Threads: 2 Connections: 4", out.get(4));
        assertEquals("Config: Windows: 3 Duration: 1.5 s Warmup: 5 s Requests: 1000 Seed: 7", out.get(5));
        assertEquals("Workload 0: Name: writes Method: set Bytes: 16..1024 Rate: unlimited Weight: 1 Hit: false"
                + " Flush: false Keys: 10000 keys of 16 bytes, uniform", out.get(8));
        assertEquals("Workload 1: Name: get Method: get Bytes: 64 Rate: unlimited Weight: 9 Hit: false Flush: false"
                + " Keys: 10000 keys of 16 bytes, zipf (exponent 0.99) Keys/request: 4", out.get(9));
    }

    @Test
    void connectionsAndWarmup() {
        assertEquals(List.of("Connections: 25 Failures: 0", "-----", "Warmup complete"), lines(r -> {
            r.connections(25, 0);
            r.warmupComplete();
        }));
    }

    @Test
    void windowBlockWithKnownValues() {
        RunConfig config = Fixtures.config(Fixtures.setAndGet());
        List<String> out = lines(r -> r.window(Fixtures.mixedWindow(1, 5 * SECOND), config));
        assertEquals(List.of(
                "-----",
                "Window: 1",
                "Requests: 10 Ok: 7 Miss: 2 Error: 1 Timeout: 0 Closed: 0",
                // hit rate from the get workload only: 4 hits of 6 answered reads (not 7 of 9)
                "Rate: 10 rps Success: 90.00 % Hitrate: 66.67 %",
                "Latency: min: 100 ns max: 1000 ns avg: 550 ns stddev: 287 ns",
                "Percentiles: p50: 500 ns p90: 900 ns p99: 1000 ns p999: 1000 ns p9999: 1000 ns",
                "Workload 0 (set): Requests: 3 Ok: 3 Miss: 0 Error: 0 Timeout: 0 Closed: 0 Rate: 3 rps Hitrate: n/a"
                        + " p50: 200 ns p99: 300 ns p999: 300 ns",
                "Workload 1 (get): Requests: 7 Ok: 4 Miss: 2 Error: 1 Timeout: 0 Closed: 0 Rate: 7 rps"
                        + " Hitrate: 66.67 % p50: 700 ns p99: 1000 ns p999: 1000 ns"), out);
    }

    @Test
    void hitrateIsNotApplicableWithoutReadsAndOneWorkloadHasNoBreakdown() {
        List<WorkloadConfig> sets = List.of(WorkloadConfig.of(Command.SET));
        WindowResult w = Fixtures.window(2, 0, 2 * SECOND, sets,
                new Fixtures.Stats().reply(Outcome.OK, 100, 300).noReply(Outcome.TIMEOUT, 1).reply(Outcome.CLOSED, 200));
        List<String> out = lines(r -> r.window(w, Fixtures.config(sets)));
        assertEquals(List.of(
                "-----",
                "Window: 2",
                "Requests: 4 Ok: 2 Miss: 0 Error: 0 Timeout: 1 Closed: 1",
                "Rate: 2 rps Success: 50.00 % Hitrate: n/a",
                // every request is timed, the timeout (1000 ns) and the close (200 ns) too
                "Latency: min: 100 ns max: 1000 ns avg: 400 ns stddev: 354 ns",
                "Percentiles: p50: 200 ns p90: 1000 ns p99: 1000 ns p999: 1000 ns p9999: 1000 ns"), out);
    }

    @Test
    void emptyWindowPrintsZeros() {
        List<WorkloadConfig> gets = List.of(WorkloadConfig.of(Command.GET));
        WindowResult w = Fixtures.window(1, 0, SECOND, gets, new Fixtures.Stats());
        List<String> out = lines(r -> r.window(w, Fixtures.config(gets)));
        assertEquals("Requests: 0 Ok: 0 Miss: 0 Error: 0 Timeout: 0 Closed: 0", out.get(2));
        assertEquals("Rate: 0 rps Success: n/a Hitrate: n/a", out.get(3));
        assertEquals("Latency: min: 0 ns max: 0 ns avg: 0 ns stddev: 0 ns", out.get(4));
        assertEquals("Percentiles: p50: 0 ns p90: 0 ns p99: 0 ns p999: 0 ns p9999: 0 ns", out.get(5));
    }

    @Test
    void openLoopShowsServiceTimeSendLagAndOnlyTheMissedRate() {
        List<WorkloadConfig> rated = Fixtures.ratedSetAndGet();
        // set: 990 of 1000/s is exactly 1% below: not reported; get: 4900 of 5000/s is 2% below: reported
        WindowResult w = Fixtures.window(1, 0, SECOND, rated,
                new Fixtures.Stats().replies(Outcome.OK, 990, 1000),
                new Fixtures.Stats().replies(Outcome.OK, 4900, 2000));
        List<String> out = lines(r -> r.window(w, Fixtures.config(rated)));
        assertTrue(out.contains("Service: p50: 1000 ns p99: 1000 ns p999: 1000 ns (from the actual write)"), out::toString);
        assertTrue(out.contains("Send lag: p50: 500 ns p99: 1000 ns max: 1000 ns"), out::toString);
        assertTrue(out.contains("Rate: workload 1 (get) target 5000/s, achieved 4900/s"), out::toString);
        assertEquals(1, out.stream().filter(l -> l.contains("achieved")).count(), out::toString);
    }

    @Test
    void sendLagSaysHowLongDueRequestsWaitedForAConnectionWithRoom() {
        List<WorkloadConfig> rated = Fixtures.ratedSetAndGet();
        WindowResult w = Fixtures.window(1, 0, SECOND, rated,
                new Fixtures.Stats().replies(Outcome.OK, 1000, 1000),
                new Fixtures.Stats().replies(Outcome.OK, 5000, 2000));
        w.connections().addRoomWait(12_460_000, false);
        w.connections().addRoomWait(3_100_000, true);
        List<String> out = lines(r -> r.window(w, Fixtures.config(rated)));
        assertTrue(out.contains("Send lag: p50: 500 ns p99: 1000 ns max: 1000 ns"
                + " (due requests waited 15.6 ms for a connection with room, 3.1 ms of it once already behind)"), out::toString);
    }

    @Test
    void aSaturatedLoadThreadIsNamedAsTheLimit() {
        List<WorkloadConfig> rated = Fixtures.ratedSetAndGet();
        WindowResult w = Fixtures.window(1, 0, SECOND, rated, new Fixtures.Stats().replies(Outcome.OK, 990, 1000),
                new Fixtures.Stats().replies(Outcome.OK, 5000, 2000));
        List<String> busy = lines(r -> r.window(Fixtures.withLoopCpu(w, 300_000_000L, 970_000_000L), Fixtures.config(rated)));
        assertTrue(busy.contains("Client: a load thread was on CPU 97 % of the window: fluxperf set this window's pace,"
                + " and requests waited in it (give it more --threads and CPUs)"), busy::toString);
        List<String> idle = lines(r -> r.window(Fixtures.withLoopCpu(w, 300_000_000L, 890_000_000L), Fixtures.config(rated)));
        assertTrue(idle.stream().noneMatch(l -> l.startsWith("Client:")), idle::toString);
        List<String> unknown = lines(r -> r.window(w, Fixtures.config(rated)));
        assertTrue(unknown.stream().noneMatch(l -> l.startsWith("Client:")), unknown::toString);
    }

    @Test
    void rateShortfallThreshold() {
        WorkloadConfig w = WorkloadConfig.of(Command.GET).withRate(50000);
        assertFalse(WindowFigures.belowTarget(w, 49500));
        assertTrue(WindowFigures.belowTarget(w, 49499));
        assertFalse(WindowFigures.belowTarget(WorkloadConfig.of(Command.GET), 1), "unrated: no target to miss");
    }

    @Test
    void closedLoopHasNoServiceOrSendLagLines() {
        RunConfig config = Fixtures.config(Fixtures.setAndGet());
        List<String> out = lines(r -> r.window(Fixtures.mixedWindow(1, 0), config));
        assertTrue(out.stream().noneMatch(l -> l.startsWith("Service:") || l.startsWith("Send lag:")));
    }

    @Test
    void connectionEventsAreShownWhenConnectionsFailOrClose() {
        List<WorkloadConfig> gets = List.of(WorkloadConfig.of(Command.GET));
        ConnectionCounts c = new ConnectionCounts();
        c.attempt();
        c.attempt();
        c.opened();
        c.failed();
        c.closed();
        c.setOpen(24);
        WindowResult w = Fixtures.window(1, 0, SECOND, gets, c, new Fixtures.Stats().reply(Outcome.OK, 100));
        List<String> out = lines(r -> r.window(w, Fixtures.config(gets)));
        assertTrue(out.contains("Connections: attempts 2 opened 1 failed 1 closed 1 open 24"), out::toString);

        WindowResult quiet = Fixtures.window(1, 0, SECOND, gets, new Fixtures.Stats().reply(Outcome.OK, 100));
        assertTrue(lines(r -> r.window(quiet, Fixtures.config(gets))).stream()
                .noneMatch(l -> l.startsWith("Connections:")));
    }

    @Test
    void summaryCoversTheWholeRunAndSaysWhyItStopped() {
        RunConfig config = Fixtures.config(Fixtures.setAndGet());
        RunResult interrupted = Fixtures.run(config, StopReason.INTERRUPTED, Fixtures.mixedWindow(1, 0),
                Fixtures.mixedWindow(2, SECOND));
        List<String> out = lines(r -> r.summary(interrupted));
        assertEquals("-----", out.get(0));
        assertEquals("Total:", out.get(1));
        assertEquals("Requests: 20 Ok: 14 Miss: 4 Error: 2 Timeout: 0 Closed: 0", out.get(2));
        assertEquals("Rate: 10 rps Success: 90.00 % Hitrate: 66.67 %", out.get(3));
        assertEquals("Stopped: interrupted (Ctrl-C); the report covers what ran", out.get(out.size() - 1));

        RunResult completed = Fixtures.run(config, StopReason.COMPLETED, Fixtures.mixedWindow(1, 0));
        assertTrue(lines(r -> r.summary(completed)).stream().noneMatch(l -> l.startsWith("Stopped:")));
    }

    /** The live line says how far the run has gone and gives its p99 in a unit a person reads (issue 46). */
    @Test
    void liveLineSaysHowFarTheRunHasGoneInHumanUnits() {
        RunConfig sixWindows = Fixtures.config(Fixtures.setAndGet()).toBuilder().duration(Duration.ofSeconds(5)).windows(6)
                .build();
        assertEquals("[window 2/6 7 s of 30 s] 49,987 rps, errors 3, p99 so far 3.12 ms",
                TextReport.liveLine(new LiveSample(2, 2_000_000_000L, 150_000, 3, 3_121_151, 49_987.4), sixWindows));
        RunConfig oneWindow = Fixtures.config(Fixtures.setAndGet());
        assertEquals("[window 1/1 3 s of 60 s] 2,000 rps, errors 0, p99 so far 140 us",
                TextReport.liveLine(new LiveSample(1, 3_000_000_000L, 6_000, 0, 140_130, 2_000), oneWindow));
        assertEquals("[window 1/1 1 s of 60 s] 0 rps, errors 0, p99 so far n/a (no replies yet)",
                TextReport.liveLine(new LiveSample(1, 1_000_000_000L, 0, 0, 0, 0), oneWindow));
        RunConfig limited = oneWindow.toBuilder().requests(1_000_000).duration(Duration.ofMillis(1500)).windows(3).build();
        assertTrue(TextReport.liveLine(new LiveSample(3, 500_000_000L, 10, 0, 900, 10), limited)
                .startsWith("[window 3/3 4 s of at most 4.5 s] "), "a request limit may end the run sooner");
    }

    /** The total ends with a line in human units; the ns lines rpc-perf's users parse stay as they are. */
    @Test
    void theTotalHasASummaryInHumanUnitsBesideTheNsLines() {
        RunConfig config = Fixtures.config(Fixtures.setAndGet());
        List<String> out = lines(r -> r.summary(Fixtures.run(config, StopReason.COMPLETED, Fixtures.mixedWindow(1, 0))));
        assertTrue(out.contains("Percentiles: p50: 500 ns p90: 900 ns p99: 1000 ns p999: 1000 ns p9999: 1000 ns"), out.toString());
        assertEquals("Summary: 10 requests/s, success 90.00 %, latency p50 500 ns, p99 1.00 us, p999 1.00 us, max 1.00 us",
                out.get(out.size() - 1));
        Fixtures.Stats slow = new Fixtures.Stats().replies(Outcome.OK, 98, 31_900).reply(Outcome.OK, 3_121_151, 1_500_000_000L);
        WindowResult w = Fixtures.window(1, 0, 4 * SECOND, List.of(WorkloadConfig.of(Command.GET)), slow);
        List<String> slowOut = lines(r -> r.summary(Fixtures.run(Fixtures.config(List.of(WorkloadConfig.of(Command.GET))),
                StopReason.INTERRUPTED, w)));
        assertEquals("Summary: 25 requests/s, success 100.00 %, latency p50 31.9 us, p99 3.12 ms, p999 1.50 s, max 1.50 s",
                slowOut.get(slowOut.size() - 2), slowOut.toString());
        assertEquals("Stopped: interrupted (Ctrl-C); the report covers what ran", slowOut.get(slowOut.size() - 1));
    }

    @Test
    void humanUnitsKeepThreeSignificantDigits() {
        assertEquals("850 ns", HumanUnits.latency(850));
        assertEquals("1.00 us", HumanUnits.latency(1_000));
        assertEquals("10.0 us", HumanUnits.latency(9_996));
        assertEquals("244 us", HumanUnits.latency(244_479));
        assertEquals("1.00 ms", HumanUnits.latency(999_600));
        assertEquals("3.12 ms", HumanUnits.latency(3_121_151));
        assertEquals("16.7 ms", HumanUnits.latency(16_736_255));
        assertEquals("2.00 s", HumanUnits.latency(2_000_000_000L));
        assertEquals("120 s", HumanUnits.latency(120_000_000_000L));
    }
}
