package io.fluxperf.replay;

import io.fluxperf.engine.log.LogEntry;
import java.util.Arrays;

/**
 * The read-ahead: a bounded min-heap of entries by sort key (ties in read order). Commands that
 * a log wrote slightly out of order (memcached's worker threads, twemcache's per-thread buffers,
 * the event loops of a trace) come out in order as long as they are less than its capacity apart.
 */
final class ReorderWindow {
    private LogEntry[] heap = new LogEntry[256];
    private int size;
    private long heldBytes;

    void add(LogEntry e) {
        if (size == heap.length) {
            heap = Arrays.copyOf(heap, size * 2);
        }
        heldBytes += e.heldBytes();
        int i = size++;
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

    /** The entry with the smallest sort key, or null when empty. */
    LogEntry poll() {
        if (size == 0) {
            return null;
        }
        LogEntry top = heap[0];
        LogEntry last = heap[--size];
        heap[size] = null;
        if (size > 0) {
            int i = 0;
            while (true) {
                int child = 2 * i + 1;
                if (child >= size) {
                    break;
                }
                if (child + 1 < size && less(heap[child + 1], heap[child])) {
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
        heldBytes -= top.heldBytes();
        return top;
    }

    int size() {
        return size;
    }

    /** Key, argument and value bytes held by the entries in the window. */
    long heldBytes() {
        return heldBytes;
    }

    private static boolean less(LogEntry a, LogEntry b) {
        return a.sortKey < b.sortKey || (a.sortKey == b.sortKey && a.sequence < b.sequence);
    }
}
