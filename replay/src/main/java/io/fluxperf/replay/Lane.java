package io.fluxperf.replay;

import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.request.Request;
import io.fluxperf.engine.request.RequestPool;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;

/**
 * What one load thread replays: a bounded ring of commands that the reader fills in send-time
 * order, emptied into requests as the thread asks for them.
 *
 * <h2>Assumptions and guarantees</h2>
 * <ul>
 * <li>The load thread subscribes on its event loop and asks for a request ({@code onRequest}) on
 *     that loop whenever it holds none; it may ask again before an earlier request reached it.
 *     Demand is therefore a flag, not a count: one request satisfies every ask made before it.</li>
 * <li>Fast path: when the ring holds a command, the request is filled and emitted right in the
 *     ask, on the event loop. Slow path: when the ring is empty, the ask is remembered and the
 *     reader emits from its own thread as soon as it adds a command; the driver hands such a
 *     request over to the event loop with a task.</li>
 * <li>While a request emitted by the reader is on its way ({@link #inTransit}), nothing else is
 *     emitted: asks made before the driver took it are answered by it. It has arrived once the
 *     driver sent it (its send time is set), which the next drain checks; the driver asks again
 *     only after sending.</li>
 * <li>Emission is serialized by {@link #wip} (a work-in-progress counter): whichever thread gets
 *     it drains, the other leaves its signal behind; the counter also orders the lane's state
 *     (the value buffers, the ring's consumer side, {@link #inTransit}) between the two threads.</li>
 * <li>The reader adds to the ring and then reads the demand; the event loop raises the demand and
 *     then reads the ring; both use volatile accesses, so one of them always sees the other (no
 *     lost wake-up).</li>
 * <li>Each command is handed back to the reader through {@link #returned} after its request is
 *     filled; the ring and the read-ahead bound the memory in use.</li>
 * <li>An ask with nothing on its way means the request emitted before was sent: that is when the
 *     lane's position ({@link #mark()}, {@link #line()}) moves on to it. So the lane completes only
 *     when asked with nothing left, after its last command was sent, and its position ends there.</li>
 * </ul>
 */
final class Lane {
    private final SpscRing<LogEntry> ready;
    private final SpscRing<LogEntry> returned;
    private final SynthValues synth;
    /** The driver asked and has not been answered. */
    private volatile boolean demand;
    /** A request the reader emitted that the driver has not sent yet; null when none. Guarded by {@link #wip}. */
    private Request inTransit;
    private volatile Thread loopThread;
    private final AtomicInteger wip = new AtomicInteger();
    private final Map<Request, byte[]> valueBuffers = new IdentityHashMap<>();
    private volatile FluxSink<Request> sink;
    private volatile boolean done;
    private volatile boolean cancelled;
    private volatile boolean readerWaiting;
    private volatile Thread reader;
    private RequestPool pool;
    private long startNanos;
    /** Progress: loop << 44 | position, and line, of the last command emitted (maybe waiting for its time). */
    private long emittedMark;
    private long emittedLine;
    /** The same of the last command sent: the driver asks for the next only after it sent the one before. */
    private volatile long mark;
    private volatile long line;

    Lane(int capacity, SynthValues synth) {
        this.ready = new SpscRing<>(capacity);
        this.returned = new SpscRing<>(capacity + 1);
        this.synth = synth;
    }

    /** The load thread's requests; subscribed once, on its event loop. */
    Flux<Request> flux(RequestPool requestPool, long start) {
        return Flux.create(s -> {
            pool = requestPool;
            startNanos = start;
            s.onDispose(() -> {
                cancelled = true;
                Thread r = reader;
                if (r != null) {
                    LockSupport.unpark(r);
                }
            });
            loopThread = Thread.currentThread();
            sink = s;
            s.onRequest(n -> {
                demand = true;
                drain();
            });
            drain();
        }, FluxSink.OverflowStrategy.ERROR);
    }

    // ---- reader side ----

    /**
     * Adds a command (reader thread); waits while the ring is full. Returns false when the load
     * thread stopped listening (the entry is then the caller's again).
     */
    boolean put(LogEntry e, Thread readerThread, java.util.function.BooleanSupplier closed) {
        if (reader != readerThread) {
            reader = readerThread;
        }
        while (!ready.offer(e)) {
            if (cancelled || closed.getAsBoolean()) {
                return false;
            }
            readerWaiting = true;
            if (ready.size() >= ready.capacity()) {
                LockSupport.parkNanos(1_000_000L);
            }
            readerWaiting = false;
        }
        if (demand) {
            drain();
        }
        return true;
    }

    /** The ring is full: the read-ahead is ahead of this lane's sending. */
    boolean full() {
        return ready.size() >= ready.capacity();
    }

    /** Takes back the entries whose requests were filled (reader thread). */
    LogEntry takeReturned() {
        return returned.poll();
    }

    /** No more commands will come (reader thread). */
    void finish() {
        done = true;
        drain();
    }

    boolean cancelled() {
        return cancelled;
    }

    /** Progress: loop << 44 | position of the last command this lane's thread sent. */
    long mark() {
        return mark;
    }

    /** The line (or record) of the last command this lane's thread sent; 0 before the first. */
    long line() {
        return line;
    }

    // ---- emission ----

    private void drain() {
        if (sink == null || wip.getAndIncrement() != 0) {
            return;
        }
        FluxSink<Request> s = sink;
        boolean onLoop = Thread.currentThread() == loopThread;
        int missed = 1;
        do {
            if (inTransit != null && inTransit.sentNanos() != 0) {
                // the driver took it and sent it, so the ask is for the next one. Read off the loop
                // too: the loop set the send time before it asked, and its ask (wip) is what made
                // this pass run, so the time is visible here.
                inTransit = null;
            }
            if (demand && inTransit == null) {
                // asked again with nothing on its way: the request emitted before has been sent
                mark = emittedMark;
                line = emittedLine;
            }
            if (demand && inTransit == null && !cancelled) {
                LogEntry e = ready.poll();
                if (e != null) {
                    if (readerWaiting && ready.size() <= ready.capacity() / 2) {
                        Thread t = reader;
                        if (t != null) {
                            LockSupport.unpark(t);
                        }
                    }
                    Request req = pool.acquire();
                    if (req == null) {
                        returned.offer(e);
                        s.error(new IllegalStateException("request pool exhausted: more requested than in-flight capacity"));
                        return;
                    }
                    fill(req, e);
                    emittedMark = (long) e.loop << 44 | e.position;
                    emittedLine = e.line;
                    returned.offer(e);
                    demand = false;
                    if (!onLoop) {
                        inTransit = req;
                    }
                    s.next(req);
                }
            }
            if (done && ready.isEmpty() && inTransit == null && demand && !cancelled) {
                s.complete();
                return; // wip stays taken: nothing more is emitted
            }
            missed = wip.addAndGet(-missed);
        } while (missed != 0);
    }

    private void fill(Request r, LogEntry e) {
        r.command(e.command, e.workload);
        for (int i = 0; i < e.keyCount; i++) {
            r.addKey(e.keys, e.keyStart(i), e.keyLength(i));
        }
        if (e.argCount > 0) {
            for (int i = 0; i < e.argCount; i++) {
                r.addArg(e.args, e.argStart(i), e.argLength(i));
            }
            if (e.valueArg >= 0) {
                r.value(r.argBytes(), r.argOffset(e.valueArg), r.argLength(e.valueArg));
            }
        } else if (e.valueLogged) {
            byte[] buffer = valueBuffers.get(r);
            if (buffer == null || buffer.length < e.valueLength) {
                buffer = new byte[Math.max(e.valueLength, 64)];
                valueBuffers.put(r, buffer);
            }
            System.arraycopy(e.value, 0, buffer, 0, e.valueLength);
            r.value(buffer, 0, e.valueLength);
        } else if (e.synthSize >= 0) {
            r.value(synth.array(), 0, e.synthSize);
        }
        r.sourceNanos(e.sourceNanos);
        r.ttlSeconds(e.ttlSeconds);
        r.numeric(e.numeric);
        r.affinity(e.affinity);
        if (e.scheduled) {
            r.intendedNanos(startNanos + e.offsetNanos);
        }
    }
}
