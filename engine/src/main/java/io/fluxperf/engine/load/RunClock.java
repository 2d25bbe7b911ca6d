package io.fluxperf.engine.load;

import io.fluxperf.engine.metrics.StopReason;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;

/**
 * The run's clock, on the run's thread: it ends every load thread's interval at the next boundary
 * any job needs (one swap per thread, whichever job is due), hands that interval to every
 * {@link IntervalConsumer}, and tells the due ones so; jobs that read no figures (ramp steps, the
 * host policy) are ticked on every wake and only say when they next want one. Each job keeps its own next deadline (as wrk2's timer events do),
 * so a new cadence is one class and one {@link #register} call, not an edit here.
 *
 * <h2>Assumptions and guarantees</h2>
 * <ul>
 *   <li>Only the run's thread calls it; the loops are reached by tasks that return futures.</li>
 *   <li>Each thread's figures are swapped out once per boundary, whatever the number of jobs due
 *       at it; the emptied figures go back to the threads at the next swap, so a swap allocates
 *       nothing once each thread has its spare.</li>
 *   <li>The run's thread sleeps at most {@link #MAX_SLEEP_NANOS} at a time, so a stop is seen soon.</li>
 *   <li>While it runs the jobs, no interval lasts longer than {@link ThreadFigures#MAX_INTERVAL_NANOS}:
 *       the threads count in ints, and a run without a cadence of a second (no live line, no run
 *       directory) would otherwise swap only at its windows' ends.</li>
 * </ul>
 */
final class RunClock {
    /** The longest the run's thread sleeps before it looks again (a stop, the source running out). */
    static final long MAX_SLEEP_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    /** Why a wait ends early: a stop, a failed trace, the source run out; null to go on waiting. */
    interface Stops {
        StopReason check(long nowNanos);
    }

    /** A load thread as the clock sees it ({@link LoadDriver}): it hands out its interval's figures for emptied ones. */
    interface LoadThread {
        /** Ends the thread's interval on its loop; from then on it records into {@code spare}. */
        CompletableFuture<ThreadFigures> swap(ThreadFigures spare, boolean endWarmup);

        /** Emptied figures of the thread's shape. */
        ThreadFigures newFigures();
    }

    private final List<? extends LoadThread> drivers;
    private final Runnable pause;
    /** Sleeps up to the given nanoseconds, or less when a stop is asked for. */
    private final LongConsumer sleep;
    private final List<IntervalConsumer> consumers = new ArrayList<>();
    /** Emptied figures to record into next, one per thread; null until the first swap. */
    private List<ThreadFigures> spares;
    private long intervalStart;

    /**
     * @param pause between two steps of emptying figures: the host policy's pause
     * @param sleep sleeps up to its argument in nanoseconds, less when a stop is asked for
     */
    RunClock(List<? extends LoadThread> drivers, Runnable pause, LongConsumer sleep) {
        this.drivers = drivers;
        this.pause = pause;
        this.sleep = sleep;
        this.intervalStart = System.nanoTime();
    }

    /** Adds a job; it sees the intervals that end from now on. */
    <C extends IntervalConsumer> C register(C consumer) {
        consumers.add(consumer);
        return consumer;
    }

    /**
     * Ends every thread's interval now, hands it to every consumer and returns when it ended (the
     * mean of the threads' times).
     *
     * @param endWarmup the warm-up ends with this swap: later requests are traced as measured, in
     *                  the same event-loop step as the figures restart, so both agree
     */
    long swap(boolean endWarmup) {
        List<CompletableFuture<ThreadFigures>> futures = new ArrayList<>(drivers.size());
        for (int t = 0; t < drivers.size(); t++) {
            LoadThread d = drivers.get(t);
            futures.add(d.swap(spares != null ? spares.get(t) : d.newFigures(), endWarmup));
        }
        List<ThreadFigures> figures = new ArrayList<>(drivers.size());
        for (CompletableFuture<ThreadFigures> f : futures) {
            figures.add(LoopTasks.await(f, Duration.ofSeconds(10)));
        }
        long end = ThreadFigures.takenNanos(figures);
        Interval interval = new Interval(figures, intervalStart, end);
        for (IntervalConsumer c : consumers) {
            c.add(interval);
        }
        for (ThreadFigures f : figures) {
            f.reset(pause);
        }
        spares = figures;
        intervalStart = end;
        return end;
    }

    /**
     * Runs the jobs until {@code deadline} ({@link System#nanoTime()}) or a stop; returns why the
     * run stops, or null at the deadline. Jobs that read no figures run first, so a ramp step due
     * at a window's end begins before that window's bookkeeping.
     */
    StopReason runUntil(long deadline, Stops stops) {
        while (true) {
            long now = System.nanoTime();
            StopReason stop = stops.check(now);
            if (stop != null) {
                return stop;
            }
            for (int i = 0; i < consumers.size(); i++) {
                IntervalConsumer c = consumers.get(i);
                if (!c.readsFigures()) {
                    c.due(now); // a tick on every wake: it does what it has due, and says when next
                }
            }
            if (now - deadline >= 0) {
                return null;
            }
            boolean swapped = false;
            for (int i = 0; i < consumers.size(); i++) {
                IntervalConsumer c = consumers.get(i);
                long due = c.nextDueNanos();
                if (c.readsFigures() && due != Long.MAX_VALUE && now - due >= 0) {
                    if (!swapped) {
                        swap(false);
                        swapped = true;
                    }
                    c.due(now);
                }
            }
            if (!swapped && now - (intervalStart + ThreadFigures.MAX_INTERVAL_NANOS) >= 0) {
                swap(false); // the interval is at its longest: every consumer adds it, none is due
            }
            long wake = intervalStart + ThreadFigures.MAX_INTERVAL_NANOS - deadline < 0
                    ? intervalStart + ThreadFigures.MAX_INTERVAL_NANOS : deadline;
            for (int i = 0; i < consumers.size(); i++) {
                long due = consumers.get(i).nextDueNanos();
                if (due != Long.MAX_VALUE && due - wake < 0) {
                    wake = due;
                }
            }
            long left = wake - System.nanoTime();
            if (left > 0) {
                sleep.accept(Math.min(left, MAX_SLEEP_NANOS));
            }
        }
    }

    /** A measured window begins: each job that follows windows starts its own clock at it. */
    void windowBegins(int window, long startNanos, long plannedEndNanos) {
        for (IntervalConsumer c : consumers) {
            c.windowBegins(window, startNanos, plannedEndNanos);
        }
    }

    /** A measured window has ended (its last interval swapped out and handed over). */
    void windowEnds(int window, long endNanos) {
        for (IntervalConsumer c : consumers) {
            c.windowEnds(window, endNanos);
        }
    }
}
