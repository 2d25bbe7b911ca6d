package io.fluxperf.engine.pause;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The raw evidence of pauses from three sources, and the pauses made of it: a stall that the
 * detector's threads all slept through, a collection the JVM reported, a load thread that waited
 * on the run queue. Evidence that overlaps (within {@link #JOIN_NANOS}) is one pause, as long as
 * its whole stretch; its cause is the one that covers at least half of it (a collection first,
 * then the run queue), else {@link PauseCause#STOPPED}. Stretches shorter than the threshold are
 * no pause. Events are added from any thread.
 */
final class PauseEvents {
    /** Evidence this close together is one pause. */
    static final long JOIN_NANOS = 2_000_000;

    enum Kind { STALL, GC, RUN_QUEUE }

    /**
     * One piece of evidence.
     *
     * @param waitNanos for a stall, how long the thread that saw it waited on the run queue meanwhile;
     *                  for a run-queue stretch, the load thread's wait; for a collection, its length
     */
    record Event(long startNanos, long endNanos, Kind kind, long waitNanos) {
    }

    private final ConcurrentLinkedQueue<Event> events = new ConcurrentLinkedQueue<>();

    void add(Event e) {
        if (e.endNanos() > e.startNanos()) {
            events.add(e);
        }
    }

    /** The pauses of {@code thresholdNanos} or longer that begin in [{@code from}, {@code to}), in time order. */
    List<ClientPause> pauses(long from, long to, long thresholdNanos) {
        List<ClientPause> out = new ArrayList<>();
        for (ClientPause p : merge(new ArrayList<>(events), thresholdNanos)) {
            if (p.startNanos() >= from && p.startNanos() < to) {
                out.add(p);
            }
        }
        return out;
    }

    /** Joins overlapping evidence into pauses and names their causes. */
    static List<ClientPause> merge(List<Event> all, long thresholdNanos) {
        all.sort(Comparator.comparingLong(Event::startNanos));
        List<ClientPause> out = new ArrayList<>();
        int i = 0;
        while (i < all.size()) {
            long start = all.get(i).startNanos();
            long end = all.get(i).endNanos();
            long gc = 0;
            long runQueue = 0;
            int j = i;
            while (j < all.size() && all.get(j).startNanos() <= end + JOIN_NANOS) {
                Event e = all.get(j);
                end = Math.max(end, e.endNanos());
                switch (e.kind()) {
                    case GC -> gc += e.endNanos() - e.startNanos();
                    case RUN_QUEUE -> runQueue = Math.max(runQueue, e.waitNanos());
                    case STALL -> runQueue = Math.max(runQueue, e.waitNanos());
                }
                j++;
            }
            long length = end - start;
            if (length >= thresholdNanos) {
                PauseCause cause = 2 * gc >= length ? PauseCause.GC : 2 * runQueue >= length ? PauseCause.RUN_QUEUE
                        : PauseCause.STOPPED;
                out.add(new ClientPause(start, length, cause));
            }
            i = j;
        }
        return out;
    }
}
