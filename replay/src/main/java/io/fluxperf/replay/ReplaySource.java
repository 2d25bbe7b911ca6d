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
import java.util.concurrent.Executor;
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
 * <p>Entries are the reader's own: a pool it indexes by number (the read-ahead holds numbers, not
 * references), each back in the pool as soon as its command is copied into a lane's ring. Memory
 * is bounded by the read-ahead (commands and bytes) plus the lanes' rings, whatever the log's size.
 * The reader starts when {@link #start()} is called, so the read-ahead is full before the first
 * request is due.
 */
final class ReplaySource implements RequestSource, AutoCloseable {
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
    /** The reader's entries, made as needed up to the bound; {@link #free} holds the numbers of those not in use. */
    private final LogEntry[] entries;
    private final int[] free;
    private int freeCount;
    private int allocated;
    private final ReorderWindow window;
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
    /** A sharded replay's agent: it sends the commands of the clients it owns only; null: all. */
    private io.fluxperf.engine.shard.Shard shard;
    /** Commands without a client seen so far (a sharded replay deals them round-robin over the agents). */
    private long clientless;
    /** The bytes the load threads together may hold of commands waiting for their client's busy connection. */
    private long backlogBytes = ReplayOptions.DEFAULT_READ_AHEAD_BYTES;
    /** Each thread's most bytes and commands held so, written on its loop. */
    private final java.util.concurrent.atomic.AtomicLongArray backlogPeakBytes;
    private final java.util.concurrent.atomic.AtomicLongArray backlogPeakCommands;
    /** Where the schedule is, for the progress line: fed by the reader, started with the load threads. */
    private final ScheduleProgress schedule = new ScheduleProgress();

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
            lanes[i] = new Lane(Lane.RING_BYTES, synth);
        }
        // the read-ahead, the entry being read, and what a reader may hold back (a watch store's fetch)
        int maxEntries = readAhead + 16;
        this.entries = new LogEntry[maxEntries];
        this.free = new int[maxEntries];
        this.window = new ReorderWindow(entries);
        this.backlogPeakBytes = new java.util.concurrent.atomic.AtomicLongArray(threads);
        this.backlogPeakCommands = new java.util.concurrent.atomic.AtomicLongArray(threads);
    }

    /**
     * The bytes of the heap the load threads together may hold of commands that are due but wait
     * for their client's busy connection (each thread an equal share). Call before the run.
     */
    ReplaySource backlogBytes(long bytes) {
        this.backlogBytes = bytes;
        return this;
    }

    @Override
    public long backlogBytes(int thread, int threads) {
        return anyConnection ? 0 : Math.max(1, backlogBytes / threads);
    }

    @Override
    public void backlogPeak(int thread, long bytes, int requests) {
        backlogPeakBytes.accumulateAndGet(thread, bytes, Math::max);
        backlogPeakCommands.accumulateAndGet(thread, requests, Math::max);
    }

    /** The most bytes of the heap the load threads held at once of commands waiting for their connection (the sum of each thread's peak). */
    long backlogPeakBytes() {
        long sum = 0;
        for (int i = 0; i < backlogPeakBytes.length(); i++) {
            sum += backlogPeakBytes.get(i);
        }
        return sum;
    }

    /** The same in commands. */
    long backlogPeakCommands() {
        long sum = 0;
        for (int i = 0; i < backlogPeakCommands.length(); i++) {
            sum += backlogPeakCommands.get(i);
        }
        return sum;
    }

    /** How long the load threads together waited for the reader with room to send, ns. */
    long readerWaitNanos() {
        long sum = 0;
        for (Lane l : lanes) {
            sum += l.readerWaitNanos();
        }
        return sum;
    }

    /** See {@link #backlogBytes(long)}. */
    long backlogBudget() {
        return backlogBytes;
    }

    /**
     * Replays only the commands of the original clients that {@code s} owns
     * ({@link io.fluxperf.engine.shard.Shard#ownsClient}); commands without a client go round-robin
     * over the agents. Every agent reads and paces the whole log, so send times agree between them.
     * Call before {@link #start()}.
     */
    ReplaySource shard(io.fluxperf.engine.shard.Shard s) {
        this.shard = s;
        return this;
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
        throw new UnsupportedOperationException("a replay's lanes are read on their load thread's loop: give it");
    }

    @Override
    public Flux<Request> requests(int thread, int threads, RequestPool pool, long startNanos, Executor loop) {
        if (threads != lanes.length) {
            throw new IllegalStateException("replay source made for " + lanes.length + " threads, run has " + threads);
        }
        schedule.started(startNanos);
        return lanes[thread].flux(pool, startNanos, loop);
    }

    @Override
    public void unsent(int thread, Request r) {
        lanes[thread].unsent(r);
    }

    /**
     * The commands replayed, per verb: those the load threads took and did not give back unsent,
     * not those the reader dealt ahead into the lanes. Read once the run's loops have stopped.
     */
    java.util.Map<String, Long> replayedByVerb(VerbTable verbs) {
        long[] sum = new long[VerbTable.MAX_VERBS + 1];
        for (Lane l : lanes) {
            long[] sent = l.sentByVerb();
            for (int v = 0; v < sum.length; v++) {
                sum[v] += sent[v];
            }
        }
        return io.fluxperf.engine.log.LogStats.byVerb(sum, verbs);
    }

    /**
     * What the original server answered the commands replayed (a log that holds replies), counted
     * as {@link #replayedByVerb} counts; null for a log without replies.
     */
    OriginalReplies originalReplies() {
        long[] sum = new long[OriginalReplies.COUNTS];
        for (Lane l : lanes) {
            long[] sent = l.sentByReply();
            for (int i = 0; i < sum.length; i++) {
                sum[i] += sent[i];
            }
        }
        return OriginalReplies.of(sum);
    }

    /** Where the replay is on its schedule ({@link ScheduleProgress#at}). */
    ScheduleProgress schedule() {
        return schedule;
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

    /** Progress: {loop, position, line} of the last command taken but one (see {@link Lane}). */
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
                lastSortKey = Long.MIN_VALUE; // a new pass starts from the log's beginning: not late
                try (LogReader reader = opener.open(ctx)) {
                    ctx.stats.size = reader.size();
                    readPass(reader);
                    if (loop == 1) {
                        ctx.stats.lines = reader.lines();
                    }
                }
            }
            if (loop > loops) {
                schedule.readAll();
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
            int i = freeEntry();
            if (i < 0) {
                return;
            }
            LogEntry e = entries[i];
            if (!reader.next(e)) {
                free[freeCount++] = i;
                break;
            }
            if (loop == 1) {
                ctx.stats.commands++;
            }
            if (!accepted(e.verb)) {
                ctx.stats.filtered++;
                free[freeCount++] = i;
                continue;
            }
            e.loop = loop;
            e.sequence = sequence++;
            e.inWindow = true;
            window.add(i);
            while (window.size() >= readAhead || window.heldBytes() > READ_AHEAD_BYTES) {
                release(window.poll());
            }
        }
        int i;
        while (!stopping() && (i = window.poll()) != ReorderWindow.NONE) {
            release(i);
        }
        while ((i = window.poll()) != ReorderWindow.NONE) {
            entries[i].inWindow = false;
            free[freeCount++] = i;
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

    /** Paces the entry at {@code i}, deals it to its lane and puts it back in the pool. */
    private void release(int i) {
        LogEntry e = entries[i];
        free[freeCount++] = i;
        e.inWindow = false;
        if (e.dropped) {
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
            schedule.scheduled(e.offsetNanos, loop, e.position);
        }
        if (shard != null && !(e.client >= 0 ? shard.ownsClient(e.client)
                : Math.floorMod(clientless++, (long) shard.count()) == shard.index())) {
            return; // another agent's client: paced above all the same, so that the log's clock is one for all
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
        ctx.stats.dealt++;
        Lane target = lanes[lane];
        if (primed.getCount() > 0 && target.full(e)) {
            primed.countDown();
        }
        target.put(e, Thread.currentThread(), closedCheck); // copied: the entry is free again either way
    }

    /**
     * The number of a reset entry: a recycled one, or a new one while under the bound. Every entry
     * not in the read-ahead is free (a lane copies what it takes), so there always is one.
     */
    private int freeEntry() {
        int i;
        if (freeCount > 0) {
            i = free[--freeCount];
        } else if (allocated < entries.length) {
            i = allocated++;
            entries[i] = new LogEntry();
        } else {
            throw new IllegalStateException("the read-ahead holds every entry: " + entries.length);
        }
        entries[i].reset();
        return i;
    }
}
