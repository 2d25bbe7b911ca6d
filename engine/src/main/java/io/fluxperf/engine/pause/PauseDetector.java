package io.fluxperf.engine.pause;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Watches this process for the times it stood still, so that a report can tell a stalled client
 * from a slow server. Three kinds of evidence ({@link PauseEvents}):
 * <ul>
 *   <li>{@link #THREADS} daemon threads that each wake every {@link #SLEEP_NANOS}, in turn (thread
 *       i at {@code i × SLEEP_NANOS / THREADS} past each multiple of it), and note when they woke
 *       in one shared clock, the latest wake of any of them: a gap in it of {@link #THRESHOLD_NANOS}
 *       beyond the turn ({@link #STEP_NANOS}) is a stretch in which none of them ran, the whole
 *       process stood still (the idea of LatencyUtils' SimplePauseDetector). Taking turns, they
 *       see a stop as finely as one thread waking every {@link #STEP_NANOS} would, and a thread
 *       that waits for a CPU alone is no pause. The thread that sees the gap reads how long it
 *       waited on the run queue meanwhile, which tells "no CPU" from "stopped";</li>
 *   <li>the JVM's reports of its stop-the-world collections ({@link GcPauses});</li>
 *   <li>the load threads' own run-queue delay ({@link LoadThreads}), sampled every
 *       {@link #SAMPLE_NANOS} by the first detector thread: a load thread can starve while the
 *       detector runs on another CPU.</li>
 * </ul>
 * LatencyUtils' detector is not used: its threads are its own, and telling a stop from a wait for
 * the CPU needs each detecting thread to read its own {@code schedstat}.
 *
 * <p>Start it before the process lowers its threads' priorities: threads inherit their starter's
 * nice value, and a detector at nice 19 would see the load's every slice as a pause. It costs
 * 500 wake-ups a second: few, because on a paced load thread's own CPU each wake-up also switches
 * the load thread out and in (docs/bench-history.md, pass 38).
 */
public final class PauseDetector implements AutoCloseable {
    /**
     * A stretch this long or longer is a pause: ten times a slow cache request's p99, and above
     * the few milliseconds a busy Linux scheduler keeps a runnable thread waiting in normal times.
     */
    public static final long THRESHOLD_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    /** Each thread's period; a stop is measured to within {@link #STEP_NANOS} (of 10 ms). */
    static final long SLEEP_NANOS = TimeUnit.MILLISECONDS.toNanos(4);
    static final int THREADS = 2;
    /** The time from one thread's wake to the next one's. */
    static final long STEP_NANOS = SLEEP_NANOS / THREADS;
    static final long SAMPLE_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    /** How often new load threads are looked for. */
    static final long RESCAN_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
    /** How often a detector thread notes its own run-queue delay, the baseline for the next stall. */
    static final long BASELINE_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    private final PauseEvents events = new PauseEvents();
    private final AtomicLong lastAwake = new AtomicLong();
    private final LoadThreads loadThreads = new LoadThreads();
    private final CompilerThreads compilerThreads = new CompilerThreads();
    private final GcPauses gc;
    private final Thread[] threads = new Thread[THREADS];
    private volatile boolean running = true;
    private final long startedNanos;

    private PauseDetector() {
        this.startedNanos = System.nanoTime();
        lastAwake.set(startedNanos);
        this.gc = new GcPauses(events);
        loadThreads.rescan();
        for (int i = 0; i < THREADS; i++) {
            int index = i;
            threads[i] = new Thread(() -> watch(index), "fluxperf-pause-" + i);
            threads[i].setDaemon(true);
        }
    }

    /** Starts watching; {@link #close()} stops. */
    public static PauseDetector start() {
        PauseDetector d = new PauseDetector();
        for (Thread t : d.threads) {
            t.start();
        }
        return d;
    }

    /** The load threads it watches (looked for again every {@link #RESCAN_NANOS}). */
    public LoadThreads loadThreads() {
        return loadThreads;
    }

    /** The JIT compiler threads, whose CPU time a run reads each second. */
    public CompilerThreads compilerThreads() {
        return compilerThreads;
    }

    /** The pauses that began in [{@code fromNanos}, {@code toNanos}), in time order. */
    public List<ClientPause> pauses(long fromNanos, long toNanos) {
        return events.pauses(fromNanos, toNanos, THRESHOLD_NANOS);
    }

    private void watch(int index) {
        SchedStat own = SchedStat.ofCurrentThread();
        long baselineWait = own == null ? -1 : own.waitNanos();
        long baselineAt = System.nanoTime();
        long nextSample = baselineAt + SAMPLE_NANOS;
        long nextRescan = baselineAt + RESCAN_NANOS;
        long phase = startedNanos + index * STEP_NANOS;
        try {
            while (running) {
                long before = System.nanoTime();
                // the next wake of this thread's turn: after a stop it goes on from the next one, not from each missed
                long due = phase + (Math.floorDiv(before - phase, SLEEP_NANOS) + 1) * SLEEP_NANOS;
                LockSupport.parkNanos(due - before);
                long now = System.nanoTime();
                long previous = lastAwake.getAndAccumulate(now, Math::max);
                long stall = now - previous - STEP_NANOS;
                if (stall >= THRESHOLD_NANOS) {
                    long waited = 0;
                    if (own != null && baselineWait >= 0) {
                        long w = own.waitNanos();
                        waited = w < 0 ? 0 : w - baselineWait;
                    }
                    events.add(new PauseEvents.Event(previous + STEP_NANOS, now, PauseEvents.Kind.STALL, waited));
                }
                if (own != null && now - baselineAt >= BASELINE_NANOS) {
                    baselineWait = own.waitNanos();
                    baselineAt = now;
                }
                if (index == 0 && now >= nextSample) {
                    for (PauseEvents.Event e : loadThreads.sample(now, THRESHOLD_NANOS)) {
                        events.add(e);
                    }
                    nextSample = now + SAMPLE_NANOS;
                    if (now >= nextRescan) {
                        loadThreads.rescan();
                        nextRescan = now + RESCAN_NANOS;
                    }
                }
            }
        } finally {
            if (own != null) {
                own.close();
            }
        }
    }

    /** Stops the threads and the JVM's notifications. */
    @Override
    public void close() {
        running = false;
        for (Thread t : threads) {
            LockSupport.unpark(t);
        }
        for (Thread t : threads) {
            try {
                t.join(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        gc.close();
        loadThreads.close();
        compilerThreads.close();
    }
}
