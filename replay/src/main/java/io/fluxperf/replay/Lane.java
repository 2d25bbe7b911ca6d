package io.fluxperf.replay;

import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.log.VerbTable;
import io.fluxperf.engine.request.Request;
import io.fluxperf.engine.request.RequestPool;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Operators;

/**
 * What one load thread replays: a {@link ByteRing} of commands that the reader writes in send-time
 * order and the load thread reads into pooled requests as it asks for them.
 *
 * <h2>Assumptions and guarantees</h2>
 * <ul>
 * <li>One subscriber, on the load thread's event loop, which asks for requests ({@code request})
 *     on that loop. Every request is filled and emitted on the loop: when the ring holds a
 *     command, right in the ask; when it is empty, the loop raises {@link #demand} and the reader,
 *     once it has written the next command, runs {@link #drain()} on the loop as a task.</li>
 * <li>No lost wake-up: the reader publishes (a volatile write of the ring's tail) and then reads
 *     the demand; the loop raises the demand and then reads the tail again. Sequentially
 *     consistent volatile accesses mean one of the two sees the other. A wake-up task that finds
 *     nothing to do is harmless.</li>
 * <li>The fast path (the ring holds a command) writes no volatile field: the progress marks are
 *     written with release order, and the demand only when the ring is empty.</li>
 * <li>A command is copied into the ring, so the reader reuses its entry at once: nothing comes
 *     back, and the ring's bytes bound the memory of a lane.</li>
 * <li>While the ring has no room the reader parks until the loop has emptied half the ring and
 *     unparks it (at most 5 ms at a time, which covers an unpark missed in a race). A command
 *     larger than half the ring waits until the loop has emptied it, then gets a ring twice as
 *     large as it needs.</li>
 * <li>The lane's position ({@link #mark()}, {@link #line()}) is that of the last command the load
 *     thread took but one: it asks in batches, so that command may still wait for its time, up to
 *     the scheduler's batch ({@code SendScheduler.AHEAD}) ahead of the last one sent.</li>
 * <li>{@link #sentByVerb()} counts the commands the load thread took, less those it gave back
 *     unsent when the run stopped ({@link #unsent}: the one waiting for its time, and those
 *     waiting for their own connection): the commands replayed, whatever the reader had dealt
 *     ahead into the ring. Each request carries its verb ({@link Request#sourceTag()}) for that.
 *     Written on the loop and published with release order.</li>
 * </ul>
 */
final class Lane {
    /** A request's source tag: its verb in the low bits, its original reply above ({@link #unsent}). */
    private static final int REPLY_SHIFT = 16;
    private static final int VERB_MASK = (1 << REPLY_SHIFT) - 1;
    /** Bytes of a lane's ring: about 2,500 commands of a short key each. */
    static final int RING_BYTES = 1 << 18;
    /** The reader's longest park: half a ring lasts 12 ms even for one client at 100,000 commands/s. */
    private static final long PARK_NANOS = 5_000_000L;
    private static final VarHandle MARK;
    private static final VarHandle LINE;
    private static final VarHandle SENT;
    private static final VarHandle STARVED;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            MARK = l.findVarHandle(Lane.class, "mark", long.class);
            LINE = l.findVarHandle(Lane.class, "line", long.class);
            SENT = l.findVarHandle(Lane.class, "sent", long.class);
            STARVED = l.findVarHandle(Lane.class, "starvedNanos", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile ByteRing ring;
    private final SynthValues synth;
    /** The loop found the ring empty and waits for the reader to wake it. */
    private volatile boolean demand;
    private volatile boolean done;
    private volatile boolean cancelled;
    private volatile boolean readerWaiting;
    private volatile Thread reader;
    /** The loop's executor, once subscribed; the reader runs {@link #wake} there. */
    private volatile Executor loop;
    private final Runnable wake = this::drain;

    // ---- the loop's own ----
    private CoreSubscriber<? super Request> actual;
    private RequestPool pool;
    private long startNanos;
    private long requested;
    private boolean draining;
    private boolean completed;
    /** Progress of the last command emitted (maybe waiting for its time). */
    private long emittedMark = -1;
    private long emittedLine;
    /** The same of the last command sent; written with release order, read by the reporter. */
    @SuppressWarnings("unused")
    private long mark = -1;
    @SuppressWarnings("unused")
    private long line;
    /**
     * Commands taken by the load thread and not given back, per verb id, and their sum; the sum is
     * written with release order after the counts, and read with acquire order before them.
     */
    private final long[] sentByVerb = new long[VerbTable.MAX_VERBS + 1];
    private long sent;
    /** Since when the loop has asked and found the ring empty while the reader was not done; 0: it is not waiting. */
    private long starvedSince;
    /** How long the loop waited so for the reader in all, ns; written with release order, read at the end. */
    @SuppressWarnings("unused")
    private long starvedNanos;
    /** Commands taken and not given back by what the original server answered them ({@link OriginalReplies#of}). */
    private final long[] sentByReply = new long[OriginalReplies.COUNTS];

    Lane(int ringBytes, SynthValues synth) {
        this.ring = new ByteRing(ringBytes);
        this.synth = synth;
    }

    /** The load thread's requests; subscribed once, on its event loop {@code executor}. */
    Flux<Request> flux(RequestPool requestPool, long start, Executor executor) {
        return new Flux<>() {
            @Override
            public void subscribe(CoreSubscriber<? super Request> subscriber) {
                if (actual != null) {
                    Operators.error(subscriber, new IllegalStateException("a replay lane is subscribed once"));
                    return;
                }
                pool = requestPool;
                startNanos = start;
                actual = subscriber;
                loop = executor;
                subscriber.onSubscribe(new LaneSubscription());
            }
        };
    }

    private final class LaneSubscription implements Subscription {
        @Override
        public void request(long n) {
            if (Operators.validate(n)) {
                requested = Operators.addCap(requested, n);
                drain();
            }
        }

        @Override
        public void cancel() {
            cancelled = true;
            Thread r = reader;
            if (r != null) {
                LockSupport.unpark(r);
            }
        }
    }

    // ---- reader side ----

    /**
     * Copies a command into the ring (reader thread); waits while the ring has no room. Returns
     * false when the load thread stopped listening or {@code closed} says so.
     */
    boolean put(LogEntry e, Thread readerThread, BooleanSupplier closed) {
        if (reader != readerThread) {
            reader = readerThread;
        }
        int size = ByteRing.recordSize(LaneRecord.payload(e));
        ByteRing q = ring;
        if (size > ByteRing.maxRecord(q.capacity())) {
            q = grow(size, closed);
            if (q == null) {
                return false;
            }
        }
        int at;
        while ((at = q.claim(size)) < 0) {
            if (!await(closed, false)) {
                return false;
            }
        }
        LaneRecord.write(q.bytes(), at, e);
        q.publish();
        wakeLoop();
        return true;
    }

    /** Has the ring no room for a command of {@code e}'s size now? (reader thread; the read-ahead is primed) */
    boolean full(LogEntry e) {
        return ring.freeBytes() < 2 * ByteRing.recordSize(LaneRecord.payload(e));
    }

    /** No more commands will come (reader thread). */
    void finish() {
        done = true;
        wakeLoop();
    }

    boolean cancelled() {
        return cancelled;
    }

    /** Progress: loop << 44 | position of the last command this lane's thread took but one; -1 before the first. */
    long mark() {
        return (long) MARK.getAcquire(this);
    }

    /** The line (or record) of the last command this lane's thread took but one; 0 before the first. */
    long line() {
        return (long) LINE.getAcquire(this);
    }

    /**
     * The load thread drops {@code r}, which this lane emitted, unsent (the run stopped while it
     * waited): it is not replayed. On the loop.
     */
    void unsent(Request r) {
        int tag = r.sourceTag();
        sentByVerb[tag & VERB_MASK]--;
        sentByReply[tag >>> REPLY_SHIFT]--;
        sent--;
        SENT.setRelease(this, sent);
    }

    /**
     * How long, in all, this lane's load thread asked for a command and found none while the reader
     * had not finished: it waited for the reader, ns.
     */
    long readerWaitNanos() {
        return (long) STARVED.getAcquire(this);
    }

    /** Commands this lane's thread sent, per verb id (a copy); complete once the run's loops have stopped. */
    long[] sentByVerb() {
        SENT.getAcquire(this);
        return sentByVerb.clone();
    }

    /** Commands this lane's thread sent by their original reply (a copy, see {@link OriginalReplies#of}); as {@link #sentByVerb}. */
    long[] sentByReply() {
        SENT.getAcquire(this);
        return sentByReply.clone();
    }

    /** After a publish: the loop waits for a command, so run its drain there. */
    private void wakeLoop() {
        if (demand) {
            demand = false;
            Executor l = loop;
            if (l != null) {
                try {
                    l.execute(wake);
                } catch (RejectedExecutionException ignored) {
                    // the loop is shutting down: nothing waits any more
                }
            }
        }
    }

    /**
     * Parks until the loop has emptied half the ring (or all of it: {@code empty}); false when the
     * lane or the replay was stopped. Waking at every timeout to write the few commands the loop
     * took meanwhile would cost a context switch per millisecond on a machine whose cores the loop
     * and the server already keep busy; the timeout only covers an unpark missed in a race.
     */
    private boolean await(BooleanSupplier closed, boolean empty) {
        try {
            while (true) {
                if (cancelled || closed.getAsBoolean()) {
                    return false;
                }
                readerWaiting = true; // the loop lowers it as it unparks us: one unpark per wait
                ByteRing q = ring;
                if (empty ? q.isEmpty() : q.freeBytes() >= q.capacity() / 2) {
                    return true;
                }
                LockSupport.parkNanos(PARK_NANOS);
            }
        } finally {
            readerWaiting = false;
        }
    }

    /** A command larger than the ring takes: once the loop has emptied the ring, a larger one. */
    private ByteRing grow(int size, BooleanSupplier closed) {
        if (!await(closed, true)) {
            return null;
        }
        int capacity = Integer.highestOneBit(size - 1) << 2;
        ByteRing bigger = new ByteRing(capacity);
        ring = bigger; // the loop reads the field again whenever it finds its ring empty
        return bigger;
    }

    // ---- the loop ----

    private void drain() {
        if (draining || actual == null) {
            return;
        }
        draining = true;
        try {
            while (requested > 0 && !completed) {
                if (cancelled) {
                    return;
                }
                ByteRing q = ring;
                int at = q.peek();
                if (at < 0) {
                    if (done) {
                        q = ring;
                        if (q.peek() < 0) {
                            complete();
                            return;
                        }
                        continue;
                    }
                    demand = true;
                    q = ring;
                    if (q.peek() < 0 && !done) {
                        if (starvedSince == 0) {
                            starvedSince = System.nanoTime();
                        }
                        return; // the reader wakes us when it has written the next one
                    }
                    demand = false;
                    continue;
                }
                if (starvedSince != 0) {
                    STARVED.setRelease(this, starvedNanos + System.nanoTime() - starvedSince);
                    starvedSince = 0;
                }
                // asked again: the command emitted before has been dealt with
                MARK.setRelease(this, emittedMark);
                LINE.setRelease(this, emittedLine);
                Request r = pool.acquire();
                if (r == null) {
                    completed = true;
                    actual.onError(new IllegalStateException("request pool exhausted: more requested than in-flight capacity"));
                    return;
                }
                byte[] b = q.bytes();
                LaneRecord.fill(b, at, r, startNanos, synth.array());
                emittedMark = LaneRecord.mark(b, at);
                emittedLine = LaneRecord.line(b, at);
                int verb = LaneRecord.verb(b, at);
                int reply = LaneRecord.originalReply(b, at);
                r.sourceTag(verb | reply << REPLY_SHIFT); // given back with it, should it go unsent
                sentByVerb[verb]++;
                sentByReply[reply]++;
                sent++;
                SENT.setRelease(this, sent);
                q.release();
                if (readerWaiting && q.usedBytes() <= q.capacity() / 2) {
                    readerWaiting = false;
                    Thread t = reader;
                    if (t != null) {
                        LockSupport.unpark(t);
                    }
                }
                if (requested != Long.MAX_VALUE) {
                    requested--;
                }
                actual.onNext(r);
            }
        } finally {
            draining = false;
        }
    }

    private void complete() {
        completed = true;
        MARK.setRelease(this, emittedMark);
        LINE.setRelease(this, emittedLine);
        actual.onComplete();
    }
}
