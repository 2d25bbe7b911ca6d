package io.fluxperf.replay;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.load.RequestSource;
import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.log.LogReader;
import io.fluxperf.engine.log.ReaderContext;
import io.fluxperf.engine.log.VerbTable;
import io.fluxperf.engine.request.Request;
import io.fluxperf.engine.request.RequestPool;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.concurrent.locks.LockSupport;
import reactor.core.publisher.Flux;

/**
 * A command log as a {@link RequestSource}. One reader thread reads and parses the log (no file
 * I/O on an event loop), sorts it through a bounded read-ahead ({@link ReorderWindow}), gives each
 * command its send time ({@link Pacer}) and deals the commands out to one {@link Lane} per load
 * thread: original client c goes to thread {@code c % T} and, on that thread, to connection slot
 * {@code c / T}, so each client's commands keep their order on one connection. Commands whose log
 * does not name a client are dealt round-robin to any connection.
 *
 * <p>Memory is bounded by the read-ahead (commands and bytes) plus the lanes' rings, whatever the
 * log's size. The reader starts when {@link #start()} is called, so the read-ahead is full before
 * the first request is due.
 */
final class ReplaySource implements RequestSource, AutoCloseable {
    /** Commands per lane ring. */
    static final int LANE_CAPACITY = 1024;
    /** The read-ahead also stops growing when its commands hold this many key/value bytes. */
    static final long READ_AHEAD_BYTES = 64L << 20;

    /** Opens a new pass over the log. */
    interface Opener {
        LogReader open(ReaderContext ctx);
    }

    private final Opener opener;
    private final ReaderContext ctx;
    private final Lane[] lanes;
    private final SynthValues synth = new SynthValues();
    private final Pacer pacer;
    private final int loops;
    private final int readAhead;
    private final boolean anyConnection;
    private final boolean[] onlyDecided;
    private final ReplayPlan.Only only;
    private final int[] workloadByVerb;
    private final int otherWorkload;
    private final ArrayDeque<LogEntry> free = new ArrayDeque<>();
    private final int maxEntries;
    private int allocated;
    private final ReorderWindow window = new ReorderWindow();
    private long sequence;
    private long roundRobin;
    private long lastSortKey = Long.MIN_VALUE;
    private int loop;
    private Thread thread;
    private volatile boolean closed;
    private volatile Throwable failure;
    private volatile Runnable onFailure;
    private volatile boolean finished;
    private final java.util.concurrent.CountDownLatch primed = new java.util.concurrent.CountDownLatch(1);

    /**
     * @param workloadByVerb workload index of each planned verb id; other verbs go to {@code otherWorkload}
     */
    ReplaySource(Opener opener, ReaderContext ctx, int threads, Pacer pacer, int loops, int readAhead,
                 boolean anyConnection, ReplayPlan.Only only, int[] workloadByVerb, int otherWorkload) {
        this.opener = opener;
        this.ctx = ctx;
        this.pacer = pacer;
        this.loops = loops;
        this.readAhead = readAhead;
        this.anyConnection = anyConnection;
        this.only = only;
        this.onlyDecided = new boolean[VerbTable.MAX_VERBS + 1];
        this.workloadByVerb = workloadByVerb;
        this.otherWorkload = otherWorkload;
        this.lanes = new Lane[threads];
        for (int i = 0; i < threads; i++) {
            lanes[i] = new Lane(LANE_CAPACITY, synth);
        }
        this.maxEntries = readAhead + threads * (LANE_CAPACITY + 2) + 16;
    }

    /** Called (on the reader thread) when reading fails, e.g. a bad line under --strict: stops the run. */
    void onFailure(Runnable action) {
        this.onFailure = action;
    }

    /** Starts the reader thread. */
    void start() {
        thread = new Thread(this::read, "fluxperf-replay-reader");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public Flux<Request> requests(int thread, int threads, RequestPool pool, long startNanos) {
        if (threads != lanes.length) {
            throw new IllegalStateException("replay source made for " + lanes.length + " threads, run has " + threads);
        }
        return lanes[thread].flux(pool, startNanos);
    }

    /** Why reading stopped early (a {@link UserError} for a bad log), or null. */
    Throwable failure() {
        return failure;
    }

    /** The reader read the whole log, every loop (or stopped on a failure). */
    boolean finished() {
        return finished;
    }

    /**
     * Waits until the read-ahead is full (a lane's ring filled up) or the reader is done, so that the
     * first send times do not wait for the reader to fill its window (at most {@code timeoutMillis}).
     */
    void awaitPrimed(long timeoutMillis) {
        try {
            primed.await(timeoutMillis, java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Progress: {loop, position, line} of the last command sent. */
    long[] progress() {
        long best = -1;
        long line = 0;
        for (Lane l : lanes) {
            long m = l.mark();
            if (m > best) {
                best = m;
                line = l.line();
            }
        }
        if (best < 0) {
            return new long[] {1, 0, 0};
        }
        return new long[] {best >>> 44, best & ((1L << 44) - 1), line};
    }

    @Override
    public void close() {
        closed = true;
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
            try {
                t.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    // ---- the reader thread ----

    private boolean stopping() {
        if (closed) {
            return true;
        }
        for (Lane l : lanes) {
            if (!l.cancelled()) {
                return false;
            }
        }
        return true;
    }

    private void read() {
        try {
            for (loop = 1; loop <= loops && !stopping(); loop++) {
                ctx.stats.loop = loop;
                pacer.newLoop();
                try (LogReader reader = opener.open(ctx)) {
                    ctx.stats.size = reader.size();
                    readPass(reader);
                    if (loop == 1) {
                        ctx.stats.lines = reader.lines();
                    }
                }
            }
        } catch (UserError e) {
            failure = e;
        } catch (IOException e) {
            failure = new UserError(ctx.name + ": cannot read: " + e.getMessage(), e);
        } catch (Throwable t) {
            failure = t;
        } finally {
            for (Lane l : lanes) {
                l.finish();
            }
            finished = true;
            primed.countDown();
            Runnable action = onFailure;
            if (failure != null && action != null) {
                action.run();
            }
        }
    }

    private void readPass(LogReader reader) throws IOException {
        while (!stopping()) {
            LogEntry e = freeEntry();
            if (e == null) {
                return;
            }
            if (!reader.next(e)) {
                free.push(e);
                break;
            }
            if (loop == 1) {
                ctx.stats.commands++;
            }
            if (!accepted(e.verb)) {
                ctx.stats.filtered++;
                free.push(e);
                continue;
            }
            e.loop = loop;
            e.sequence = sequence++;
            e.inWindow = true;
            window.add(e);
            while (window.size() >= readAhead || window.heldBytes() > READ_AHEAD_BYTES) {
                release(window.poll());
            }
        }
        LogEntry e;
        while (!stopping() && (e = window.poll()) != null) {
            release(e);
        }
        while ((e = window.poll()) != null) {
            free.push(e);
        }
    }

    private boolean accepted(int verb) {
        if (only == null) {
            return true;
        }
        int v = Math.min(verb, VerbTable.MAX_VERBS);
        if (!onlyDecided[v]) {
            onlyDecided[v] = true;
            onlyAccepts[v] = only.accepts(ctx.verbs.name(verb));
        }
        return onlyAccepts[v];
    }

    private final boolean[] onlyAccepts = new boolean[VerbTable.MAX_VERBS + 1];
    private final java.util.function.BooleanSupplier closedCheck = () -> closed;

    private void release(LogEntry e) {
        e.inWindow = false;
        if (e.dropped) {
            free.push(e);
            return;
        }
        if (e.sortKey < lastSortKey) {
            ctx.stats.late++;
        } else {
            lastSortKey = e.sortKey;
        }
        if (loop == 1 && e.timeNanos != LogEntry.NO_TIME) {
            if (ctx.stats.firstTime == LogEntry.NO_TIME || e.timeNanos < ctx.stats.firstTime) {
                ctx.stats.firstTime = e.timeNanos;
            }
            if (ctx.stats.lastTime == LogEntry.NO_TIME || e.timeNanos > ctx.stats.lastTime) {
                ctx.stats.lastTime = e.timeNanos;
            }
        }
        pacer.schedule(e);
        if (e.scheduled) {
            ctx.stats.anyScheduled = true;
            ctx.stats.lastOffsetNanos = e.offsetNanos;
        }
        e.workload = e.verb < workloadByVerb.length && workloadByVerb[e.verb] >= 0 ? workloadByVerb[e.verb] : otherWorkload;
        if (e.synthSize > 0) {
            synth.ensure(e.synthSize);
        }
        int threads = lanes.length;
        int lane;
        if (e.client >= 0) {
            if (e.client >= ctx.stats.clients) {
                ctx.stats.clients = e.client + 1;
            }
            lane = e.client % threads;
            e.affinity = anyConnection ? -1 : e.client / threads;
        } else {
            lane = (int) (roundRobin++ % threads);
            e.affinity = -1;
        }
        ctx.stats.replayed(e.verb);
        Lane target = lanes[lane];
        LogEntry back;
        while ((back = target.takeReturned()) != null) {
            free.push(back);
        }
        if (primed.getCount() > 0 && target.full()) {
            primed.countDown();
        }
        if (!target.put(e, Thread.currentThread(), closedCheck)) {
            free.push(e);
        }
    }

    /** A reset entry: a recycled one, a new one while under the bound, or null when closing. */
    private LogEntry freeEntry() {
        while (true) {
            LogEntry e = free.poll();
            if (e != null) {
                return e.reset();
            }
            for (Lane l : lanes) {
                LogEntry back;
                while ((back = l.takeReturned()) != null) {
                    free.push(back);
                }
            }
            if (!free.isEmpty()) {
                continue;
            }
            if (allocated < maxEntries) {
                allocated++;
                return new LogEntry();
            }
            if (stopping()) {
                return null;
            }
            LockSupport.parkNanos(100_000L);
        }
    }
}
