package io.fluxperf.engine.load;

import io.fluxperf.engine.connection.ConnectionSlot;
import io.fluxperf.engine.netty.AlarmIoHandler;
import io.fluxperf.engine.pool.KeyPlacement;
import io.fluxperf.engine.pool.PoolRouter;
import io.fluxperf.engine.pool.ServerQueues;
import io.fluxperf.engine.request.Outcome;
import io.fluxperf.engine.request.Request;
import io.fluxperf.engine.request.RequestPool;
import io.netty.channel.EventLoop;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.reactivestreams.Subscription;
import reactor.core.publisher.BaseSubscriber;

/**
 * When each request of one load thread leaves, and on which connection: it takes requests from
 * the phase's source in batches into a small queue ({@code ahead}), waits for each one's intended
 * time (the loop's alarm) and for a connection with room, encodes it there, and flushes each batch
 * of sends together.
 *
 * <p>Batched demand: the source is asked for as many requests as {@code ahead} and the pool have
 * room for ({@link #AHEAD} at most), once {@code ahead} is half empty, so a generated workload
 * emits a batch per ask instead of one request per {@code request(1)}, paced or not. A paced
 * source is not asked while the newest request taken is not due yet, so what is taken ahead
 * reaches at most one batch past now. A synchronous source times every request asked for at
 * once, by the rate in force: when the rate changes ({@link #ratesChanged}) every request taken
 * that is not due yet goes back to the source, newest first, and is asked for again under the new
 * rate (else a batch timed by a low rate, seconds apart, would hold up a higher one). The head of {@code ahead} waits for its intended time, then for room on
 * a connection (pipeline depth × connections bounds what is in flight, invariant 4), and that
 * wait is measured. While it waits, {@code ahead} fills up and the source is not asked for more,
 * so a slow server builds up lateness (which the open-loop latency shows) and never memory.
 *
 * <p>Open loop: a request may leave up to {@code early} before its intended time when the loop
 * is awake anyway (the alarm rang for an earlier one, or a reply came in); its latency is then
 * measured from the actual write ({@link Request#latencyOriginNanos()}), never from the later
 * intended time. Requests closer together than that share one wake-up, one flush and one wake-up
 * of the server, where an alarm each would cost a context switch each on both sides.
 *
 * <p>A request bound to its own connection ({@link Request#affinity()}: a replayed client's) that
 * finds that connection busy, or other requests of its own waiting for it, joins them in the
 * connection's backlog ({@link ConnectionBacklogs}) when its source grants one
 * ({@link RequestSource#backlogBytes}), and the next request is taken: one busy client never keeps
 * the others from sending, and each client's requests still leave in order. So does one whose key
 * has an earlier request of another connection that has not ended yet: keys keep the log's order
 * across clients up to the server's reply ({@link ConnectionBacklogs}; {@link #ended} lets the next
 * one go). When the backlogs' budget of bytes is spent the request waits at the head as above.
 *
 * <p>With several servers ({@link #pool}) each request goes to the server its key is placed on
 * ({@link PoolRouter}), on a connection of that server with room; when it has none the request
 * waits in that server's queue ({@link ServerQueues}) and the next request is taken, so that a
 * slow or dead server holds up its own requests only.
 *
 * <h2>Assumptions and guarantees</h2>
 * <ul>
 *   <li>Everything runs on the thread's event loop; a source emits there too (synchronously when
 *       asked, or later from a task of its own on the loop, as a replay lane does).</li>
 *   <li>{@code ahead} never holds more than {@link #AHEAD} requests: the source is never asked for
 *       more than {@code ahead} and the pool have room for, counting what it owes
 *       ({@code owed}).</li>
 *   <li>{@link #pump()} is not re-entrant: a call from inside it (a send that completes a request
 *       at once) returns at once, and the outer call goes on.</li>
 *   <li>Every slot is in the ready queue at most once, and in the flush list at most once.</li>
 * </ul>
 */
final class SendScheduler {
    /** The alarm is set at most this long before a request's time, however late timers have fired. */
    private static final long MAX_TIMER_LEAD_NANOS = TimeUnit.MICROSECONDS.toNanos(500);
    /** An alarm set for less than this ahead rings at about the same time as one set for zero. */
    private static final long MIN_TIMER_NANOS = TimeUnit.MICROSECONDS.toNanos(10);
    /**
     * Later than this, a request that finds no connection with room is part of a backlog. Not
     * 100 µs: on a busy machine a timer fires that late now and then, and a server stall that began
     * with such a wake-up would count as a backlog.
     */
    static final long BEHIND_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long NO_ROOM_WAIT = Long.MIN_VALUE;
    /** The most requests taken from the source ahead of sending them. */
    static final int AHEAD = 32;

    private final EventLoop loop;
    private final AlarmIoHandler alarm;
    private final boolean busyPoll;
    /** How long before its intended time a request may leave with others (see the class comment). */
    private final long earlyNanos;
    private final List<ConnectionSlot> slots;
    private final ThreadRecorder recorder;
    private final RequestPool pool;
    private final RunErrors errors;
    /** Run after each pump and when the source ends: the thread checks whether its phase is over. */
    private final Runnable afterPump;
    /** Told of each slot a request went out on (a connection per request counts them); null: nobody. */
    private final java.util.function.Consumer<ConnectionSlot> onSend;

    /** The phase's source while it may still give requests; null once it ended or the phase stopped. */
    private SourceSubscriber subscriber;
    /** The phase's source and this thread's index in it, for {@link #ratesChanged()}. */
    private RequestSource source;
    private int thread;
    /** Requests taken from the source, not yet sent, oldest first (at most {@link #AHEAD}). */
    private final ArrayDeque<Request> ahead = new ArrayDeque<>(AHEAD);
    /** Requests asked of the source that it has not emitted yet (a replay lane emits them as its reader catches up). */
    private int owed;
    private boolean pumping;
    private boolean pumpQueued;
    /** How late this machine's alarms ring, learnt: a slow moving average, bounded. */
    private long timerLeadNanos = TimeUnit.MICROSECONDS.toNanos(20);
    /** Since when a due paced request has found no connection with room, or {@link #NO_ROOM_WAIT}. */
    private long roomWaitSince = NO_ROOM_WAIT;
    /** The request that began the wait for room was already {@link #BEHIND_NANOS} late then. */
    private boolean roomWaitBehind;
    /** Slots that may have room to send, in the order they got it (each at most once: {@code queued}). */
    private final ArrayDeque<ConnectionSlot> ready;
    private final boolean[] queued;
    /** Slots with encoded requests not yet flushed (each at most once: {@code dirty}). */
    private final ArrayList<ConnectionSlot> dirtySlots = new ArrayList<>();
    private final boolean[] dirty;
    private final Runnable pumpAfterBatch = () -> {
        pumpQueued = false;
        pump();
    };
    /** Requests due that wait for their own busy connection; null when the phase's source grants none. */
    private ConnectionBacklogs backlogs;
    /** The head of {@code ahead} has its ticket of its key's order ({@code headTicket}) from the backlogs. */
    private boolean headAdmitted;
    private long headTicket;
    /** The pool's capacity as the thread made it: in flight and one more. */
    private final int baseCapacity;
    /** With several servers: each one's connections and waiting requests, and where keys go; null with one. */
    private ServerQueues queues;
    private PoolRouter router;
    private final PoolSender poolSender = new PoolSender();
    /** A pump ends requests without sending them (a dead server's) at most this many times before it lets the loop run. */
    private static final int MAX_UNSENT_PER_PUMP = 256;
    /** A pump puts at most this many requests behind their busy connections before it lets the loop run. */
    private static final int MAX_PARKED_PER_PUMP = 256;

    /**
     * @param early    how long before its time a paced request may leave with others due
     * @param busyPoll while a phase runs, the loop polls and never sleeps ({@link AlarmIoHandler#pollOnly})
     */
    SendScheduler(EventLoop loop, AlarmIoHandler alarm, boolean busyPoll, Duration early, List<ConnectionSlot> slots,
                  ThreadRecorder recorder, RequestPool pool, RunErrors errors, Runnable afterPump,
                  java.util.function.Consumer<ConnectionSlot> onSend) {
        this.loop = loop;
        this.alarm = alarm;
        this.busyPoll = busyPoll;
        this.earlyNanos = early.toNanos();
        this.slots = slots;
        this.recorder = recorder;
        this.pool = pool;
        this.errors = errors;
        this.afterPump = afterPump;
        this.onSend = onSend;
        // room for every slot from the start: a deque that grows in the measured load takes a branch
        // the warm-up's compiled code (fewer connections) never saw, and that code is thrown away
        this.ready = new ArrayDeque<>(slots.size());
        this.queued = new boolean[slots.size()];
        this.dirty = new boolean[slots.size()];
        this.baseCapacity = pool.capacity();
        alarm.onAlarm(this::wakeUp);
    }

    /**
     * A run with several servers: requests go to their key's server through {@code serverQueues}
     * (which must group the same slots), placed by {@code placement}.
     */
    void pool(ServerQueues serverQueues, PoolRouter placement) {
        this.queues = serverQueues;
        this.router = placement;
    }

    /** Starts taking requests from {@code source}. On the loop. */
    void start(RequestSource source, int thread, int threads, long startNanos) {
        roomWaitSince = NO_ROOM_WAIT; // a wait of the phase before (a preload) is not this one's
        alarm.pollOnly(busyPoll);
        owed = 0;
        subscriber = new SourceSubscriber();
        this.source = source;
        this.thread = thread;
        long budget = queues == null ? source.backlogBytes(thread, threads) : 0;
        backlogs = budget > 0 ? new ConnectionBacklogs(slots.size(), budget) : null;
        headAdmitted = false;
        reportedPeak = 0;
        // each request held in a backlog costs at least RETAINED_BASE bytes: the budget bounds their number too
        long held = backlogs != null ? budget / Request.RETAINED_BASE : 0;
        pool.ensureCapacity((int) Math.min(Integer.MAX_VALUE - 8, baseCapacity + AHEAD + held));
        source.requests(thread, threads, pool, startNanos, loop).subscribe(subscriber);
        pump();
    }

    /**
     * Stops asking the source; the requests that wait are dropped unsent (they are no requests) and
     * given back to their source's count ({@link RequestSource#unsent}). On the loop.
     */
    void stop() {
        if (subscriber != null) {
            subscriber.dispose();
            subscriber = null;
        }
        Request r;
        while ((r = ahead.pollFirst()) != null) {
            dropUnsent(r);
        }
        headAdmitted = false;
        if (backlogs != null) {
            backlogs.clear(this::dropUnsent);
        }
    }

    /** {@code r} came from the phase's source and goes back to the pool unsent: the source takes it back. */
    private void dropUnsent(Request r) {
        if (source != null) {
            source.unsent(thread, r);
        }
        pool.release(r);
    }

    /**
     * A rate changed: the requests that wait for their intended time were timed by the old rate,
     * which may have put them minutes away, so they go back to the source, newest first (the order
     * it can take them back in), and the next ones asked for are timed by the new rate. Those due
     * already stay (they go as soon as there is room). On the loop.
     */
    void ratesChanged() {
        if (subscriber == null) {
            return;
        }
        long now = System.nanoTime();
        boolean tookBack = false;
        Request r;
        while ((r = ahead.peekLast()) != null && r.isScheduled() && r.intendedNanos() - earlyNanos > now
                && source.takeBack(r, thread)) {
            ahead.pollLast();
            pool.release(r);
            tookBack = true;
        }
        if (tookBack) {
            pump();
        }
    }

    /** A request waits for a connection, or the phase's source may still give more: connections are still needed. */
    boolean needsConnections() {
        return !ahead.isEmpty() || subscriber != null || queues != null && !queues.isEmpty()
                || backlogs != null && !backlogs.isEmpty();
    }

    /** Nothing waits here and nothing more will come: the phase is over once its requests in flight end. */
    boolean drained() {
        return subscriber == null && ahead.isEmpty() && (queues == null || queues.isEmpty())
                && (backlogs == null || backlogs.isEmpty());
    }

    /** Lets the loop sleep again (the phase is over, or the run ends). */
    void idle() {
        alarm.pollOnly(false);
    }

    /** Stops the alarm for good: the run is over. */
    void shutdown() {
        alarm.cancel();
        alarm.pollOnly(false); // the loop may sleep while it shuts down
    }

    /** The slot may have room to send: queue it for {@link #pickConnection()} (once). */
    void slotReady(ConnectionSlot c) {
        if (queues != null) {
            queues.slotReady(c);
            return;
        }
        int i = c.index();
        if (backlogs != null) {
            backlogs.mayHaveRoom(i);
        }
        if (!queued[i]) {
            queued[i] = true;
            ready.addLast(c);
        }
    }

    /**
     * Replies freed room: pump once the loop has read every connection of its batch of events, not
     * after each connection's read. The batch's requests then leave together, and the server, woken
     * once, takes them in one go (bench/README.md has the figures). The delay is the rest of the
     * batch's reads, a few µs; closed-loop latency is timed from the write, and a paced request's
     * lateness is in its send lag.
     */
    void pumpAfterReads() {
        if (!pumpQueued) {
            pumpQueued = true;
            try {
                loop.execute(pumpAfterBatch);
            } catch (RejectedExecutionException e) {
                pumpAfterBatch.run(); // the loop is shutting down: pump now
            }
        }
    }

    /** Sends whatever is due and fits, then flushes the batch. Re-entrant calls return at once. */
    void pump() {
        if (pumping) {
            return;
        }
        pumping = true;
        int unsent = 0;
        int parked = 0;
        try {
            long now = System.nanoTime();
            if (queues != null) {
                queues.drain(now, poolSender);
            }
            if (backlogs != null) {
                sendWaiting(now);
            }
            while (true) {
                if (ahead.size() + owed <= AHEAD / 2) {
                    ask(now);
                }
                Request r = ahead.peekFirst();
                if (r == null) {
                    break; // the source ended, waits for room in the pool, or emits later on its own
                }
                if (r.isScheduled() && r.intendedNanos() - earlyNanos > now) {
                    now = System.nanoTime();
                    if (r.intendedNanos() - earlyNanos > now) {
                        waitForSendTime(r.intendedNanos(), now);
                        break; // the alarm will pump again
                    }
                }
                if (queues != null) {
                    ahead.pollFirst();
                    ServerQueues.Offer o = offerToPool(r, now);
                    if (o == ServerQueues.Offer.FULL) {
                        ahead.addFirst(r); // it stays first: a reply from that server will pump again
                        break;
                    }
                    if (o == ServerQueues.Offer.FAILED && ++unsent >= MAX_UNSENT_PER_PUMP) {
                        pumpAfterReads(); // let the loop read and time out in between
                        break;
                    }
                    continue;
                }
                ConnectionSlot c;
                if (backlogs != null) {
                    int own = r.affinity() >= 0 ? r.affinity() % slots.size() : -1;
                    if (!headAdmitted) {
                        headTicket = backlogs.admit(r, own); // once: it stays at the head while it waits
                        headAdmitted = true;
                    }
                    boolean keyFree = backlogs.keyFree(headTicket);
                    if (own < 0) {
                        c = keyFree ? pickConnection() : null; // its key's earlier requests end first
                    } else {
                        c = keyFree && !backlogs.holds(own) ? connectionFor(own) : null;
                        if (c == null && backlogs.offer(own, r, headTicket)) {
                            ahead.pollFirst(); // it waits for its own connection, or its key; the others go on
                            headAdmitted = false;
                            if (backlogs.peakBytes() > reportedPeak) {
                                reportPeak();
                            }
                            if (++parked >= MAX_PARKED_PER_PUMP) {
                                pumpAfterReads(); // let the loop read, time out and end windows in between
                                break;
                            }
                            continue;
                        }
                    }
                } else if (r.affinity() >= 0) {
                    c = connectionFor(r.affinity() % slots.size());
                } else {
                    c = pickConnection();
                }
                if (c == null) {
                    if (r.isScheduled() && roomWaitSince == NO_ROOM_WAIT) {
                        // one that left early with others is not due before its time
                        roomWaitSince = Math.max(now, r.intendedNanos());
                        roomWaitBehind = now - r.intendedNanos() > BEHIND_NANOS;
                    }
                    break; // all full: a reply will pump again
                }
                if (roomWaitSince != NO_ROOM_WAIT) {
                    countRoomWait(now);
                    roomWaitSince = NO_ROOM_WAIT;
                }
                ahead.pollFirst();
                headAdmitted = false;
                send(c, r, now);
            }
        } finally {
            pumping = false;
            flushAll();
            afterPump.run();
        }
    }

    /**
     * Asks the source for as many requests as {@code ahead} and the pool have room for; none while
     * the newest request taken is not due yet. A source that emits synchronously
     * ({@link reactor.core.publisher.Flux#generate}) has put them into {@code ahead} when this returns.
     */
    private void ask(long now) {
        if (subscriber == null) {
            return;
        }
        Request newest = ahead.peekLast();
        if (newest != null && newest.isScheduled() && newest.intendedNanos() - earlyNanos > now) {
            return; // what is taken already reaches past now
        }
        long k = Math.min(AHEAD - ahead.size() - owed, pool.available() - owed);
        if (k <= 0) {
            return; // every request is in flight or waits: a reply frees one and pumps again
        }
        owed += (int) k;
        subscriber.request(k);
    }

    /** A request the source emitted, on the loop. */
    private void taken(Request r) {
        owed--;
        ahead.addLast(r);
        if (!pumping) {
            pump(); // emitted later, from a task of the source's own (a replay lane woken by its reader)
        }
    }

    /** Sends {@code r} on {@code c} now, into the connection's batch. */
    private void send(ConnectionSlot c, Request r, long now) {
        int bytes = c.send(r, now);
        if (onSend != null) {
            onSend.accept(c);
        }
        int i = c.index();
        if (!dirty[i]) {
            dirty[i] = true;
            dirtySlots.add(c);
        }
        if (c.canSend()) {
            slotReady(c); // pipelining: room for more
        }
        recorder.sent(r, bytes, now);
    }

    /**
     * Sends the waiting requests of every connection that got room, oldest first, as far as there is
     * room and their keys' earlier requests on other connections have ended.
     */
    private void sendWaiting(long now) {
        int i;
        while ((i = backlogs.nextReady()) >= 0) {
            ConnectionSlot c = slots.get(i);
            while (c.canSend() && backlogs.holds(i) && backlogs.headMayLeave(i)) {
                send(c, backlogs.poll(i), now);
            }
        }
    }

    /**
     * {@code r}, sent by this scheduler, ended (answered, timed out, closed), before it goes back to
     * its pool: with backlogs, later requests of its key on other connections may leave now.
     * Nothing to do without them ({@code run}).
     */
    void ended(Request r) {
        if (backlogs != null && (backlogs.ended(r) || headAdmitted)) {
            pumpAfterReads();
        }
    }

    /** The highest backlog of this phase so far, told to the source (it reports its read-ahead's memory). */
    private long reportedPeak;

    private void reportPeak() {
        reportedPeak = backlogs.peakBytes();
        if (source != null) {
            source.backlogPeak(thread, reportedPeak, backlogs.peakCount());
        }
    }

    /** Places {@code r} on its key's server and sends, queues or ends it there; on {@link ServerQueues.Offer#FULL} the caller keeps it. */
    private ServerQueues.Offer offerToPool(Request r, long now) {
        int m = router.place(r);
        if (m == KeyPlacement.SPREAD) {
            errors.requestError("the keys of one request live on different servers or slots; not sent");
            poolSender.fail(r, Outcome.ERROR, now);
            return ServerQueues.Offer.FAILED;
        }
        r.server(m);
        ServerQueues.Offer o = queues.offer(r, m, now, poolSender);
        if (o == ServerQueues.Offer.FAILED) {
            errors.requestError(queues.isDown(m) ? SERVER_DOWN : QUEUE_FULL);
        }
        return o;
    }

    private static final String SERVER_DOWN = "its server is down (no connection open, and connecting failed); not sent";
    private static final String QUEUE_FULL = "its server's connections and queue were full when it was due; not sent";

    /** A redirected request goes out again to {@code member}, ahead of that server's waiting requests. On the loop. */
    void sendAgain(Request r, int member, long now) {
        queues.sendAgain(r, member, poolSender, now);
    }

    /** A connect to {@code slot}'s server failed: with none of its connections open, what waits for it ends as errors. */
    void serverUnreachable(ConnectionSlot slot, long now) {
        queues.connectFailed(slot, now, poolSender);
    }

    /** Requests that waited for a server longer than the timeout end; a cluster map read again is taken up. On the loop. */
    void checkQueues(long now, long timeoutNanos) {
        if (queues != null) {
            queues.expire(now, timeoutNanos, poolSender);
            router.refresh();
        }
    }

    /** How requests of a pool go out on a connection, or end without one, for {@link ServerQueues}. */
    private final class PoolSender implements ServerQueues.Sender {
        @Override
        public void send(ConnectionSlot c, Request r, long now, boolean again) {
            long firstWrite = r.sentNanos();
            int bytes = c.send(r, now);
            if (again) {
                r.sentNanos(firstWrite); // the client waited from its first write: the redirect is part of it
            }
            int i = c.index();
            if (!dirty[i]) {
                dirty[i] = true;
                dirtySlots.add(c);
            }
            if (c.canSend()) {
                queues.slotReady(c);
            }
            if (again) {
                recorder.sentAgain(r);
            } else {
                recorder.sent(r, bytes, now);
            }
        }

        @Override
        public void fail(Request r, Outcome outcome, long now) {
            if (r.sentNanos() == 0) {
                r.sentNanos(now); // never written: its latency runs to now from its intended time
            }
            recorder.completed(r, outcome, now, 0, -1);
            pool.release(r);
        }
    }

    /**
     * Counts the wait for room so far, up to {@code until}, in the interval's figures; a wait that
     * goes on counts from there on (an interval's end in the middle of one splits it).
     */
    void countRoomWait(long until) {
        if (roomWaitSince != NO_ROOM_WAIT && until - roomWaitSince > 0) {
            recorder.roomWait(until - roomWaitSince, roomWaitBehind);
            roomWaitSince = until;
        }
    }

    /** The pacing alarm rang (never early); it was set for {@code wakeAt}. */
    private void wakeUp(long wakeAt) {
        long now = System.nanoTime();
        timerLeadNanos = Math.max(0, Math.min(MAX_TIMER_LEAD_NANOS, timerLeadNanos + (now - wakeAt - timerLeadNanos) / 8));
        pump();
    }

    private void flushAll() {
        for (int k = 0; k < dirtySlots.size(); k++) {
            ConnectionSlot c = dirtySlots.get(k);
            dirty[c.index()] = false;
            c.flush();
        }
        dirtySlots.clear();
    }

    /**
     * Sets the alarm to wake the loop {@code timerLeadNanos} (at most {@code early}) before
     * {@code sendAt}. The lead is learnt: how late this machine's timers fire (a few µs once the
     * loop's timer slack is minimal, 50 µs and more otherwise). Whatever is due by then, and within
     * {@code early} after it, leaves on that wake-up.
     */
    private void waitForSendTime(long sendAt, long now) {
        long wakeAt = Math.max(now + MIN_TIMER_NANOS, sendAt - Math.min(timerLeadNanos, earlyNanos));
        if (wakeAt < alarm.alarmNanos()) { // NONE when unset: an alarm set earlier stays
            alarm.set(wakeAt);
        }
    }

    /** The connection {@code own} (a request's affinity modulo the connections), or null while it has no room. */
    private ConnectionSlot connectionFor(int own) {
        ConnectionSlot c = slots.get(own);
        return c.canSend() ? c : null;
    }

    /**
     * A slot with room, in the order slots got room (fair, and O(1): a thread may have thousands of
     * connections). Queued slots that lost their room meanwhile (closed) are dropped here.
     */
    private ConnectionSlot pickConnection() {
        ConnectionSlot c;
        while ((c = ready.pollFirst()) != null) {
            queued[c.index()] = false;
            if (c.canSend()) {
                return c;
            }
        }
        return null;
    }

    /** Takes what the source emits into {@code ahead}; asks only through {@link #ask}. */
    private final class SourceSubscriber extends BaseSubscriber<Request> {
        @Override
        protected void hookOnSubscribe(Subscription subscription) {
            // nothing until there is room
        }

        @Override
        protected void hookOnNext(Request r) {
            if (!loop.inEventLoop()) {
                // the contract of RequestSource: requests are emitted on the thread's loop
                throw new IllegalStateException("a request source emitted off its load thread's event loop");
            }
            if (subscriber != this) {
                dropUnsent(r); // the phase stopped meanwhile
                return;
            }
            taken(r);
        }

        @Override
        protected void hookOnComplete() {
            onLoop(() -> {
                if (subscriber == this) {
                    subscriber = null;
                    afterPump.run();
                }
            });
        }

        @Override
        protected void hookOnError(Throwable error) {
            onLoop(() -> {
                errors.sourceFailed(error);
                if (subscriber == this) {
                    subscriber = null;
                    afterPump.run();
                }
            });
        }
    }

    private void onLoop(Runnable task) {
        if (loop.inEventLoop()) {
            task.run();
        } else {
            loop.execute(task);
        }
    }
}
