package io.fluxperf.engine.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.LatencySummary;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Outcome;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A window's end adds every thread's figures exactly, and offers the CPU back between its histogram steps. */
class WindowBookkeepingTest {
    private static final List<WorkloadConfig> WORKLOADS = List.of(WorkloadConfig.of(Command.GET), WorkloadConfig.of(Command.SET));

    private static ThreadFigures figures(long base, long taken) {
        ThreadFigures f = ThreadFigures.interval(WORKLOADS.size(), null);
        for (int i = 0; i < 1_000; i++) {
            f.workloads[i % 2].record(i % 3 == 0 ? Outcome.MISS : Outcome.OK, base + i * 1_000L, base + i * 500L, 10);
            f.workloads[i % 2].recordSent(20);
            f.sendLag.recordValue(i);
        }
        f.connections.opened();
        f.loopCpuNanos = 5_000_000;
        f.takenNanos = taken;
        return f;
    }

    /** Every thread's figures of one interval, added as the running window adds them. */
    private static FigureSum summed(ThreadFigures... threads) {
        FigureSum sum = new FigureSum(WORKLOADS.size(), threads.length, null, () -> { });
        sum.add(new Interval(List.of(threads), 0, ThreadFigures.takenNanos(List.of(threads))));
        return sum;
    }

    @Test
    void windowsAddEveryThreadsFiguresAndTheRunAddsEveryWindow() {
        WindowBookkeeping b = new WindowBookkeeping(() -> { }, true, WORKLOADS);
        WindowResult w1 = b.window(1, 0, 1_000_000_000L, 10_000_000, summed(figures(1_000, 1), figures(2_000, 3)));
        assertEquals(2_000, w1.total().outcomes().requests());
        assertEquals(1_000, w1.workloads().get(0).outcomes().requests());
        assertEquals(2_000, w1.sendLag().getTotalCount());
        assertEquals(2, w1.connections().openedCount());
        assertEquals(LatencySummary.of(w1.total().latency()), w1.summaries().latency(), "the summaries are the histograms'");
        b.addToRun(w1);
        WindowResult w2 = b.window(2, 1_000_000_000L, 2_000_000_000L, 10_000_000, summed(figures(3_000, 5)));
        b.addToRun(w2);
        WindowResult run = b.run();
        assertEquals(3_000, run.total().outcomes().requests());
        assertEquals(0, run.startNanos());
        assertEquals(2_000_000_000L, run.endNanos());
        assertEquals(20_000_000, run.cpuNanos());
        WindowResult kept = b.keep(w1);
        assertEquals(w1.total().outcomes().requests(), kept.total().outcomes().requests());
        assertEquals(w1.summaries(), kept.summaries(), "a kept window keeps its summaries");
        assertEquals(w1.total().latency().getValueAtPercentile(99), kept.total().latency().getValueAtPercentile(99));
    }

    @Test
    void everyHistogramStepIsFollowedByAPause() {
        AtomicInteger pauses = new AtomicInteger();
        WindowBookkeeping b = new WindowBookkeeping(pauses::incrementAndGet, true, WORKLOADS);
        WindowResult w = b.window(1, 0, 1_000_000_000L, -1, summed(figures(1_000, 1)));
        int afterWindow = pauses.get();
        // per thread: 2 workloads x (counts, latency, service) + send lag + connect; then the total; then summaries
        assertTrue(afterWindow >= 2 * 2 + 2 + 2 * 2, "pauses while assembling: " + afterWindow);
        b.keep(w);
        assertTrue(pauses.get() - afterWindow >= 2 * 3 + 2, "pauses while encoding the kept copy: " + (pauses.get() - afterWindow));
    }
}
