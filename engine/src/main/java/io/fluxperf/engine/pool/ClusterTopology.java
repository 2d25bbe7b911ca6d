package io.fluxperf.engine.pool;

import io.fluxperf.engine.load.RunAddendum;
import io.fluxperf.engine.metrics.TopologyFigures;
import io.fluxperf.engine.metrics.WindowResult;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a cluster run saw of its cluster's layout, as a timeline: each change with the time it was
 * seen, and each gap (slots whose master the run lost, until a master of theirs answered again),
 * cut into the run's windows by time ({@link RunAddendum}). {@link ClusterRouting} records into it
 * from the load threads and the map's own thread; the run's thread reads it at each window's end.
 *
 * <h2>Assumptions and guarantees</h2>
 * <ul>
 *   <li>Every method locks this object; nothing is called on a hot path (a change is a lost
 *       connection or a map read, not a request).</li>
 *   <li>A change is reported in the first window that ends after it was seen (one seen during
 *       the connect or the warm-up, in the first window), and once.</li>
 *   <li>A gap is reported in every window it overlaps, each time as long as it was by that
 *       window's end; the whole run reports the longest of all.</li>
 * </ul>
 */
final class ClusterTopology implements RunAddendum {
    /** One gap as it is kept while the run goes: open until {@link #end} is set. */
    private static final class OpenGap {
        final String master;
        final BitSet slots;
        final long start;
        long end = Long.MAX_VALUE;

        OpenGap(String master, BitSet slots, long start) {
            this.master = master;
            this.slots = slots;
            this.start = start;
        }

        boolean open() {
            return end == Long.MAX_VALUE;
        }
    }

    private final List<TopologyFigures.Change> changes = new ArrayList<>();
    private final List<OpenGap> gaps = new ArrayList<>();
    /** The roles of the nodes in the last map read, by HOST:PORT. */
    private final Map<String, String> roles = new HashMap<>();
    /** Changes before this index have been reported in a window. */
    private int reported;

    synchronized void change(long nanos, String what) {
        // in time order among those not reported yet: a load thread's loss may be told after a later map read
        int at = changes.size();
        while (at > reported && changes.get(at - 1).atNanos() > nanos) {
            at--;
        }
        changes.add(at, new TopologyFigures.Change(nanos, what));
    }

    synchronized void roles(Map<String, String> now) {
        roles.clear();
        roles.putAll(now);
    }

    /** {@code master} was lost at {@code nanos}, the master then of {@code slots} (not empty). */
    synchronized void openGap(String master, BitSet slots, long nanos) {
        gaps.add(new OpenGap(master, slots, nanos));
    }

    /**
     * Ends, at {@code nanos}, each open gap whose every slot now has a master the run has not
     * lost ({@code masters}: each shard's member, -1 for none known; {@code lost}: by member).
     *
     * @return whether a gap is still open
     */
    synchronized boolean resolve(int[] masters, boolean[] lost, long nanos) {
        boolean anyOpen = false;
        for (OpenGap g : gaps) {
            if (!g.open()) {
                continue;
            }
            boolean answered = true;
            for (int s = g.slots.nextSetBit(0); s >= 0 && answered; s = g.slots.nextSetBit(s + 1)) {
                answered = masters[s] >= 0 && !lost[masters[s]];
            }
            if (answered) {
                g.end = nanos;
            } else {
                anyOpen = true;
            }
        }
        return anyOpen;
    }

    @Override
    public synchronized WindowResult window(WindowResult w) {
        List<TopologyFigures.Change> seen = new ArrayList<>();
        while (reported < changes.size() && changes.get(reported).atNanos() < w.endNanos()) {
            seen.add(changes.get(reported++));
        }
        return withFigures(w, new TopologyFigures(seen, gapsIn(w.startNanos(), w.endNanos())));
    }

    @Override
    public synchronized WindowResult run(WindowResult total) {
        List<TopologyFigures.Change> seen = changes.stream().filter(c -> c.atNanos() < total.endNanos()).toList();
        return withFigures(total, new TopologyFigures(seen, gapsIn(Long.MIN_VALUE, total.endNanos())));
    }

    private WindowResult withFigures(WindowResult w, TopologyFigures f) {
        WindowResult out = w.pool() != null && !roles.isEmpty() ? w.withPool(w.pool().withRoles(roles)) : w;
        return out.withTopology(f);
    }

    /** The gaps that overlap [{@code from}, {@code to}), each as long as it was by {@code to}. */
    private List<TopologyFigures.Gap> gapsIn(long from, long to) {
        List<TopologyFigures.Gap> out = new ArrayList<>();
        for (OpenGap g : gaps) {
            boolean openThen = g.end > to; // closed after the window's end: still open at it
            if (g.start < to && (openThen || g.end > from)) {
                out.add(new TopologyFigures.Gap(g.slots.nextSetBit(0), g.slots.length() - 1, g.master, g.start, openThen ? to : g.end, openThen));
            }
        }
        return out;
    }
}
