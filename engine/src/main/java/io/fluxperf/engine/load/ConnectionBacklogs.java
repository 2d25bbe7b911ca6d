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
 * <p>Keys keep the log's order across clients too: a request whose key (its first) has an earlier
 * request of another connection that has not ended yet (waiting, or sent and not answered) leaves
 * only once that one has ended. Sent is not enough: two requests written on two connections reach
 * the server's command loop in whichever order it reads the sockets (redis serves the connections
 * readable at once in the order its event loop lists them, not the order the bytes came in). Each
 * keyed request of a client takes a ticket of its key in the order the thread takes them
 * ({@link #admit}): a run of tickets from one connection needs no wait among itself (the
 * connection keeps their order), a new run waits until every ticket before it has ended
 * ({@link #ended}). The request that waits for its key waits in its own connection's queue, at its
 * head, and holds up only its own client, whose later commands come after it anyway; when the
 * key's last earlier request ends, the connection is listed again ({@link #nextReady}). A request
 * of no client (any connection) has no queue: it waits at the thread's head for the tickets before
 * it and takes none, so that a log without clients keeps no key order and waits for nothing, as
 * before. Keys are told apart by a hash in a table of {@link #KEY_SLOTS} slots; two keys that
 * share a slot only make a request wait that need not. The price of the order: a key that clients
 * take turns on goes at one turn per reply, which a replay as fast as possible feels.
 *
 * <h2>Assumptions and guarantees</h2>
 * <ul>
 *   <li>Confined to the thread's event loop.</li>
 *   <li>Every keyed request of the phase goes through {@link #admit} once, in the order the thread
 *       took them, and each one sent is told to {@link #ended} once when it ends (answered, timed
 *       out, or its connection closed). A connection ends its requests in the order it sent them;
 *       a run of a key's tickets is sent only once the runs before it ended: so a key's tickets end
 *       in ticket order, and the count of ended tickets says which have.</li>
 *   <li>No deadlock: a request waits only for requests admitted before it (its key's earlier
 *       tickets, its connection's earlier requests).</li>
 *   <li>A request that timed out counts as ended: the server may still run it after a later one.</li>
 *   <li>The requests held never hold more than the budget's bytes of the heap (as
 *       {@link Request#retainedBytes()} counts them): past it, {@link #offer} refuses, and the
 *       thread waits as it did before there were backlogs (memory, not order, gives way).</li>
 *   <li>A connection is in the ready list at most once ({@code listed}), and among those waiting
 *       for a key at most once ({@code keyBlocked}).</li>
 *   <li>Nothing is allocated per request once each queue has grown to its largest.</li>
 * </ul>
 */
final class ConnectionBacklogs {
    /** Slots of the table of keys: far more than requests are usually in flight or waiting, so few keys share one. */
    static final int KEY_SLOTS = 1 << 16;
    /** A request without a key: it takes no ticket and waits for none. */
    static final long NO_TICKET = -1L;
    /**
     * Per key slot, side by side (one cache line for the four): tickets given ({@link #ISSUED}),
     * tickets of them ended ({@link #ENDED}), the newest run's connection ({@link #RUN_CONNECTION})
     * and its first ticket ({@link #RUN_START}).
     */
    private final int[] keys = new int[KEY_SLOTS * 4];
    private static final int ISSUED = 0;
    private static final int ENDED = 1;
    private static final int RUN_CONNECTION = 2;
    private static final int RUN_START = 3;
    private final Waiting[] waiting;
    private final boolean[] listed;
    /** Connections with waiting requests that may have room now, each at most once. */
    private final ArrayDeque<Integer> ready = new ArrayDeque<>();
    private final boolean[] keyBlocked;
    /** Connections whose oldest waiting request waits for its key, each at most once ({@code keyBlocked}). */
    private final int[] blocked;
    private int blockedCount;
    private final Integer[] boxes;
    private final long budgetBytes;
    private long bytes;
    private int count;
    private long peakBytes;
    private int peakCount;

    ConnectionBacklogs(int connections, long budgetBytes) {
        this.waiting = new Waiting[connections];
        this.listed = new boolean[connections];
        this.keyBlocked = new boolean[connections];
        this.blocked = new int[connections];
        this.boxes = new Integer[connections];
        for (int i = 0; i < connections; i++) {
            boxes[i] = i; // boxed once: the ready list allocates nothing per request
        }
        this.budgetBytes = budgetBytes;
        for (int k = 0; k < KEY_SLOTS; k++) {
            keys[4 * k + RUN_CONNECTION] = -1;
        }
    }

    /**
     * Gives {@code r}, about to go on its own connection {@code c}, its ticket of its key's order:
     * its key's slot (high half) and the first ticket of its run (low half), which {@link #keyFree}
     * compares with those ended. Call once per request, in the order the thread takes them;
     * {@link #NO_TICKET} for a request without a key. A request of no client (-1: any connection)
     * takes no ticket, so nothing waits for it (a log without clients, all of them such, keeps no
     * key order and pays no wait, as before), but it waits for the tickets given before it.
     */
    long admit(Request r, int c) {
        if (r.keyCount() == 0) {
            return NO_TICKET;
        }
        int k = keySlot(r);
        int at = 4 * k;
        if (c < 0) {
            return (long) k << 32 | keys[at + ISSUED] & 0xFFFF_FFFFL;
        }
        if (keys[at + RUN_CONNECTION] != c) {
            keys[at + RUN_CONNECTION] = c;
            keys[at + RUN_START] = keys[at + ISSUED];
        }
        keys[at + ISSUED]++;
        return (long) k << 32 | keys[at + RUN_START] & 0xFFFF_FFFFL;
    }

    /** Whether a request admitted with {@code ticket} may leave: every ticket of its key before its run has ended. */
    boolean keyFree(long ticket) {
        return ticket == NO_TICKET || keys[4 * (int) (ticket >>> 32) + ENDED] - (int) ticket >= 0;
    }

    /**
     * An admitted request ended (answered, timed out, closed): later requests of its key on other
     * connections may leave. Returns whether a connection whose oldest request waited for that key
     * was listed again (then pump).
     */
    boolean ended(Request r) {
        if (r.keyCount() == 0 || r.affinity() < 0) {
            return false; // it took no ticket
        }
        int at = 4 * keySlot(r);
        if (keys[at + ENDED] == keys[at + ISSUED]) {
            return false; // not one of this phase's tickets
        }
        keys[at + ENDED]++;
        if (blockedCount == 0) {
            return false;
        }
        boolean listedAgain = false;
        for (int i = 0; i < blockedCount; ) {
            int c = blocked[i];
            Waiting q = waiting[c];
            if (q.isEmpty() || keyFree(q.peekTicket())) {
                keyBlocked[c] = false;
                blocked[i] = blocked[--blockedCount];
                mayHaveRoom(c);
                listedAgain = true;
            } else {
                i++;
            }
        }
        return listedAgain;
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
        Waiting q = waiting[c];
        return q != null && !q.isEmpty();
    }

    /**
     * Whether the oldest request waiting for {@code c} may leave as far as its key goes; if not,
     * {@code c} is listed again once that key's earlier requests have ended.
     */
    boolean headMayLeave(int c) {
        Waiting q = waiting[c];
        if (keyFree(q.peekTicket())) {
            return true;
        }
        if (!keyBlocked[c]) {
            keyBlocked[c] = true;
            blocked[blockedCount++] = c;
        }
        return false;
    }

    /**
     * Queues {@code r}, admitted with {@code ticket}, behind connection {@code c}'s other waiting
     * requests; false when the budget has no room for it. A request that waits for its key only
     * lists its connection for when the key is free.
     */
    boolean offer(int c, Request r, long ticket) {
        int cost = r.retainedBytes();
        if (bytes + cost > budgetBytes) {
            return false;
        }
        Waiting q = waiting[c];
        if (q == null) {
            q = new Waiting();
            waiting[c] = q;
        }
        q.add(r, ticket);
        if (q.size == 1 && !keyFree(ticket)) {
            headMayLeave(c); // the connection may have room: it waits for the key, not for a reply of its own
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
        Waiting q = waiting[c];
        return q == null ? null : q.peek();
    }

    /** Removes the oldest request waiting for {@code c}, which {@link #peek} returned. */
    Request poll(int c) {
        Request r = waiting[c].poll();
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
            Waiting q = waiting[c];
            while (q != null && !q.isEmpty()) {
                drop.accept(poll(c));
            }
            listed[c] = false;
            keyBlocked[c] = false;
        }
        blockedCount = 0;
        ready.clear();
    }

    /** One connection's waiting requests and their tickets, oldest first: a ring that doubles when full. */
    private static final class Waiting {
        private Request[] requests = new Request[8];
        private long[] tickets = new long[8];
        private int head;
        private int size;

        boolean isEmpty() {
            return size == 0;
        }

        void add(Request r, long ticket) {
            if (size == requests.length) {
                grow();
            }
            int i = (head + size) & (requests.length - 1);
            requests[i] = r;
            tickets[i] = ticket;
            size++;
        }

        Request peek() {
            return size == 0 ? null : requests[head];
        }

        long peekTicket() {
            return tickets[head];
        }

        Request poll() {
            Request r = requests[head];
            requests[head] = null;
            head = (head + 1) & (requests.length - 1);
            size--;
            return r;
        }

        private void grow() {
            int n = requests.length;
            Request[] rs = new Request[n * 2];
            long[] ts = new long[n * 2];
            for (int i = 0; i < size; i++) {
                rs[i] = requests[(head + i) & (n - 1)];
                ts[i] = tickets[(head + i) & (n - 1)];
            }
            requests = rs;
            tickets = ts;
            head = 0;
        }
    }
}
