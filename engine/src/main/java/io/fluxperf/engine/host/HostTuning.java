package io.fluxperf.engine.host;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * What a run does to the JVM and the machine so that the load loops, not the client's own
 * housekeeping, set the timing: the one place where the JIT, the scheduler and timer workarounds
 * live. A run applies its policy at fixed points ({@code LoadRun}); nothing else calls the host
 * primitives of this package.
 *
 * <ul>
 *   <li><b>Timer slack</b> (every run): each load loop's timer slack is set to 1 ns, so that an
 *       alarm for a paced send rings on time ({@link TimerSlack}).</li>
 *   <li><b>A fresh start of recording</b> (every run with a warm-up): the warm-up's figures are
 *       emptied every 250 ms, so that the JIT compiles the recording code as a new window's empty
 *       histograms run it, not as one histogram that stopped seeing new extremes does.</li>
 *   <li><b>Rehearsal</b> (a process of its own): before the load, the window's end is done on
 *       made-up figures, so that the JIT compiles it while the CPU is free rather than at the
 *       first window's end while a loop needs it; then the heap is collected once.</li>
 *   <li><b>Wake-up exercise</b> (a paced run's warm-up in a process of its own): for its first
 *       seconds the loops are woken from outside every 100 µs, so that the profile the JIT compiles
 *       the loop's wait from has seen a task arrive at every point of it, as the window ends'
 *       tasks later do.</li>
 *   <li><b>An in-process warm-up until C2 has compiled</b> (a paced run in a process of its own):
 *       its main rounds last until C2 rests while they load, each under the exercises above
 *       ({@link #endWhenCompiled}, {@link #warmupRound}).</li>
 *   <li><b>Settling after the in-process warm-up</b> (a process of its own): the JIT gets up to
 *       200 ms to finish the compiles the warm-up queued before the first measured send.</li>
 *   <li><b>Priorities and courtesy</b> (a paced run in a process of its own): 0.5 s before the
 *       --warmup ends, else from the end of the in-process warm-up (3 s into a run with neither),
 *       the JIT's compiler threads and the run's own thread (where the JVM makes no clean-up
 *       safepoints) drop to nice 19 ({@link HousekeepingPriority}), and the run's thread offers the CPU back
 *       between the steps of a window's bookkeeping ({@link #pause()}, {@link CpuCourtesy}).</li>
 * </ul>
 * bench/README.md and docs/internals.md have the measurements behind each.
 */
public final class HostTuning {
    /** Rounds of the window-end rehearsal: with ten, C2 still compiled summary code at the first real window ends. */
    public static final int REHEARSAL_ROUNDS = 20;
    /** Extra latency summaries per round, so that C2 compiles HdrHistogram's mean and deviation before the load. */
    static final int REHEARSAL_SUMMARIES = 5;
    /** Without a warm-up, priorities drop this long into the load: first the JIT compiles the paced path at full priority. */
    private static final long YIELD_AFTER_NANOS = TimeUnit.SECONDS.toNanos(3);
    /** With a warm-up, this long before its end: the {@code renice} costs a few ms of CPU, which must not fall in a window. */
    private static final long YIELD_BEFORE_WINDOW_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
    /** How often the warm-up's figures are emptied, so that recording is compiled as a fresh window runs it. */
    private static final long WARMUP_CLEAR_NANOS = TimeUnit.MILLISECONDS.toNanos(250);
    /** How long, how often and until how near the warm-up's end the loops are woken from outside. */
    private static final long WAKE_EXERCISE_NANOS = TimeUnit.SECONDS.toNanos(3);
    private static final long WAKE_EXERCISE_INTERVAL_NANOS = TimeUnit.MICROSECONDS.toNanos(100);
    private static final long WAKE_EXERCISE_SPARED_NANOS = TimeUnit.SECONDS.toNanos(1);

    private static final HostTuning STANDARD = new HostTuning(false, false, false);

    /** After the in-process warm-up, how long the JIT must have compiled nothing, and the longest wait for that. */
    private static final long JIT_SETTLE_QUIET_NANOS = TimeUnit.MILLISECONDS.toNanos(30);
    private static final long JIT_SETTLE_MAX_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    /**
     * The in-process warm-up's main rounds ({@link #endWhenCompiled}): how long C2 must be idle, how
     * often it is looked at, and the least length of a round: long enough, after the first round's
     * end threw code away, for the second to profile it again and queue it for C2.
     */
    private static final long COMPILED_QUIET_NANOS = TimeUnit.MILLISECONDS.toNanos(300);
    private static final long COMPILED_LOOK_NANOS = TimeUnit.MILLISECONDS.toNanos(25);
    private static final long COMPILED_MIN_NANOS = TimeUnit.SECONDS.toNanos(1);
    /**
     * The longest first and second main rounds: a C2 that never rests (a machine busy with other
     * work) costs no more start-up than this. The second recompiles what the first's end threw away
     * (the source's end, the stop from another thread: branches the compiled code never saw); its
     * own end then finds them in the profile.
     */
    private static final List<Duration> COMPILED_ROUNDS = List.of(Duration.ofSeconds(5), Duration.ofSeconds(2));

    /**
     * The longest main rounds of the in-process warm-up for a run that measures {@code measured} in
     * all (its windows): 5 s and 2 s, shortened in proportion when the run measures less than their
     * 7 s, so that a short run (a quick look, a test) does not wait longer for the JIT than it
     * measures. Such a run's windows may still see the JIT at work; a long one's do not.
     */
    public static List<Duration> compiledRounds(Duration measured) {
        long all = COMPILED_ROUNDS.stream().mapToLong(Duration::toNanos).sum();
        if (measured.isNegative() || measured.isZero() || measured.toNanos() >= all) {
            return COMPILED_ROUNDS;
        }
        double share = (double) measured.toNanos() / all;
        return COMPILED_ROUNDS.stream().map(d -> Duration.ofNanos(Math.round(d.toNanos() * share))).toList();
    }

    private final boolean rehearse;
    private final boolean exercise;
    private final boolean lowersPriorities;
    /** Priorities dropped already (after an in-process warm-up): a run's load drops them no more. */
    private boolean lowered;

    private HostTuning(boolean rehearse, boolean exercise, boolean lowersPriorities) {
        this.rehearse = rehearse;
        this.exercise = exercise;
        this.lowersPriorities = lowersPriorities;
    }

    /**
     * What every run does, in a process that hosts other runs too (tests, an embedding program):
     * the loops' timer slack, and the warm-up's fresh starts. Nothing that outlives the run.
     */
    public static HostTuning standard() {
        return STANDARD;
    }

    /**
     * For a run in a process of its own (the command line), which may change what outlives it.
     *
     * @param paced      the run is open loop (or a timed replay): its loops must not wait for the CPU
     * @param priorities lower the housekeeping threads and offer the CPU back ({@code --no-host-tuning}: false, for comparisons)
     */
    public static HostTuning ownProcess(boolean paced, boolean priorities) {
        return new HostTuning(true, paced, paced && priorities);
    }

    /**
     * Whether the command warms this process up in-process before its run (against an embedded
     * target: {@code RunOrchestrator.warmUp}): only a process of its own, whose JIT state is the
     * run's alone.
     */
    public boolean warmsUp() {
        return rehearse;
    }

    /**
     * Whether the in-process warm-up's main rounds last until the JIT has compiled what they run
     * ({@link #endWhenCompiled}), not a fixed count of requests: a paced run in a process of its
     * own, whose loops later get the CPU before the compilers (docs/internals.md, "Priorities").
     * Not one with a {@code --warmup}: that compiles the path from the real server's profile, and
     * the embedded target's C2 code was thrown away at the first real sends (a branch, a type or a
     * value it never saw); at a rate near a full CPU, the slower code until C2 was done again left
     * a backlog that the first window inherited.
     *
     * @param runWarmup the run's own {@code --warmup} against its server
     */
    public boolean warmsUntilCompiled(Duration runWarmup) {
        return rehearse && exercise && runWarmup.isZero();
    }

    /**
     * The policy of one main round of the in-process warm-up ({@link #warmsUntilCompiled}): the
     * exercises of a paced run's warm-up (fresh starts of recording, and the loops woken from
     * outside), so that what C2 compiles there has seen what the measured load does, and nothing
     * that outlives the round. The round's config is all warm-up (its {@code --warmup} is the
     * round's bound), so that the exercises run through it.
     */
    public HostTuning warmupRound() {
        return new HostTuning(false, true, false);
    }

    /**
     * A main round of the in-process warm-up starts loading: {@code end} is called, once, when C2
     * has been idle for {@link #COMPILED_QUIET_NANOS} while the load went on, not before
     * {@link #COMPILED_MIN_NANOS} (unless {@code maxNanos} is shorter) and at the latest after
     * {@code maxNanos}. A fixed 8,000 requests
     * ended while C2 was still busy with start-up's methods, whose queue's length raises the counts
     * a method needs for C2 (HotSpot's Tier4LoadFeedback): the paced path ran C1's code into the
     * measured windows and was compiled there, at nice 19.
     *
     * @return stops the watch (the round ended first)
     */
    public Watch endWhenCompiled(long maxNanos, Runnable end) {
        CompilerWork work = new CompilerWork();
        Thread watch = new Thread(() -> {
            long start = System.nanoTime();
            long quietSince = start;
            while (true) {
                LockSupport.parkNanos(COMPILED_LOOK_NANOS);
                if (Thread.currentThread().isInterrupted()) {
                    return; // closed: the round ended first
                }
                long now = System.nanoTime();
                if (work.busy()) {
                    quietSince = now;
                }
                if (now - start >= COMPILED_MIN_NANOS && now - quietSince >= COMPILED_QUIET_NANOS
                        || now - start >= maxNanos) {
                    end.run();
                    return;
                }
            }
        }, "fluxperf-jit-watch");
        watch.setDaemon(true);
        watch.start();
        return watch::interrupt;
    }

    /** A watch that runs until it is closed or has done what it watches for. */
    public interface Watch extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * The in-process warm-up is over and the measured run is next: lets the JIT finish what the
     * warm-up queued (at most {@link #JIT_SETTLE_MAX_NANOS}; a compile the warm-up's last requests
     * started would otherwise share the CPU with the first measured ones). A run without a
     * {@code --warmup} of its own has its priorities dropped now, so that the {@code renice} falls
     * before the first measured send. With one, they drop just before it ends ({@link Load#tick}):
     * that warm-up meets the real server, and what the embedded target never made happen (a wait
     * whose deadline had passed, every connection busy) throws compiled code away there; C2
     * compiles it again at full priority, not at nice 19 on a CPU the loop keeps busy, which
     * finished the paced path's compiles only well into the windows (docs/internals.md, "Priorities").
     *
     * @param runWarmup the run's own {@code --warmup}
     */
    public void afterWarmup(Duration runWarmup) {
        if (!rehearse) {
            return;
        }
        JitSettle.await(JIT_SETTLE_QUIET_NANOS, JIT_SETTLE_MAX_NANOS);
        if (lowersPriorities && !lowered && dropsAfterInProcessWarmup(runWarmup)) {
            lowered = true;
            HousekeepingPriority.lowerCompilersAndCurrentThread();
        }
    }

    /** Whether priorities drop as the in-process warm-up ends: when the run has no warm-up of its own to drop them in. */
    static boolean dropsAfterInProcessWarmup(Duration runWarmup) {
        return runWarmup.toNanos() <= YIELD_BEFORE_WINDOW_NANOS;
    }

    /** On each load loop, as it starts. */
    public void onLoadLoop() {
        TimerSlack.minimizeForCurrentThread();
    }

    /**
     * Before the load: rehearses a window's end {@link #REHEARSAL_ROUNDS} times (when the run has
     * more than one, and so ends windows while loading), then collects the heap once (the warm-up's
     * garbage would otherwise bring a collection into the first windows; the launcher's Shenandoah
     * does it concurrently and gives the freed memory back).
     *
     * @param windowEnd one window's end on made-up figures, through the same code as the real ones
     * @param summary   one summary of a made-up window's latency
     */
    public void beforeLoad(int windows, Runnable windowEnd, Runnable summary) {
        if (!rehearse) {
            return;
        }
        if (windows > 1) {
            for (int round = 0; round < REHEARSAL_ROUNDS; round++) {
                windowEnd.run();
                for (int k = 0; k < REHEARSAL_SUMMARIES; k++) {
                    summary.run();
                }
            }
        }
        System.gc();
    }

    /** What the policy may do to the load threads while they load. */
    public interface Loops {
        /** Empties the warm-up's figures of every loop. */
        void clearWarmupFigures();

        /** Queues an empty task on every loop, which wakes the ones that wait. */
        void wakeFromOutside();
    }

    /**
     * The load starts: the policy's schedule for this run, which the run's thread ticks while it
     * waits ({@link Load#tick}).
     *
     * @param warmupEndNanos when the warm-up ends, or {@code startNanos} without one
     */
    public Load loadStarts(long startNanos, long warmupEndNanos, Loops loops) {
        return new Load(startNanos, warmupEndNanos, loops);
    }

    /** Whether {@link #pause()} may yield: a window's bookkeeping then makes its summaries in steps too. */
    public boolean pausesBookkeeping() {
        return lowersPriorities;
    }

    /**
     * Between two steps of a window's bookkeeping on the run's thread: once the measured load has
     * begun under {@link #ownProcess} priorities, the thread yields after each 100 µs of work, so
     * that a paced loop waiting for the CPU gets it at once, not at the next scheduler tick.
     */
    public void pause() {
        CpuCourtesy.breathe();
    }

    /** The run is over: its thread stops yielding. Lowered priorities stay (they cannot be raised again). */
    public void end() {
        CpuCourtesy.end();
    }

    /** One run's schedule of exercises and of the moment priorities drop. */
    public final class Load {
        private final long start;
        private final long warmupEnd;
        private final Loops loops;
        /** The wake-up exercise runs until {@link #wakeUntil}; false: none in this run (or no more). */
        private boolean wakes;
        private final long wakeUntil;
        private long nextClear;
        private boolean yielded;

        private Load(long start, long warmupEnd, Loops loops) {
            this.start = start;
            this.warmupEnd = warmupEnd;
            this.loops = loops;
            boolean warmup = warmupEnd - start > 0;
            this.wakes = exercise && warmup;
            this.wakeUntil = Math.min(start + WAKE_EXERCISE_NANOS, warmupEnd - WAKE_EXERCISE_SPARED_NANOS);
            this.nextClear = warmup ? start + WARMUP_CLEAR_NANOS : Long.MAX_VALUE;
        }

        /**
         * Does what is due at {@code now} and returns when it next wants to be called; the run's
         * thread calls it whenever it wakes while the load runs.
         */
        public long tick(long now) {
            long next = Long.MAX_VALUE;
            if (nextClear != Long.MAX_VALUE) {
                if (now - nextClear >= 0) {
                    loops.clearWarmupFigures();
                    nextClear += WARMUP_CLEAR_NANOS;
                }
                if (warmupEnd - nextClear <= 0) {
                    nextClear = Long.MAX_VALUE; // the last part of the warm-up is recorded as a window is
                } else {
                    next = nextClear;
                }
            }
            if (wakes && now - wakeUntil < 0) {
                loops.wakeFromOutside();
                next = Math.min(next, now + WAKE_EXERCISE_INTERVAL_NANOS);
            }
            if (!yielded) {
                long yieldAt = warmupEnd - start > 0 ? warmupEnd - YIELD_BEFORE_WINDOW_NANOS
                        : lowered ? start : start + YIELD_AFTER_NANOS;
                if (now - yieldAt >= 0) {
                    measuredLoadBegins();
                } else {
                    next = Math.min(next, yieldAt);
                }
            }
            return next;
        }

        /**
         * The warm-up ends now, maybe before the end it was started with (a warm-up to a hit rate,
         * whose end is only its bound): its exercises stop, and the priorities drop.
         */
        public void warmupEnds() {
            nextClear = Long.MAX_VALUE;
            wakes = false;
            measuredLoadBegins();
        }

        /** The warm-up is over (or there is none): the paced path is compiled by now, so priorities drop at the latest here. */
        public void measuredLoadBegins() {
            if (yielded) {
                return;
            }
            yielded = true;
            if (lowersPriorities) {
                if (!lowered) {
                    lowered = true;
                    HousekeepingPriority.lowerCompilersAndCurrentThread();
                }
                CpuCourtesy.begin();
            }
        }
    }
}
