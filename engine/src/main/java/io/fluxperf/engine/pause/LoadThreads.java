package io.fluxperf.engine.pause;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The load threads of this process ({@code fluxperf-load-N}, found by the names Linux keeps for
 * them in {@code /proc/self/task/TID/comm}) and their run-queue delay from their
 * {@code schedstat}: how long each was runnable and waited for a CPU. A stretch in which a load
 * thread waited for nearly all of the time is a pause of the client ({@link PauseCause#RUN_QUEUE});
 * the waits summed over a window tell whether the client was short of CPU. Thread-safe: the
 * detector samples it and the run's thread reads it.
 */
public final class LoadThreads implements AutoCloseable {
    /** How the load loops' threads are named (Linux keeps the first 15 bytes). */
    static final String NAME_PREFIX = "fluxperf-load";
    /** A sampling interval in which a thread waited at least this share of it counts as starved. */
    static final double STARVED_SHARE = 0.8;

    private final ProcessThreads found = new ProcessThreads(name -> name.startsWith(NAME_PREFIX));
    private final Map<Integer, Watched> threads = new HashMap<>();
    /** The watched threads as an array, which {@link #sample} walks without an iterator. */
    private Watched[] sampled = new Watched[0];

    /** One load thread: its schedstat, its last sample and the stretch it is starved in, if any. */
    private static final class Watched {
        final SchedStat stat;
        long lastNanos;
        long lastWait;
        long stretchStart = -1;
        long stretchWait;

        Watched(SchedStat stat, long now) {
            this.stat = stat;
            this.lastNanos = now;
            this.lastWait = stat.waitNanos();
        }
    }

    /**
     * Looks for load threads that started since the last look, and lets go of those that ended.
     * It looks through /proc only when the process's thread count changed (see
     * {@link ProcessThreads}): the detector calls it every half second, measurements included.
     */
    public synchronized void rescan() {
        long now = System.nanoTime();
        if (!found.refresh(now)) {
            return;
        }
        threads.keySet().retainAll(found.watched().keySet());
        for (Map.Entry<Integer, SchedStat> e : found.watched().entrySet()) {
            if (!threads.containsKey(e.getKey())) {
                threads.put(e.getKey(), new Watched(e.getValue(), now));
            }
        }
        sampled = threads.values().toArray(new Watched[0]);
    }

    /** How many load threads are watched. */
    public synchronized int count() {
        return threads.size();
    }

    /**
     * Each watched thread's run-queue delay so far, ns, by thread id (a thread that ended is left
     * out, and let go).
     */
    public synchronized Map<Integer, Long> waits() {
        Map<Integer, Long> out = new HashMap<>();
        for (Iterator<Map.Entry<Integer, Watched>> it = threads.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Integer, Watched> e = it.next();
            long w = e.getValue().stat.waitNanos();
            if (w < 0) {
                it.remove(); // it ended: the next look closes its file
                sampled = threads.values().toArray(new Watched[0]);
            } else {
                out.put(e.getKey(), w);
            }
        }
        return out;
    }

    /**
     * Samples every thread's run-queue delay at {@code now} and returns the starved stretches that
     * ended with it: a thread that waited for {@link #STARVED_SHARE} or more of each sampling
     * interval, for {@code thresholdNanos} of waiting or more in all.
     */
    synchronized List<PauseEvents.Event> sample(long now, long thresholdNanos) {
        List<PauseEvents.Event> out = List.of(); // every 5 ms: nothing allocated unless a stretch ended
        for (Watched t : sampled) {
            long wait = t.stat.waitNanos();
            if (wait < 0) {
                continue;
            }
            long dt = now - t.lastNanos;
            long dw = wait - t.lastWait;
            if (dt > 0 && dw >= STARVED_SHARE * dt) {
                if (t.stretchStart < 0) {
                    t.stretchStart = t.lastNanos;
                    t.stretchWait = 0;
                }
                t.stretchWait += dw;
            } else if (t.stretchStart >= 0) {
                if (t.stretchWait >= thresholdNanos) {
                    if (out.isEmpty()) {
                        out = new ArrayList<>();
                    }
                    out.add(new PauseEvents.Event(t.stretchStart, t.lastNanos, PauseEvents.Kind.RUN_QUEUE, t.stretchWait));
                }
                t.stretchStart = -1;
            }
            t.lastNanos = now;
            t.lastWait = wait;
        }
        return out;
    }

    @Override
    public synchronized void close() {
        threads.clear();
        sampled = new Watched[0];
        found.close();
    }
}
