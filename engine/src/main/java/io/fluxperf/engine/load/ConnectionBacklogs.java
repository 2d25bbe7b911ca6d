package io.fluxperf.engine.load;

import io.fluxperf.engine.request.Request;
import java.util.ArrayDeque;

/**
 * The requests of one load thread that are due but wait for their own connection (a replayed
 * client's, {@link Request#affinity()}), one first-in first-out queue per connection, within a
 * budget of bytes. While one client's connection is busy, the thread goes on taking requests and
 * sending the others': no client's wait delays another's commands (invariant 13). Each client's
 * commands still leave in order, since a request whose connection has others waiting joins them.
 *
 * <p>Keys keep their order across clients too, as far as sending can keep it: a request whose key
 * (its first) is also that of a request waiting for another connection must not overtake it
 * ({@link #keyWaitsElsewhere}): the thread holds it, as before, until that one has gone. A log's
 * write and a later read of the same key by another client then reach the server in the log's
 * order, whatever the clients' connections do. Keys are told apart by a hash in a table of
 * {@link #KEY_SLOTS} counters; two keys that share a slot only make a request wait that need not.
 *
 * <h2>Assumptions and guarantees</h2>
 * <ul>
 *   <li>Confined to the thread's event loop.</li>
 *   <li>The requests held never hold more than the budget's bytes of the heap (as
 *       {@link Request#retainedBytes()} counts them): past it, {@link #offer} refuses, and the
 *       thread waits as it did before there were backlogs (memory, not order, gives way).</li>
 *   <li>A connection is in the ready list at most once ({@code listed}).</li>
 *   <li>Nothing is allocated per request once each queue has grown to its largest.</li>
 * </ul>
 */
final class ConnectionBacklogs {
    /** Slots of the table of waiting keys: far more than requests usually wait, so few keys share one. */
    static final int KEY_SLOTS = 1 << 16;
    private static final int MIXED = -2;
    private static final int NONE = -1;
    /** Requests waiting per key slot, and the connection they all wait for ({@link #MIXED}: several). */
    private final int[] keyCount = new int[KEY_SLOTS];
    private final int[] keyOwner = new int[KEY_SLOTS];
    private final ArrayDeque<Request>[] waiting;
    private final boolean[] listed;
    /** Connections with waiting requests that may have room now, each at most once. */
    private final ArrayDeque<Integer> ready = new ArrayDeque<>();
    private final Integer[] boxes;
    private final long budgetBytes;
    private long bytes;
    private int count;
    private long peakBytes;
    private int peakCount;

    @SuppressWarnings("unchecked")
    ConnectionBacklogs(int connections, long budgetBytes) {
        this.waiting = new ArrayDeque[connections];
        this.listed = new boolean[connections];
        this.boxes = new Integer[connections];
        for (int i = 0; i < connections; i++) {
            boxes[i] = i; // boxed once: the ready list allocates nothing per request
        }
        this.budgetBytes = budgetBytes;
        java.util.Arrays.fill(keyOwner, NONE);
    }

    /**
     * Whether a request for {@code r}'s key waits for a connection other than {@code c} (-1: any
     * connection): then {@code r} must not leave before it.
     */
    boolean keyWaitsElsewhere(Request r, int c) {
        if (count == 0 || r.keyCount() == 0) {
            return false;
        }
        int k = keySlot(r);
        return keyCount[k] > 0 && (c < 0 || keyOwner[k] != c);
    }

    private static int keySlot(Request r) {
        byte[] b = r.keyBytes();
        int off = r.keyOffset(0);
        int end = off + r.keyLength(0);
        int h = 0x9E3779B9;
        for (int i = off; i < end; i++) {
            h = (h ^ b[i]) * 0x01000193;
        }
        return (h ^ h >>> 16) & (KEY_SLOTS - 1);
    }

    /** Whether requests wait for connection {@code c}. */
    boolean holds(int c) {
        ArrayDeque<Request> q = waiting[c];
        return q != null && !q.isEmpty();
    }

    /** Queues {@code r} behind connection {@code c}'s other waiting requests; false when the budget has no room for it. */
    boolean offer(int c, Request r) {
        int cost = r.retainedBytes();
        if (bytes + cost > budgetBytes) {
            return false;
        }
        ArrayDeque<Request> q = waiting[c];
        if (q == null) {
            q = new ArrayDeque<>(8);
            waiting[c] = q;
        }
        q.addLast(r);
        if (r.keyCount() > 0) {
            int k = keySlot(r);
            keyOwner[k] = keyCount[k] == 0 || keyOwner[k] == c ? c : MIXED;
            keyCount[k]++;
        }
        bytes += cost;
        count++;
        if (bytes > peakBytes) {
            peakBytes = bytes;
        }
        if (count > peakCount) {
            peakCount = count;
        }
        return true;
    }

    /** Connection {@code c} may have room: list it once, if requests wait for it. */
    void mayHaveRoom(int c) {
        if (!listed[c] && holds(c)) {
            listed[c] = true;
            ready.addLast(boxes[c]);
        }
    }

    /** The next listed connection, or -1; it leaves the list (list it again when it may have room again). */
    int nextReady() {
        Integer c = ready.pollFirst();
        if (c == null) {
            return -1;
        }
        listed[c] = false;
        return c;
    }

    /** The oldest request waiting for {@code c}, or null. */
    Request peek(int c) {
        ArrayDeque<Request> q = waiting[c];
        return q == null ? null : q.peekFirst();
    }

    /** Removes the oldest request waiting for {@code c}, which {@link #peek} returned. */
    Request poll(int c) {
        Request r = waiting[c].pollFirst();
        if (r.keyCount() > 0) {
            int k = keySlot(r);
            if (--keyCount[k] == 0) {
                keyOwner[k] = NONE;
            }
        }
        bytes -= r.retainedBytes();
        count--;
        return r;
    }

    boolean isEmpty() {
        return count == 0;
    }

    int count() {
        return count;
    }

    /** The most bytes held at once since {@link #resetPeaks()}. */
    long peakBytes() {
        return peakBytes;
    }

    int peakCount() {
        return peakCount;
    }

    long budgetBytes() {
        return budgetBytes;
    }

    void resetPeaks() {
        peakBytes = bytes;
        peakCount = count;
    }

    /** Takes every waiting request out, oldest first per connection, handing each to {@code drop}. */
    void clear(java.util.function.Consumer<Request> drop) {
        for (int c = 0; c < waiting.length; c++) {
            ArrayDeque<Request> q = waiting[c];
            while (q != null && !q.isEmpty()) {
                drop.accept(poll(c));
            }
            listed[c] = false;
        }
        ready.clear();
    }
}
