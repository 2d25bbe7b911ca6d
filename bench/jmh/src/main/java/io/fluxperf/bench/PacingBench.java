package io.fluxperf.bench;

import io.fluxperf.engine.config.KeyspaceConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Request;
import io.fluxperf.engine.request.RequestPool;
import io.fluxperf.engine.workload.GeneratedLoad;
import io.netty.channel.EventLoop;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.Ticker;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Open-loop pacing, in its two parts.
 *
 * <p>{@code schedule}: the schedule arithmetic of {@link GeneratedLoad} ({@code start + n / rate}
 * per workload, and with several rated workloads the pick of the one whose next request is due
 * first), measured through the thread's flux like {@link GeneratedLoadBench} with 1 or 4 rated
 * workloads of {@code get} (rates 50,000/s; or 30,000 + 10,000 + 6,000 + 4,000/s).
 *
 * <p>{@code timer}: the wake-up that {@code LoadDriver.waitForSendTime} arms when the next
 * request is due more than the early window (50 µs) ahead: once per request below 20,000/s per
 * thread, once per batch of the requests due within 50 µs of each other above. That method is
 * private to the engine, so its timer branch is mirrored here line for line (the lead, capped at
 * the early window; the minimum timer; the earliest-wake-up guard; the lead's moving average;
 * one preallocated task), on Netty's own scheduling code: an {@link EmbeddedChannel}'s event loop
 * shares {@code AbstractScheduledEventExecutor.schedule} with the epoll loop, and its frozen clock
 * lets each op arm one timer and fire it 60 µs later (a send 50 µs away, fired 10 µs late). The
 * B/op that remain are Netty's {@code ScheduledFutureTask}, one per wake-up.
 *
 * <p>Run: {@code java -jar bench/jmh/target/benchmarks.jar PacingBench -prof gc}.
 */
public class PacingBench extends HotPathBenchmark {
    private static final long MIN_TIMER_NANOS = TimeUnit.MICROSECONDS.toNanos(10);
    private static final long MAX_TIMER_LEAD_NANOS = TimeUnit.MICROSECONDS.toNanos(500);
    /** LoadDriver's early window: requests due within it of a wake-up leave on that wake-up. */
    private static final long EARLY_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
    /** Time to the next send: 50 µs, one thread at 20,000/s. */
    private static final long INTERVAL_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
    /** How late the simulated timer fires. */
    private static final long LATENESS_NANOS = TimeUnit.MICROSECONDS.toNanos(10);

    @State(Scope.Thread)
    public static class Schedule {
        @Param({"1", "4"})
        public int workloads;

        RequestPool pool;
        RequestPuller puller;

        @Setup
        public void setup() {
            double[] rates = workloads == 1 ? new double[] {50_000} : new double[] {30_000, 10_000, 6_000, 4_000};
            List<WorkloadConfig> list = new ArrayList<>();
            for (int i = 0; i < rates.length; i++) {
                list.add(WorkloadConfig.of(Command.GET).withName("w" + i).withRate(rates[i])
                        .withKeyspace(KeyspaceConfig.defaults()));
            }
            pool = new RequestPool(4);
            puller = new RequestPuller();
            new GeneratedLoad(GeneratedLoadBench.runConfig(list)).requests(0, 1, pool, System.nanoTime()).subscribe(puller);
        }

        @TearDown
        public void tearDown() {
            puller.dispose();
        }
    }

    /** The driver's pacing fields and a loop whose clock the benchmark moves. */
    @State(Scope.Thread)
    public static class Timer {
        EmbeddedChannel channel;
        EventLoop loop;
        Ticker ticker;
        long timerLeadNanos = TimeUnit.MICROSECONDS.toNanos(20);
        long wakeAtNanos = Long.MAX_VALUE;
        long pumps;
        /** One task for the driver's lifetime; the wake-up time it needs is in a field. */
        long armedWakeAt;
        final Runnable wakeTask = this::wake;

        @Setup
        public void setup() {
            channel = new EmbeddedChannel();
            channel.freezeTime();
            loop = channel.eventLoop();
            ticker = loop.ticker();
        }

        @TearDown
        public void tearDown() {
            channel.finishAndReleaseAll();
        }

        void wake() {
            long wakeAt = armedWakeAt;
            long lateBy = ticker.nanoTime() - wakeAt;
            timerLeadNanos = Math.max(0, Math.min(MAX_TIMER_LEAD_NANOS, timerLeadNanos + (lateBy - timerLeadNanos) / 8));
            if (wakeAtNanos == wakeAt) {
                wakeAtNanos = Long.MAX_VALUE;
            }
            pumps++;
        }
    }

    @Benchmark
    public long schedule(Schedule s) {
        Request r = s.puller.pull();
        long t = r.intendedNanos();
        s.pool.release(r);
        return t;
    }

    /** LoadDriver.waitForSendTime's timer branch, with the driver's one preallocated task. */
    @Benchmark
    public long timer(Timer s) {
        long now = s.ticker.nanoTime();
        long sendAt = now + INTERVAL_NANOS;
        long wakeAt = Math.max(now + MIN_TIMER_NANOS, sendAt - Math.min(s.timerLeadNanos, EARLY_NANOS));
        if (wakeAt < s.wakeAtNanos) {
            s.wakeAtNanos = wakeAt;
            s.armedWakeAt = wakeAt;
            s.loop.schedule(s.wakeTask, wakeAt - now, TimeUnit.NANOSECONDS);
        }
        s.channel.advanceTimeBy(INTERVAL_NANOS + LATENESS_NANOS, TimeUnit.NANOSECONDS);
        s.channel.runScheduledPendingTasks();
        return s.pumps;
    }
}
