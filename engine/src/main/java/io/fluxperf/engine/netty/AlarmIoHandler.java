package io.fluxperf.engine.netty;

import io.netty.channel.IoHandle;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerContext;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.IoRegistration;
import io.netty.util.concurrent.AbstractScheduledEventExecutor;
import io.netty.util.concurrent.ThreadAwareExecutor;
import io.netty.util.concurrent.Ticker;
import java.util.Objects;
import java.util.function.LongConsumer;

/**
 * A transport's own I/O handler (epoll, io_uring or NIO) with one alarm added: a time, in
 * {@link System#nanoTime()}, at which the event loop wakes and calls a listener.
 *
 * <p>Why: an open-loop pacer wakes its loop once per send (or per batch of sends due together),
 * and Netty's {@code schedule()} makes a new task for every call (64 B, and a priority-queue
 * insert and removal). The alarm is a field: setting it again allocates nothing. When the loop
 * is about to wait for I/O, this handler gives the transport the earlier of the alarm and the
 * loop's next scheduled task as the wait's deadline, so the transport's own timer (epoll_pwait2's
 * timeout or its timerfd) ends the wait; when the transport returns and the alarm is due, the
 * listener runs, on the loop, before the loop's tasks.
 *
 * <h2>Assumptions and guarantees</h2>
 * <ul>
 *   <li>{@link #set}, {@link #cancel} and {@link #alarmNanos()} are called on the loop's thread
 *       only; the listener runs there.</li>
 *   <li>One alarm: setting it replaces the time set before. The listener runs once per alarm that
 *       comes due, never before its time, and the alarm is cleared just before it runs (so the
 *       listener may set the next one).</li>
 *   <li>Everything else (registrations, wake-ups from other threads, the loop's scheduled tasks)
 *       is the transport's, unchanged: channels and {@code IoHandle}s of that transport register
 *       here as they would there.</li>
 * </ul>
 */
public final class AlarmIoHandler implements IoHandler {
    /** {@link #alarmNanos()} when no alarm is set. */
    public static final long NONE = Long.MAX_VALUE;
    /** What {@link IoHandlerContext#deadlineNanos()} says when nothing is scheduled. */
    private static final long NO_DEADLINE = -1;

    private final IoHandler transport;
    /** {@code System.nanoTime()} at the zero of the loop's clock, in which Netty states deadlines. */
    private final long loopClockOrigin;
    private final AlarmContext context = new AlarmContext();
    private long alarmNanos = NONE;
    private boolean pollOnly;
    /** Time spent in turns of {@link #pollOnly} that found nothing to do (no I/O, task or alarm). */
    private long idlePollNanos;
    /** The last turn found nothing to do; it began at {@link #idleTurnStart}. */
    private boolean lastTurnIdle;
    private long idleTurnStart;
    private LongConsumer listener = setFor -> { };

    private AlarmIoHandler(IoHandler transport, Ticker loopClock) {
        this.transport = transport;
        this.loopClockOrigin = loopClock.initialNanoTime();
    }

    /**
     * The handler factory of a group whose loops have an alarm each; the handlers made are
     * handed to {@code created} (on the thread that builds the group).
     */
    public static IoHandlerFactory factory(IoHandlerFactory transport, java.util.function.Consumer<AlarmIoHandler> created) {
        Objects.requireNonNull(transport, "transport");
        Objects.requireNonNull(created, "created");
        return new IoHandlerFactory() {
            @Override
            public IoHandler newHandler(ThreadAwareExecutor executor) {
                Ticker clock = executor instanceof AbstractScheduledEventExecutor loop ? loop.ticker() : Ticker.systemTicker();
                AlarmIoHandler handler = new AlarmIoHandler(transport.newHandler(executor), clock);
                created.accept(handler);
                return handler;
            }

            @Override
            public boolean isChangingThreadSupported() {
                return transport.isChangingThreadSupported();
            }
        };
    }

    /** Who hears the alarm, with the time it was set for; set it before the first alarm. */
    public void onAlarm(LongConsumer listener) {
        this.listener = Objects.requireNonNull(listener, "listener");
    }

    /** Sets the alarm for {@code atNanos} ({@link System#nanoTime()}), replacing the one set before. */
    public void set(long atNanos) {
        alarmNanos = atNanos == NONE ? NONE - 1 : atNanos;
    }

    public void cancel() {
        alarmNanos = NONE;
    }

    /**
     * With {@code true}, the loop never waits in the kernel for I/O or for its alarm: each turn
     * polls the transport (epoll_wait with a timeout of 0) and goes round again, so the thread
     * keeps its CPU. A reply is read, and an alarm rings, within a turn of its coming, without the
     * kernel's wake-up of a sleeping thread (an interrupt, a context switch, and on a virtual
     * machine an exit from its idle loop). Set it on the loop's thread, or before the loop runs.
     */
    public void pollOnly(boolean on) {
        pollOnly = on;
    }

    /**
     * The time this loop spent, while {@link #pollOnly}, in polls that found nothing to do: on CPU,
     * but not working. The loop's CPU time less this is the time it worked, which says whether a
     * busy-polling loop had room to spare. Read it on the loop's thread.
     */
    public long idlePollNanos() {
        return idlePollNanos;
    }

    /** When the alarm is set for, or {@link #NONE}. */
    public long alarmNanos() {
        return alarmNanos;
    }

    @Override
    public int run(IoHandlerContext loopContext) {
        context.loop = loopContext;
        long start = 0;
        if (pollOnly) {
            // an idle turn lasts from its start to the next one's: the poll and the loop's own round
            start = System.nanoTime();
            if (lastTurnIdle) {
                idlePollNanos += start - idleTurnStart;
            }
        }
        lastTurnIdle = false;
        boolean timed = pollOnly && loopContext.canBlock(); // no task waits: this turn may be an idle one
        int handled = transport.run(context);
        long at = alarmNanos;
        if (at == NONE && !timed) {
            return handled; // a closed loop's turn reads no clock
        }
        long now = System.nanoTime();
        if (at != NONE && now - at >= 0) {
            alarmNanos = NONE;
            listener.accept(at);
            handled++;
        } else if (timed && handled == 0) {
            lastTurnIdle = true;
            idleTurnStart = start;
        }
        return handled;
    }

    @Override
    public void initialize() {
        transport.initialize();
    }

    @Override
    public void prepareToDestroy() {
        transport.prepareToDestroy();
    }

    @Override
    public void destroy() {
        transport.destroy();
    }

    @Override
    public IoRegistration register(IoHandle handle) throws Exception {
        return transport.register(handle);
    }

    @Override
    public void wakeup() {
        transport.wakeup();
    }

    @Override
    public boolean isCompatible(Class<? extends IoHandle> handleType) {
        return transport.isCompatible(handleType);
    }

    /** The loop's context with the alarm folded into its deadline; one object, reused. */
    private final class AlarmContext implements IoHandlerContext {
        IoHandlerContext loop;

        @Override
        public boolean canBlock() {
            // an alarm already due makes the delay 0: the transport then only polls
            return !pollOnly && loop.canBlock();
        }

        @Override
        public long delayNanos(long currentTimeNanos) {
            long delay = loop.delayNanos(currentTimeNanos);
            long at = alarmNanos;
            return at == NONE ? delay : Math.min(delay, Math.max(0, at - currentTimeNanos));
        }

        @Override
        public long deadlineNanos() {
            long deadline = loop.deadlineNanos();
            long at = alarmNanos;
            if (at == NONE) {
                return deadline;
            }
            long alarm = Math.max(0, at - loopClockOrigin); // never -1, which says 'none'
            return deadline == NO_DEADLINE ? alarm : Math.min(deadline, alarm);
        }

        @Override
        public void reportActiveIoTime(long activeNanos) {
            loop.reportActiveIoTime(activeNanos);
        }

        @Override
        public boolean shouldReportActiveIoTime() {
            return loop.shouldReportActiveIoTime();
        }
    }
}
