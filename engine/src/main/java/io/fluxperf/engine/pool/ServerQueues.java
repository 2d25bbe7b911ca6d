package io.fluxperf.engine.pool;

import io.fluxperf.engine.connection.ConnectionSlot;
import io.fluxperf.engine.request.Outcome;
import io.fluxperf.engine.request.Request;
import java.util.ArrayDeque;
import java.util.List;

/**
 * One load thread's connections grouped by pool member, and what waits for each member: a request
 * whose key lives on a member with no connection with room waits in that member's queue, so that
 * a slow or dead server holds up its own requests and not the others' (one thread's scheduler
 * has a single request in hand, {@code SendScheduler}).
 *
 * <p>A request for a member that is down (no connection open, and a connect failed since it had
 * one) ends at once as an error of that member. A paced request that finds its member's queue
 * full (at least {@link #MIN_QUEUE}) ends as an error too, as a client's bounded request queue
 * fails a request (lettuce's {@code requestQueueSize}), so that the other members keep their
 * schedule. A closed-loop request queues only while less than a round of the member's connections
 * waits (enough to keep them busy), then the thread waits ({@link Offer#FULL}): closed loop has no
 * schedule to keep, and its latency counts from the write. A request that waited in
 * a queue longer than the timeout ends as a timeout ({@link #expire}). Requests sent again after a
 * redirect wait in a queue of their own, which never refuses one (they are bounded by what was in
 * flight). When the thread loses its last connection to a member, or has one again, it tells its
 * {@link MemberWatch} (a cluster: the master's slots go without one until a failover).
 *
 * <h2>Assumptions and guarantees</h2>
 * <ul>
 *   <li>Everything runs on the thread's event loop; nothing allocates after construction.</li>
 *   <li>Each slot is in its member's ready queue at most once; a member's requests leave in the
 *       order they came (redirected ones first), and one bound to a connection
 *       ({@link Request#affinity()}) waits for that connection, holding up those behind it.</li>
 *   <li>Every request handed to {@link #offer} is sent, queued, or ended through {@link Sender#fail}.</li>
 * </ul>
 */
public final class ServerQueues {
    /** What {@link #offer} did with a request. */
    public enum Offer {
        /** It went out on a connection of its member. */
        SENT,
        /** It waits in its member's queue. */
        QUEUED,
        /** It ended without going out (its member is down, or its queue full); the sender was told. */
        FAILED,
        /** Its member's queue is full and it was not paced: the caller keeps it and asks again later. */
        FULL
    }

    /** How requests go out and end for this thread. */
    public interface Sender {
        /**
         * Sends {@code r} on {@code c} now (into the connection's batch).
         *
         * @param again it was redirected and goes out once more: not a new request
         */
        void send(ConnectionSlot c, Request r, long nowNanos, boolean again);

        /** {@code r} ends with {@code outcome} without going out. */
        void fail(Request r, Outcome outcome, long nowNanos);
    }

    private final ConnectionSlot[][] slots;
    private final int[] memberOfSlot;
    private final ArrayDeque<ConnectionSlot>[] ready;
    private final boolean[] inReady;
    private final RequestRing[] waiting;
    /** A closed-loop request waits only while fewer than a round of the member's connections do. */
    private final int[] closedLoopLimit;
    private final RequestRing[] again;
    private final int[] open;
    private final boolean[] slotUp;
    private final boolean[] connectFailed;
    /** Members whose loss {@link #watch} was told of, and not yet of their return. */
    private final boolean[] reportedDown;
    private final MemberWatch watch;
    private final int[] dirty;
    private final boolean[] isDirty;
    private int dirtyCount;
    private boolean draining;
    private int queued;
    private long queueFull;

    /**
     * @param memberSlots each member's connections on this thread, in member order; a slot's
     *                    {@link ConnectionSlot#index()} is its place over all of them
     * @param pipeline    requests in flight per connection: a member's queue holds as many as its
     *                    connections do
     */
    public ServerQueues(List<List<ConnectionSlot>> memberSlots, int pipeline) {
        this(memberSlots, pipeline, null);
    }

    /** @param watch told when this thread loses its last connection to a member, and when it has one again; null: nobody */
    @SuppressWarnings("unchecked")
    public ServerQueues(List<List<ConnectionSlot>> memberSlots, int pipeline, MemberWatch watch) {
        this.watch = watch;
        int members = memberSlots.size();
        int total = memberSlots.stream().mapToInt(List::size).sum();
        slots = new ConnectionSlot[members][];
        memberOfSlot = new int[total];
        ready = new ArrayDeque[members];
        waiting = new RequestRing[members];
        again = new RequestRing[members];
        closedLoopLimit = new int[members];
        for (int m = 0; m < members; m++) {
            List<ConnectionSlot> own = memberSlots.get(m);
            slots[m] = own.toArray(ConnectionSlot[]::new);
            for (ConnectionSlot c : own) {
                memberOfSlot[c.index()] = m;
            }
            ready[m] = new ArrayDeque<>(Math.max(16, own.size() * 2));
            waiting[m] = new RequestRing(queueCapacity(own.size(), pipeline));
            closedLoopLimit[m] = Math.max(1, own.size() * pipeline);
            again[m] = new RequestRing(Math.min(64, total * pipeline));
        }
        inReady = new boolean[total];
        open = new int[members];
        slotUp = new boolean[total];
        connectFailed = new boolean[members];
        reportedDown = new boolean[members];
        dirty = new int[members];
        isDirty = new boolean[members];
    }

    /**
     * A member's queue holds as many requests as its connections, and at least this many: enough
     * for a hiccup of a busy machine (a few ms at tens of thousands a second), so that only a
     * server that falls behind for real makes paced requests fail; the timeout ends those that
     * wait too long before that.
     */
    static final int MIN_QUEUE = 1024;

    private static int queueCapacity(int slotCount, int pipeline) {
        return Math.max(MIN_QUEUE, slotCount * pipeline);
    }

    /** How many requests the members' queues hold at most, together (to size the thread's request pool). */
    public static int capacity(List<List<ConnectionSlot>> memberSlots, int pipeline) {
        return memberSlots.stream().mapToInt(own -> queueCapacity(own.size(), pipeline)).sum();
    }

    public int members() {
        return slots.length;
    }

    /** The member whose connection {@code c} is. */
    public int memberOf(ConnectionSlot c) {
        return memberOfSlot[c.index()];
    }

    /** Sends {@code r} to member {@code m} if it can go now, else queues it or ends it (see the class comment). */
    public Offer offer(Request r, int m, long nowNanos, Sender sender) {
        if (isDown(m)) {
            sender.fail(r, Outcome.ERROR, nowNanos);
            return Offer.FAILED;
        }
        if (waiting[m].isEmpty() && again[m].isEmpty()) {
            ConnectionSlot c = pick(m, r);
            if (c != null) {
                sender.send(c, r, nowNanos, false);
                return Offer.SENT;
            }
        }
        if (r.isScheduled() ? !waiting[m].isFull() : waiting[m].size() < closedLoopLimit[m]) {
            if (!r.isScheduled()) {
                r.sentNanos(nowNanos); // when it began to wait, for its timeout; its write sets it again
            }
            waiting[m].add(r);
            queued++;
            return Offer.QUEUED;
        }
        if (r.isScheduled()) {
            queueFull++;
            sender.fail(r, Outcome.ERROR, nowNanos);
            return Offer.FAILED;
        }
        return Offer.FULL;
    }

    /** A redirected request goes to member {@code m} once there is room, before that member's other waiting requests. */
    public void sendAgain(Request r, int m, Sender sender, long nowNanos) {
        if (isDown(m)) {
            sender.fail(r, Outcome.ERROR, nowNanos);
            return;
        }
        again[m].addGrowing(r); // bounded by what was in flight
        queued++;
        markDirty(m);
    }

    /** {@code c} may have room: queue it for its member (once). */
    public void slotReady(ConnectionSlot c) {
        int i = c.index();
        int m = memberOfSlot[i];
        if (!inReady[i]) {
            inReady[i] = true;
            ready[m].addLast(c);
        }
        if (!waiting[m].isEmpty() || !again[m].isEmpty()) {
            markDirty(m);
        }
    }

    /** Sends what waits on members that got room. */
    public void drain(long nowNanos, Sender sender) {
        if (dirtyCount == 0) {
            return;
        }
        draining = true;
        try {
            for (int k = 0; k < dirtyCount; k++) {
                int m = dirty[k];
                isDirty[m] = false;
                drainMember(m, nowNanos, sender);
            }
            dirtyCount = 0;
        } finally {
            draining = false;
        }
    }

    private void drainMember(int m, long nowNanos, Sender sender) {
        while (true) {
            boolean redirected = !again[m].isEmpty();
            RequestRing ring = redirected ? again[m] : waiting[m];
            Request r = ring.peek();
            if (r == null) {
                return;
            }
            if (isDown(m)) {
                failAll(m, nowNanos, sender);
                return;
            }
            ConnectionSlot c = pick(m, r);
            if (c == null) {
                return;
            }
            ring.poll();
            queued--;
            sender.send(c, r, nowNanos, redirected);
        }
    }

    /** A connection of a member became ready for load. */
    public void slotUp(ConnectionSlot c) {
        int i = c.index();
        if (!slotUp[i]) {
            slotUp[i] = true;
            int m = memberOfSlot[i];
            open[m]++;
            connectFailed[m] = false;
            if (reportedDown[m]) {
                reportedDown[m] = false;
                watch.up(m, System.nanoTime());
            }
        }
    }

    /** A connection of a member closed. */
    public void slotDown(ConnectionSlot c) {
        int i = c.index();
        if (slotUp[i]) {
            slotUp[i] = false;
            int m = memberOfSlot[i];
            open[m]--;
            if (open[m] == 0) {
                reportDown(m);
            }
        }
    }

    /** This thread has no open connection to member {@code m}: its watch hears of it once, until it has one again. */
    private void reportDown(int m) {
        if (watch != null && !reportedDown[m]) {
            reportedDown[m] = true;
            watch.down(m, System.nanoTime());
        }
    }

    /** A connect to a member failed: with none of its connections open, it is down, and what waits for it ends as errors. */
    public void connectFailed(ConnectionSlot c, long nowNanos, Sender sender) {
        int m = memberOfSlot[c.index()];
        connectFailed[m] = true;
        if (open[m] == 0) {
            reportDown(m);
            failAll(m, nowNanos, sender);
        }
    }

    /** No connection of member {@code m} is open, and a connect to it failed since it last had one. */
    public boolean isDown(int m) {
        return open[m] == 0 && connectFailed[m];
    }

    /** Requests that waited longer than {@code timeoutNanos} for room end as timeouts. */
    public void expire(long nowNanos, long timeoutNanos, Sender sender) {
        if (queued == 0) {
            return;
        }
        for (int m = 0; m < waiting.length; m++) {
            expire(again[m], nowNanos, timeoutNanos, sender);
            expire(waiting[m], nowNanos, timeoutNanos, sender);
        }
    }

    private void expire(RequestRing ring, long nowNanos, long timeoutNanos, Sender sender) {
        Request r;
        while ((r = ring.peek()) != null && nowNanos - waitingSince(r) > timeoutNanos) {
            ring.poll();
            queued--;
            sender.fail(r, Outcome.TIMEOUT, nowNanos);
        }
    }

    /** A paced request waits from its intended time; a closed-loop one from when it was queued, a redirected one from its first write. */
    private static long waitingSince(Request r) {
        return r.isScheduled() && r.redirects() == 0 ? r.intendedNanos() : r.sentNanos();
    }

    /** Nothing waits in any queue. */
    public boolean isEmpty() {
        return queued == 0;
    }

    /** Paced requests that ended as errors because their member's queue was full. */
    public long queueFullCount() {
        return queueFull;
    }

    private void failAll(int m, long nowNanos, Sender sender) {
        Request r;
        while ((r = again[m].poll()) != null) {
            queued--;
            sender.fail(r, Outcome.ERROR, nowNanos);
        }
        while ((r = waiting[m].poll()) != null) {
            queued--;
            sender.fail(r, Outcome.ERROR, nowNanos);
        }
    }

    private void markDirty(int m) {
        if (!isDirty[m] && !draining) {
            isDirty[m] = true;
            dirty[dirtyCount++] = m;
        }
    }

    /** A connection of member {@code m} with room for {@code r}, or null. */
    private ConnectionSlot pick(int m, Request r) {
        if (r.affinity() >= 0) {
            ConnectionSlot c = slots[m][r.affinity() % slots[m].length];
            return c.canSend() ? c : null;
        }
        ConnectionSlot c;
        while ((c = ready[m].pollFirst()) != null) {
            inReady[c.index()] = false;
            if (c.canSend()) {
                return c;
            }
        }
        return null;
    }
}
