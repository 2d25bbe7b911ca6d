package io.fluxperf.engine.target;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * A target server's counters, kept per event loop so that counting costs a plain store: each
 * {@link Cell} is written by one thread only (the loop whose connections use it) and read by any
 * thread with opaque reads; a snapshot sums the cells. A protocol names its counters (by enum
 * ordinals laid out in one index space) in its own subclasses of this class and of {@link Cell}.
 *
 * <p>Assumptions and guarantees: a connection uses the cell of its own event loop for its whole
 * life, from that loop's thread (Netty runs a channel's handlers and timers on its loop). Each
 * counter read is a value the counter really had; a snapshot of several counters is not atomic.
 *
 * @param <C> the protocol's cell
 */
public abstract class LoopCounters<C extends LoopCounters.Cell> {
    /** Longs of padding on each side of a cell's counters, so that two loops' cells never share a cache line. */
    private static final int PAD = 8;
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(long[].class);

    private final Map<Object, C> cells = new ConcurrentHashMap<>();
    private final int counters;
    private final Supplier<C> newCell;

    /**
     * @param counters how many counters a cell has
     * @param newCell  makes a cell of that many counters
     */
    protected LoopCounters(int counters, Supplier<C> newCell) {
        this.counters = counters;
        this.newCell = newCell;
    }

    /** The cell for one event loop (any object that identifies it). */
    public final C cellFor(Object eventLoop) {
        return cells.computeIfAbsent(eventLoop, k -> newCell.get());
    }

    /** Sums over all cells, by counter index. */
    public final long[] snapshot() {
        long[] sum = new long[counters];
        for (Cell c : cells.values()) {
            for (int i = 0; i < counters; i++) {
                sum[i] += (long) SLOT.getOpaque(c.slots, PAD + i);
            }
        }
        return sum;
    }

    /** One event loop's counters; written only by that loop's thread. */
    public abstract static class Cell {
        private final long[] slots;

        protected Cell(int counters) {
            this.slots = new long[PAD + counters + PAD];
        }

        /** Adds {@code delta} to counter {@code index}. */
        protected final void add(int index, long delta) {
            int slot = PAD + index;
            SLOT.setOpaque(slots, slot, (long) SLOT.getOpaque(slots, slot) + delta);
        }
    }
}
