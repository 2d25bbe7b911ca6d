package io.fluxperf.engine.metrics;

import java.util.List;
import java.util.Locale;

/**
 * What a cluster run saw of its cluster's layout in one window (or over the whole run): the
 * changes, in order, and the stretches in which slots had no master that answered. A gap begins
 * when the run loses every connection to a master (killed, unreachable) and ends when a map read
 * from the cluster names a master for those slots that the run reaches (its replica promoted), or
 * when the lost master answers again; one still open at the window's end counts up to it.
 *
 * @param changes in the order seen
 * @param gaps    the gaps that overlap the window, each as long as it was within or before the
 *                window's end
 */
public record TopologyFigures(List<Change> changes, List<Gap> gaps) {
    /** The report lists at most this many changes on one line; the JSON holds every one. */
    public static final int LISTED_CHANGES = 5;

    public TopologyFigures {
        changes = List.copyOf(changes);
        gaps = List.copyOf(gaps);
    }

    /** One change: when it was seen (System.nanoTime) and what it was, as the report says it. */
    public record Change(long atNanos, String what) {
    }

    /**
     * Slots without a master that answered.
     *
     * @param firstSlot  the lowest slot of the range the lost master served
     * @param lastSlot   the highest (slots between that another master served are not counted out:
     *                   the range is as the lost master held it)
     * @param master     the master lost, HOST:PORT
     * @param startNanos when the run lost it (System.nanoTime)
     * @param endNanos   when its slots had a master again, or the window's end while still open
     * @param open       still open at the window's end
     */
    public record Gap(int firstSlot, int lastSlot, String master, long startNanos, long endNanos, boolean open) {
        public long nanos() {
            return Math.max(0, endNanos - startNanos);
        }

        /** {@code slot 5,000-10,922} or {@code slot 42}. */
        public String slots() {
            return firstSlot == lastSlot ? "slot " + group(firstSlot) : "slot " + group(firstSlot) + "-" + group(lastSlot);
        }
    }

    /** The longest gap, or null when there was none. */
    public Gap longestGap() {
        Gap longest = null;
        for (Gap g : gaps) {
            if (longest == null || g.nanos() > longest.nanos()) {
                longest = g;
            }
        }
        return longest;
    }

    /**
     * The report's line: {@code Topology: no change}, or the changes seen (the first
     * {@link #LISTED_CHANGES}), then the longest time a slot went without a master.
     */
    public String line() {
        StringBuilder b = new StringBuilder("Topology: ");
        if (changes.isEmpty()) {
            b.append("no change");
        } else {
            b.append(changes.size()).append(changes.size() == 1 ? " change: " : " changes: ");
            for (int i = 0; i < Math.min(LISTED_CHANGES, changes.size()); i++) {
                b.append(i == 0 ? "" : "; ").append(changes.get(i).what());
            }
            if (changes.size() > LISTED_CHANGES) {
                b.append("; and ").append(changes.size() - LISTED_CHANGES).append(" more");
            }
        }
        Gap g = longestGap();
        if (g != null) {
            b.append(String.format(Locale.ROOT, "; %s without a master for %.2f s%s", g.slots(), g.nanos() / 1e9,
                    g.open() ? " so far" : ""));
        }
        return b.toString();
    }

    private static String group(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }
}
