package io.fluxperf.replay;

import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.ConnectionCounts;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.StopReason;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.metrics.WorkloadStats;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.trust.ClientLimit;
import io.fluxperf.engine.trust.WindowTrust;
import io.fluxperf.trace.LatencyHistograms;
import java.util.List;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What held a replay back is decided on the evidence the windows' trust shows: where a window says
 * the client set the pace, "Limited by:" names the client, never the server.
 */
class ReplayLimitTest {
    private static final long SECOND = 1_000_000_000L;

    /** A --speed max replay of one window whose load thread was on CPU 30 % of it, with room on its 25 connections. */
    private static RunResult replay() {
        WindowResult w = window(1, 0, 3 * SECOND / 10);
        return replay(List.of(w), w);
    }

    private static RunResult replay(List<WindowResult> windows, WindowResult total) {
        RunConfig config = RunConfig.builder().server("127.0.0.1:6379").threads(1).connections(25).pipeline(1)
                .workloads(List.of(WorkloadConfig.of(Command.GET))).build();
        return new RunResult(config, "127.0.0.1:6379", windows, total, StopReason.COMPLETED, 0);
    }

    /** Window {@code number}, a second from {@code start}, its load thread on CPU {@code loopCpu} ns of it. */
    private static WindowResult window(int number, long start, long loopCpu) {
        return new WindowResult(number, start, start + SECOND, List.of(), List.of(), new WorkloadStats(),
                new ConnectionCounts(), LatencyHistograms.create(), LatencyHistograms.create(), -1, new long[] {loopCpu});
    }

    private static WindowTrust window(double runQueueShare, ClientLimit... limits) {
        return trust(1, runQueueShare, limits);
    }

    private static WindowTrust trust(int number, double runQueueShare, ClientLimit... limits) {
        return new WindowTrust(number, List.of(), List.of(), runQueueShare, 0, List.of(limits), List.of());
    }

    @Test
    void aLoadThreadThatWaitedForACpuMakesTheCpuTheLimit() {
        ReplayLimit l = ReplayLimit.of(replay(), true, 0, 0, 0, List.of(window(0.40, ClientLimit.RUN_QUEUE)));
        assertEquals("cpu", l.limit());
        assertEquals("the CPU: a load thread waited for a CPU 40 % of the window (runnable, on the run queue: other"
                + " threads or processes held the CPUs)", l.why());
    }

    @Test
    void withoutTheClientLimitedTheServerIsLeft() {
        assertEquals("server", ReplayLimit.of(replay(), true, 0, 0, 0, List.of()).limit(), "no trust checked");
        assertEquals("server", ReplayLimit.of(replay(), true, 0, 0, 0, List.of(window(0.05))).limit(),
                "a short wait for a CPU did not limit the client");
    }

    @Test
    void commandsLeftLateWithRoomMakeTheClientTheLimit() {
        WindowTrust late = new WindowTrust(1, List.of(), List.of(), 0.0, 4_000_000, List.of(ClientLimit.SEND_LAG), List.of());
        ReplayLimit l = ReplayLimit.of(replay(), true, 0, 0, 0, List.of(late));
        assertEquals("client", l.limit());
        assertTrue(l.why().startsWith("the client: commands left late (send lag p99 4"), l.why());
    }

    @Test
    void aWindowOnItsCpuMakesTheCpuTheLimitThoughTheWholeReplayWasNot() {
        WindowResult first = window(1, 0, 95 * SECOND / 100);
        WindowResult second = window(2, SECOND, SECOND / 10);
        RunResult r = replay(List.of(first, second), WindowResult.empty(0, 0, List.of()).merge(0, first).merge(0, second));
        ReplayLimit l = ReplayLimit.of(r, true, 0, 0, 0, List.of(trust(1, 0.0, ClientLimit.CPU), trust(2, 0.0)));
        assertEquals("cpu", l.limit());
        assertEquals("the CPU: the busiest load thread was on CPU 95 % of window 1", l.why());
    }
}
