package io.fluxperf.replay;

import io.fluxperf.engine.log.LogEntry;
import java.util.Arrays;

/**
 * The read-ahead: a bounded window of entries that come out by sort key (ties in read order).
 * Commands that a log wrote slightly out of order (memcached's worker threads, twemcache's
 * per-thread buffers, the event loops of a trace) come out in order as long as they are less than
 * its size apart.
 *
 * <p>Most of a log is in order already, so an entry that sorts after the last one added goes to a
 * first-in first-out ring (its head is its smallest), and only the others to a min-heap; the
 * smaller of the two heads comes out. An in-order log then costs two array accesses per command
 * instead of a heap's climb through a window of 16,384 entries, each step a cache miss.
 *
 * <p>It holds entries by their index in the reader's pool, not by reference: storing a reference
 * to a long-lived entry into a long-lived array dirties a card for G1 to refine, once per command.
 */
final class ReorderWindow {
    /** What an empty window's {@link #poll()} returns. */
    static final int NONE = -1;

    private final LogEntry[] entries;
    /** Entries in sort-key order, oldest at {@link #head}. */
    private int[] ring = new int[256];
    private int head;
    private int ringSize;
    /** The entries that came out of order. */
    private int[] heap = new int[64];
    private int heapSize;
    private long heldBytes;

    /** @param entries the pool that indices name */
    ReorderWindow(LogEntry[] entries) {
        this.entries = entries;
    }

    /** Adds the entry at index {@code e} of the pool. */
    void add(int e) {
        heldBytes += entries[e].heldBytes();
        if (ringSize == 0 || !less(e, ring[(head + ringSize - 1) & (ring.length - 1)])) {
            if (ringSize == ring.length) {
                growRing();
            }
            ring[(head + ringSize) & (ring.length - 1)] = e;
            ringSize++;
        } else {
            push(e);
        }
    }

    /** The index of the entry with the smallest sort key, or {@link #NONE} when empty. */
    int poll() {
        int top;
        if (heapSize > 0 && (ringSize == 0 || less(heap[0], ring[head]))) {
            top = popHeap();
        } else if (ringSize > 0) {
            top = ring[head];
            head = (head + 1) & (ring.length - 1);
            ringSize--;
        } else {
            return NONE;
        }
        heldBytes -= entries[top].heldBytes();
        return top;
    }

    int size() {
        return ringSize + heapSize;
    }

    /** Key, argument and value bytes held by the entries in the window. */
    long heldBytes() {
        return heldBytes;
    }

    private void growRing() {
        int[] bigger = new int[ring.length * 2];
        for (int i = 0; i < ringSize; i++) {
            bigger[i] = ring[(head + i) & (ring.length - 1)];
        }
        ring = bigger;
        head = 0;
    }

    private void push(int e) {
        if (heapSize == heap.length) {
            heap = Arrays.copyOf(heap, heapSize * 2);
        }
        int i = heapSize++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!less(e, heap[parent])) {
                break;
            }
            heap[i] = heap[parent];
            i = parent;
        }
        heap[i] = e;
    }

    private int popHeap() {
        int top = heap[0];
        int last = heap[--heapSize];
        if (heapSize > 0) {
            int i = 0;
            while (true) {
                int child = 2 * i + 1;
                if (child >= heapSize) {
                    break;
                }
                if (child + 1 < heapSize && less(heap[child + 1], heap[child])) {
                    child++;
                }
                if (!less(heap[child], last)) {
                    break;
                }
                heap[i] = heap[child];
                i = child;
            }
            heap[i] = last;
        }
        return top;
    }

    private boolean less(int i, int j) {
        LogEntry a = entries[i];
        LogEntry b = entries[j];
        return a.sortKey < b.sortKey || (a.sortKey == b.sortKey && a.sequence < b.sequence);
    }
}
