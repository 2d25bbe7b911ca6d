package io.fluxperf.bench;

import io.fluxperf.engine.config.KeyspaceConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Request;
import io.fluxperf.engine.request.RequestPool;
import io.fluxperf.engine.workload.GeneratedLoad;
import io.fluxperf.engine.netty.AlarmIoHandler;
import io.netty.channel.EventLoop;
import io.netty.channel.IoHandle;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerContext;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.IoRegistration;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.ThreadAwareExecutor;
import io.netty.util.concurrent.Ticker;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
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
 * <p>{@code timer}: the wake-up that {@code LoadDriver.waitForSendTime} sets when the next
 * request is due more than the early window (50 µs) ahead: once per request below 20,000/s per
 * thread, once per batch of the requests due within 50 µs of each other above. That method is
 * private to the engine, so its timer branch is mirrored here line for line (the lead, capped at
 * the early window; the minimum timer; the earliest-wake-up guard; the lead's moving average) on
 * the engine's own {@link AlarmIoHandler}: each op sets the alarm, and one turn of the handler
 * asks for the wait's deadline and delay as the transport does before it waits, then rings the
 * alarm. The transport under it is a stand-in that only asks, so the op is the alarm's own cost,
 * without the system call. {@code timerNettySchedule} is the same branch on Netty's
 * {@code schedule()} as the driver had it before the alarm (an {@link EmbeddedChannel}'s loop,
 * which shares {@code AbstractScheduledEventExecutor.schedule} with the epoll loop, its clock
 * frozen and moved 60 µs per op: a send 50 µs away, fired 10 µs late): its B/op are Netty's
 * {@code ScheduledFutureTask}, one per wake-up.
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

    /** LoadDriver's pacing fields, and how a wake-up learns the timers' lateness. */
    abstract static class PacerFields {
        long timerLeadNanos = TimeUnit.MICROSECONDS.toNanos(20);
        long pumps;

        void learnLateness(long lateByNanos) {
            timerLeadNanos = Math.max(0, Math.min(MAX_TIMER_LEAD_NANOS, timerLeadNanos + (lateByNanos - timerLeadNanos) / 8));
        }
    }

    /** The driver's pacing fields and an alarm handler over a transport that only asks for its deadline. */
    @State(Scope.Thread)
    public static class Timer extends PacerFields {
        AlarmIoHandler alarm;
        LoopTurn turn;
        /** What the stand-in transport learnt from the context, so that the JIT keeps the asking. */
        long asked;

        @Setup
        public void setup() {
            AtomicReference<AlarmIoHandler> made = new AtomicReference<>();
            IoHandlerFactory transport = executor -> new AskingTransport(this);
            AlarmIoHandler.factory(transport, made::set).newHandler(new ThreadAwareExecutor() {
                @Override
                public boolean isExecutorThread(Thread thread) {
                    return true;
                }

                @Override
                public void execute(Runnable task) {
                    task.run();
                }
            });
            alarm = made.get();
            alarm.onAlarm(this::wake);
            turn = new LoopTurn();
        }

        void wake(long setFor) {
            learnLateness(System.nanoTime() - setFor);
            pumps++;
        }
    }

    /** The driver's pacing fields and a loop whose clock the benchmark moves (Netty's schedule()). */
    @State(Scope.Thread)
    public static class NettyTimer extends PacerFields {
        EmbeddedChannel channel;
        EventLoop loop;
        Ticker ticker;
        long wakeAtNanos = Long.MAX_VALUE;
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
            learnLateness(ticker.nanoTime() - wakeAt);
            if (wakeAtNanos == wakeAt) {
                wakeAtNanos = Long.MAX_VALUE;
            }
            pumps++;
        }
    }

    /** The loop's side of a turn: nothing queued, nothing scheduled (what the epoll loop says when idle). */
    static final class LoopTurn implements IoHandlerContext {
        @Override
        public boolean canBlock() {
            return true;
        }

        @Override
        public long delayNanos(long currentTimeNanos) {
            return TimeUnit.SECONDS.toNanos(1);
        }

        @Override
        public long deadlineNanos() {
            return -1;
        }
    }

    /** A transport that asks what epoll's handler asks before it waits, and does not wait. */
    static final class AskingTransport implements IoHandler {
        private final Timer state;

        AskingTransport(Timer state) {
            this.state = state;
        }

        @Override
        public int run(IoHandlerContext context) {
            long deadline = context.deadlineNanos();
            state.asked += context.canBlock() ? context.delayNanos(System.nanoTime()) + deadline : deadline;
            return 0;
        }

        @Override
        public IoRegistration register(IoHandle handle) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void wakeup() {
        }

        @Override
        public boolean isCompatible(Class<? extends IoHandle> handleType) {
            return false;
        }
    }

    @Benchmark
    public long schedule(Schedule s) {
        Request r = s.puller.pull();
        long t = r.intendedNanos();
        s.pool.release(r);
        return t;
    }

    /**
     * LoadDriver.waitForSendTime's timer branch on the loop's alarm, then the turn of the loop in
     * which it rings (set here for a time just passed, as when the wait has ended).
     */
    @Benchmark
    public long timer(Timer s) {
        long now = System.nanoTime();
        long sendAt = now + INTERVAL_NANOS;
        long wakeAt = Math.max(now + MIN_TIMER_NANOS, sendAt - Math.min(s.timerLeadNanos, EARLY_NANOS));
        if (wakeAt < s.alarm.alarmNanos()) {
            s.alarm.set(wakeAt - INTERVAL_NANOS - LATENESS_NANOS); // the wait is over: it rings in this turn
        }
        s.alarm.run(s.turn);
        return s.pumps + s.asked;
    }

    /** One read of the clock, which the alarm's op does four times (the driver's own two included). */
    @Benchmark
    public long clock() {
        return System.nanoTime();
    }

    /** The same branch on Netty's schedule(), with the driver's one preallocated task (the engine before the alarm). */
    @Benchmark
    public long timerNettySchedule(NettyTimer s) {
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
