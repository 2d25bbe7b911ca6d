package io.fluxperf.replay;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.log.BadLines;
import io.fluxperf.engine.log.ClientTable;
import io.fluxperf.engine.log.InOrderStep;
import io.fluxperf.engine.log.LineLogReader;
import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.log.LogFormat;
import io.fluxperf.engine.log.LogInput;
import io.fluxperf.engine.log.LogReader;
import io.fluxperf.engine.log.LogStats;
import io.fluxperf.engine.log.ReaderContext;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

/**
 * One pass over a log that several threads read and parse ({@code --reader-threads}), given out in
 * the log's order, as one reader would give it.
 *
 * <h2>How</h2>
 * <ul>
 * <li>The log is cut into parts of about {@link #PART_BYTES} that end at a line end
 *     ({@link #cut}): a line is never split between two parts. The thread that cuts a part counts
 *     its line ends, so each part knows the number of its first line, and bad lines are named by
 *     the numbers one reader gives them.</li>
 * <li>Each of the threads takes the next part to cut, cuts it (one thread at a time: the file is read
 *     in order, compressed or not), and parses it with its own reader of the format
 *     ({@link LogFormat.PreparedLog#openPart}) into the part's own entries, which are kept and reused.</li>
 * <li>{@link #next} gives out the parts' commands in the parts' order: exactly the commands, and in
 *     the order, one reader gives. The entries are copied out, so nothing is allocated per command
 *     once the parts' entries have grown to their size.</li>
 * <li>At most {@code 2 × threads + 2} parts are cut and not yet given out: the split read holds that
 *     many parts of the log and their parsed commands, whatever the log's size.</li>
 * <li>Original clients: the threads number them through one shared table (each thread asks it
 *     under its lock at a client's first sighting), and {@link #next} numbers them again in the
 *     order they first appear in the log, as one reader numbers them. Verbs: the threads' tables
 *     ask the log's ({@link ReaderContext#part}).</li>
 * <li>What else a format carries from line to line (a second's commands spread over it, the fetch
 *     memcached logs inside a store) its parts' readers leave undone, and {@link #next} does it to
 *     each command in the log's order ({@link LogFormat.PreparedLog#inOrder}).</li>
 * <li>What the threads counted (bad and skipped lines, adjusted commands) is added to the log's
 *     counters part by part when {@link #next} reaches the part, so the bad lines the report
 *     quotes are the log's first and the reasons for skipping come in the order one reader meets them. Under {@code --strict} the first bad
 *     line's error is raised when {@link #next} reaches its place, so it is the log's first.</li>
 * </ul>
 */
final class SplitLogReader implements LogReader {
    /** A part: long enough that cutting and handing it over cost little per line, short enough to stay in cache. */
    static final int PART_BYTES = 1 << 16;
    /** The most {@code --reader-threads}. */
    static final int MAX_THREADS = 16;
    /** A log smaller than this is read by one thread unless told: the threads would cost more than they save. */
    static final long SPLIT_FROM_BYTES = 16L << 20;
    /** The longest park of a thread that waits (covers an unpark missed in a race). */
    private static final long PARK_NANOS = 1_000_000L;

    private final Path path;
    private final ReaderContext ctx;
    private final LogFormat.PreparedLog prepared;
    private final LogInput whole;
    private final InputStream in;
    private final Part[] parts;
    private final Worker[] workers;
    private final ClientTable sharedClients = new ClientTable();
    /** What the format does in the log's order to each command (e.g. spreads a second's commands over it), or null. */
    private final InOrderStep step;

    // ---- the cutting (under cutLock) ----
    private final Object cutLock = new Object();
    private long nextCut;
    private byte[] carry = new byte[PART_BYTES];
    private int carryLength;
    private long linesCut;
    private boolean cutEnd;
    private volatile Thread cutter;
    private volatile boolean cutterWaiting;
    /** Parts the log holds, once cut to its end (or to a failure); until then Long.MAX_VALUE. */
    private volatile long total = Long.MAX_VALUE;
    private volatile Throwable cutFailure;

    // ---- the giving out (the caller of next) ----
    private long expected;
    /** Parts given out whole, written by {@link #next}: a part's slot is cut again once its part is. */
    private volatile long released;
    private Part current;
    private int index;
    private int[] clientByShared = new int[1024];
    private int clients;
    private long position;
    private long lines;
    private volatile Thread merger;
    private volatile boolean mergerWaiting;
    private volatile boolean closed;
    private boolean ended;

    /**
     * Starts {@code threads} threads that read {@code log}'s parts.
     *
     * @param prepared a log that {@link LogFormat.PreparedLog#splits() splits}
     */
    SplitLogReader(Path log, LogFormat.PreparedLog prepared, ReaderContext ctx, int threads) {
        this(log, prepared, ctx, new Parts(threads));
    }

    /**
     * Starts {@code parts.threads} threads that read {@code log}'s parts into {@code parts}: the parts
     * of the pass before, whose buffers and entries the next pass ({@code --loop}) reuses.
     */
    SplitLogReader(Path log, LogFormat.PreparedLog prepared, ReaderContext ctx, Parts reused) {
        int threads = reused.threads;
        if (!prepared.splits()) {
            throw new IllegalArgumentException("this log is read by one thread");
        }
        this.path = log;
        this.ctx = ctx;
        this.prepared = prepared;
        this.step = prepared.inOrder(ctx);
        this.whole = LogInput.open(log);
        this.in = whole.stream();
        Arrays.fill(clientByShared, -1);
        this.parts = reused.parts;
        for (Part p : parts) {
            p.seq = -1;
            p.done = false;
        }
        this.released = 0;
        this.workers = new Worker[threads];
        for (int i = 0; i < threads; i++) {
            workers[i] = new Worker(i);
        }
        for (Worker w : workers) {
            w.thread.start();
        }
    }

    /**
     * The threads that read a log: {@code requested} ({@code --reader-threads}) or, when 0, more than
     * one only for a log of {@link #SPLIT_FROM_BYTES} or more on a machine with cores to spare (one
     * for each core beyond two, at most four: the load threads, the server's and the thread that
     * paces and deals the commands need the first two). A log whose format does not split, a
     * {@code --scale} replay, and a log that is not a plain file, are read by one.
     */
    static int threadsFor(int requested, LogFormat.PreparedLog prepared, Path log, int scale) {
        if (!prepared.splits() || scale > 1 || !java.nio.file.Files.isRegularFile(log)) {
            return 1;
        }
        if (requested > 0) {
            return requested;
        }
        long size;
        try {
            size = java.nio.file.Files.size(log);
        } catch (IOException e) {
            return 1;
        }
        int cores = Runtime.getRuntime().availableProcessors();
        return size < SPLIT_FROM_BYTES ? 1 : Math.max(1, Math.min(4, cores - 2));
    }

    @Override
    public boolean next(LogEntry e) throws IOException {
        while (true) {
            if (current == null) {
                if (expected >= total) {
                    end();
                    return false;
                }
                Part p = parts[(int) (expected % parts.length)];
                if (p.seq != expected || !p.done) {
                    awaitPart(p);
                    continue;
                }
                current = p;
                index = 0;
                ctx.bad.take(p.bad);
                ctx.stats.add(p.stats);
            }
            Part p = current;
            if (index < p.count) {
                LogEntry s = p.entries[index++];
                e.copyFrom(s);
                if (e.client >= 0) {
                    e.client = client(e.client);
                }
                if (step != null) {
                    step.apply(e);
                }
                position = p.filePosition;
                return true;
            }
            if (p.failure != null) {
                throw rethrown(p.failure);
            }
            lines = p.lines;
            position = p.filePosition;
            current = null;
            expected++;
            released = expected;
            if (cutterWaiting) {
                Thread t = cutter;
                if (t != null) {
                    LockSupport.unpark(t);
                }
            }
        }
    }

    /** The client's number in the order clients first appear in the log. */
    private int client(int shared) {
        if (shared >= clientByShared.length) {
            int old = clientByShared.length;
            clientByShared = Arrays.copyOf(clientByShared, Math.max(shared + 1, old * 2));
            Arrays.fill(clientByShared, old, clientByShared.length, -1);
        }
        int c = clientByShared[shared];
        if (c < 0) {
            c = clientByShared[shared] = clients++;
        }
        return c;
    }

    private void awaitPart(Part p) throws IOException {
        if (closed) {
            throw new IOException("the log's reader was closed");
        }
        merger = Thread.currentThread();
        mergerWaiting = true;
        try {
            if ((p.seq != expected || !p.done) && expected < total) {
                LockSupport.parkNanos(PARK_NANOS);
            }
        } finally {
            mergerWaiting = false;
        }
    }

    /** Every part given out: the threads' counts join the log's, and a failure to cut is raised. */
    private void end() throws IOException {
        if (ended) {
            return;
        }
        ended = true;
        Throwable f = cutFailure;
        if (f != null) {
            throw rethrown(f);
        }
        whole.reportEnd(ctx);
    }

    private static IOException rethrown(Throwable t) {
        if (t instanceof IOException io) {
            return io;
        }
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error err) {
            throw err;
        }
        throw new IllegalStateException(t);
    }

    @Override
    public long position() {
        return position;
    }

    @Override
    public long size() {
        return whole.fileSize();
    }

    @Override
    public long lines() {
        return lines;
    }

    @Override
    public void close() {
        closed = true;
        for (Worker w : workers) {
            LockSupport.unpark(w.thread);
        }
        for (Worker w : workers) {
            try {
                w.thread.join(10_000);
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        whole.close();
    }

    // ---- the threads' side ----

    /**
     * Cuts the next part of the log into a free part (waiting for one), or returns null at the log's
     * end. One thread at a time: it reads the log in order.
     */
    private Part cut() throws IOException {
        synchronized (cutLock) {
            if (cutEnd || closed) {
                return null;
            }
            long seq = nextCut;
            Part p = parts[(int) (seq % parts.length)];
            while (released <= seq - parts.length) {
                cutter = Thread.currentThread();
                cutterWaiting = true;
                try {
                    if (closed) {
                        return null;
                    }
                    if (released <= seq - parts.length) {
                        LockSupport.parkNanos(PARK_NANOS);
                    }
                } finally {
                    cutterWaiting = false;
                }
            }
            int length = fill(p);
            if (length == 0) {
                cutEnd = true;
                total = seq;
                return null;
            }
            int cutAt = length;
            int nl = lastLineEnd(p.bytes, length);
            if (nl >= 0) {
                cutAt = nl + 1;
            }
            carryLength = length - cutAt;
            if (carryLength > carry.length) {
                carry = new byte[Math.max(carryLength, carry.length * 2)];
            }
            System.arraycopy(p.bytes, cutAt, carry, 0, carryLength);
            p.length = cutAt;
            p.firstLine = linesCut;
            linesCut += lineEnds(p.bytes, cutAt);
            p.filePosition = whole.filePosition();
            p.count = 0;
            p.failure = null;
            p.done = false;
            p.seq = seq; // volatile: after done is lowered, so the giving out cannot take the part's old state
            nextCut = seq + 1;
            return p;
        }
    }

    /**
     * Fills {@code p} with the carried-over bytes and then the log's, until it holds at least
     * {@link #PART_BYTES} with a line end in them, or the log ends; returns the bytes it holds.
     */
    private int fill(Part p) throws IOException {
        if (p.bytes.length < Math.max(PART_BYTES, carryLength)) {
            p.bytes = new byte[Math.max(PART_BYTES, Integer.highestOneBit(carryLength) << 1)];
        }
        System.arraycopy(carry, 0, p.bytes, 0, carryLength);
        int length = carryLength;
        carryLength = 0;
        while (true) {
            while (length < p.bytes.length) {
                int n = in.read(p.bytes, length, p.bytes.length - length);
                if (n < 0) {
                    return length; // the log ends: its last line need not end in a line end
                }
                length += n;
            }
            if (lastLineEnd(p.bytes, length) >= 0) {
                return length;
            }
            p.bytes = Arrays.copyOf(p.bytes, p.bytes.length * 2); // a line longer than a part
        }
    }

    private static int lastLineEnd(byte[] b, int length) {
        for (int i = length - 1; i >= 0; i--) {
            if (b[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    private static long lineEnds(byte[] b, int length) {
        long n = 0;
        for (int i = 0; i < length; i++) {
            if (b[i] == '\n') {
                n++;
            }
        }
        return n;
    }

    /**
     * The parts in flight of one replay, {@code 2 × threads + 2}: made once and used by each pass
     * over the log in turn (passes do not overlap), so that a pass allocates only its threads.
     */
    static final class Parts {
        final int threads;
        final Part[] parts;

        Parts(int threads) {
            this.threads = threads;
            this.parts = new Part[2 * threads + 2];
            for (int i = 0; i < parts.length; i++) {
                parts[i] = new Part();
            }
        }
    }

    /** One slot of the parts in flight: the bytes of a part of the log and the commands read from them. */
    private static final class Part {
        byte[] bytes = new byte[PART_BYTES];
        int length;
        long firstLine;
        long filePosition;
        /** The log's lines up to this part's end, once read. */
        long lines;
        LogEntry[] entries = new LogEntry[0];
        int count;
        /** The bad lines of the part, and its skipped lines, added to the log's in the log's order. */
        final BadLines bad = new BadLines(false);
        final LogStats stats = new LogStats();
        Throwable failure;
        volatile long seq = -1;
        volatile boolean done;

        LogEntry entry(int i) {
            if (i == entries.length) {
                entries = Arrays.copyOf(entries, Math.max(64, entries.length * 2));
            }
            LogEntry e = entries[i];
            if (e == null) {
                e = entries[i] = new LogEntry();
            }
            return e.reset();
        }
    }

    /** The stream a thread's reader reads: one part at a time, ending at the part's end. */
    private static final class PartStream extends InputStream {
        private Part part;
        private int at;

        void set(Part p) {
            part = p;
            at = 0;
        }

        long filePosition() {
            Part p = part;
            return p == null ? 0 : p.filePosition;
        }

        @Override
        public int read() {
            return part == null || at >= part.length ? -1 : part.bytes[at++] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (part == null || at >= part.length) {
                return -1;
            }
            int n = Math.min(len, part.length - at);
            System.arraycopy(part.bytes, at, b, off, n);
            at += n;
            return n;
        }
    }

    /** One of the threads that cut and read parts. */
    private final class Worker {
        final Thread thread;
        final LogStats stats = new LogStats();
        /** The bad lines of the part being read (strict as the log's: the first raises at its place). */
        final BadLines bad = new BadLines(ctx.bad.strict());

        Worker(int i) {
            thread = new Thread(this::run, "fluxperf-parse-" + (i + 1));
            thread.setDaemon(true);
        }

        private void run() {
            PartStream stream = new PartStream();
            ReaderContext own = ctx.part(stats, bad, sharedClients);
            LogInput input = LogInput.part(path, stream, stream::filePosition, whole.fileSize());
            LineLogReader reader = null;
            try {
                while (!closed) {
                    Part p;
                    try {
                        p = cut();
                    } catch (IOException | UncheckedIOException | UserError e) {
                        failCut(e);
                        return;
                    }
                    if (p == null) {
                        return;
                    }
                    stream.set(p);
                    int n = 0;
                    try {
                        if (reader == null) {
                            reader = prepared.openPart(input, own);
                        }
                        reader.restart(p.firstLine);
                        while (reader.next(p.entry(n))) {
                            n++;
                        }
                        p.lines = reader.lines();
                    } catch (Throwable t) {
                        p.failure = t;
                    }
                    p.bad.take(bad);
                    p.stats.add(stats);
                    p.count = n;
                    p.done = true;
                    if (mergerWaiting) {
                        Thread m = merger;
                        if (m != null) {
                            LockSupport.unpark(m);
                        }
                    }
                }
            } catch (Throwable t) {
                failCut(t);
            } finally {
                if (reader != null) {
                    reader.close();
                }
            }
        }

        private void failCut(Throwable t) {
            synchronized (cutLock) {
                if (cutFailure == null) {
                    cutFailure = t;
                }
                cutEnd = true;
                total = nextCut;
            }
            Thread m = merger;
            if (m != null) {
                LockSupport.unpark(m);
            }
        }
    }
}
