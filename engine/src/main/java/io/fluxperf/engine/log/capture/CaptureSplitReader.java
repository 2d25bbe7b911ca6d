package io.fluxperf.engine.log.capture;

import io.fluxperf.engine.log.BadLines;
import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.log.LogInput;
import io.fluxperf.engine.log.LogReader;
import io.fluxperf.engine.log.LogStats;
import io.fluxperf.engine.log.ReaderContext;
import io.fluxperf.engine.log.VerbTable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

/**
 * A packet capture read by several threads, split by connection ({@code --reader-threads}): the
 * commands, their order, client numbers and places, and what is counted (cut, skipped, lost
 * streams, bad lines) are exactly those {@link CaptureReader} gives on one thread.
 *
 * <h2>How</h2>
 * <ul>
 * <li>One thread reads the file and decodes its packets. It keeps the capture's clock as
 *     {@link CaptureReader} does ({@code now}, the {@link CaptureReader#SWEEP_NANOS} sweeps, the first
 *     packet's time) and gives each TCP segment, its payload copied, to the share of the thread its
 *     connection's hash names (the same both ways), in chunks of at most {@link #CHUNK_ITEMS} items and
 *     about {@link #CHUNK_BYTES} payload bytes. A sweep and the capture's end go to every share.</li>
 * <li>Each share thread runs a {@link CaptureReader} of its own over its connections: flow table,
 *     reassembly and the protocol's reading, the costly part. What it does is written as events after
 *     each item, in order: a connection opened or ended, a command released, counters, bad lines, new
 *     verbs, and in a sweep or the end which connection the events that follow belong to.</li>
 * <li>{@link #next} goes through each chunk's items in packet order and takes each item's events from
 *     the share that handled it. It numbers clients in the order connections open and verbs in the
 *     order they are first read, as one reader does, and keeps the list of live connections as one
 *     reader keeps it (removal by swapping the last in): a sweep, and the end, take the connections'
 *     events in that list's order, which is the order one reader releases them in.</li>
 * <li>At most {@code 2 × threads + 2} chunks are read and not yet given out: memory is bounded by
 *     their bytes, whatever the capture's size. Entries are the shares' own, handed back when their
 *     chunk is read again, and copied out by swapping buffers: nothing is allocated per command.</li>
 * </ul>
 */
public final class CaptureSplitReader implements LogReader {
    /** Items (segments, sweeps) in a chunk. */
    static final int CHUNK_ITEMS = 2048;
    /** Payload bytes after which a chunk is handed over. */
    static final int CHUNK_BYTES = 1 << 19;
    /** The longest park of a thread that waits: each hand-over unparks the thread that waits for it, so this only bounds a wait. */
    private static final long PARK_NANOS = 1_000_000L;

    private static final byte SEGMENT = 0;
    private static final byte SWEEP = 1;
    private static final byte END = 2;

    private static final byte E_RELEASE = 0;
    private static final byte E_OPEN = 1;
    private static final byte E_END = 2;
    private static final byte E_GROUP = 3;
    private static final byte E_STATS = 4;
    private static final byte E_BAD = 5;
    private static final byte E_VERB = 6;

    private final LogInput input;
    private final CaptureFile file;
    private final ReaderContext ctx;
    private final int threads;
    private final Chunk[] chunks;
    private final Share[] shares;
    private final Thread fileThread;

    // ---- the file thread's ----
    private final TcpSegment seg = new TcpSegment();
    private volatile boolean fileWaiting;
    /** Chunks read, once the file is read to its end (or a failure); until then Long.MAX_VALUE. */
    private volatile long total = Long.MAX_VALUE;
    private volatile Throwable readFailure;
    private volatile boolean closed;

    // ---- the giving out (the caller of next) ----
    /** Chunks given out whole: a chunk's slot is read again once its chunk is. */
    private volatile long released;
    private volatile Thread merger;
    private volatile boolean mergerWaiting;
    private long expected;
    private Chunk current;
    private int item;
    private final int[] cursor;
    private LogEntry[] ready = new LogEntry[256];
    private int readyCount;
    private int readyIndex;
    /** Per share, by connection slot: the client number, and the place in {@link #liveShare}/{@link #liveSlot}. */
    private int[][] clientOf;
    private int[][] liveIndexOf;
    private int[][] groupStamp;
    private int[][] groupFrom;
    private int[][] groupTo;
    private int stamp;
    /** Per share: its verb ids in the log's table. */
    private int[][] verbOf;
    private int[] liveShare = new int[64];
    private int[] liveSlot = new int[64];
    private int liveCount;
    private int nextClient;
    private long position;
    private long lines;
    private boolean ended;

    /**
     * Starts the file thread and {@code threads} share threads over {@code input}.
     *
     * @param selection the servers whose connections are read
     */
    public CaptureSplitReader(LogInput input, ReaderContext ctx, CaptureSelection selection, int threads) {
        if (threads < 2) {
            throw new IllegalArgumentException("a split read takes 2 threads or more, not " + threads);
        }
        this.input = input;
        this.ctx = ctx;
        this.threads = threads;
        this.file = new CaptureFile(ctx.name, input.stream());
        String snapReason = "commands cut by the capture's " + file.largestSnapLength() + "-byte snap length (never sent half)";
        this.chunks = new Chunk[2 * threads + 2];
        for (int i = 0; i < chunks.length; i++) {
            chunks[i] = new Chunk(threads);
        }
        this.cursor = new int[threads];
        this.clientOf = new int[threads][64];
        this.liveIndexOf = new int[threads][64];
        this.groupStamp = new int[threads][64];
        this.groupFrom = new int[threads][64];
        this.groupTo = new int[threads][64];
        this.verbOf = new int[threads][16];
        this.shares = new Share[threads];
        for (int i = 0; i < threads; i++) {
            shares[i] = new Share(i, selection, snapReason);
        }
        this.fileThread = new Thread(this::readFile, "capture-file");
        fileThread.setDaemon(true);
        for (Share s : shares) {
            s.thread.start();
        }
        fileThread.start();
    }

    // ---- the giving out ----

    @Override
    public boolean next(LogEntry e) throws IOException {
        while (readyIndex == readyCount) {
            readyIndex = 0;
            readyCount = 0;
            if (!step()) {
                end();
                return false;
            }
        }
        LogEntry r = ready[readyIndex];
        ready[readyIndex++] = null;
        CaptureReader.moveTo(r, e);
        return true;
    }

    /** Takes the next item's events; false when every chunk is given out. */
    private boolean step() throws IOException {
        while (current == null) {
            if (expected >= total) {
                return false;
            }
            Chunk c = chunks[(int) (expected % chunks.length)];
            if (c.seq != expected || !c.done()) {
                await(c);
                continue;
            }
            current = c;
            item = 0;
            Arrays.fill(cursor, 0);
        }
        Chunk c = current;
        if (item < c.items) {
            int w = c.itemShare[item++];
            if (w >= 0) {
                events(w, c.out[w], cursor[w]++);
            } else {
                groups(c, w == -1 - END);
            }
            return true;
        }
        position = c.position;
        lines = c.packets;
        current = null;
        expected++;
        released = expected;
        if (fileWaiting) {
            LockSupport.unpark(fileThread);
        }
        return true;
    }

    /** The events of share {@code w}'s {@code local}-th item of the chunk, in order. */
    private void events(int w, Out out, int local) throws IOException {
        failed(out, local);
        apply(w, out, out.itemFrom(local), out.itemEnd[local]);
    }

    private static void failed(Out out, int local) throws IOException {
        if (out.failure != null && local >= out.failedAt) {
            Throwable t = out.failure;
            if (t instanceof IOException io) {
                throw io;
            }
            if (t instanceof RuntimeException r) {
                throw r;
            }
            if (t instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(t);
        }
    }

    /**
     * A sweep or the end: every share's events grouped by connection, taken in the order of the live
     * connections as one reader keeps them.
     */
    private void groups(Chunk c, boolean end) throws IOException {
        stamp++;
        for (int w = 0; w < threads; w++) {
            Out out = c.out[w];
            int local = cursor[w]++;
            failed(out, local);
            int from = out.itemFrom(local);
            int to = out.itemEnd[local];
            int open = -1;
            for (int i = from; i < to; i++) {
                if (out.kind[i] == E_GROUP) {
                    if (open >= 0) {
                        groupTo[w][open] = i;
                    } else {
                        apply(w, out, from, i); // what came before the first group
                    }
                    open = out.slot[i];
                    grow(w, open);
                    groupStamp[w][open] = stamp;
                    groupFrom[w][open] = i + 1;
                }
            }
            if (open >= 0) {
                groupTo[w][open] = to;
            } else {
                apply(w, out, from, to);
            }
        }
        if (!end) {
            for (int i = 0; i < liveCount; i++) {
                group(c, liveShare[i], liveSlot[i]);
            }
            return;
        }
        while (liveCount > 0) {
            int w = liveShare[0];
            int slot = liveSlot[0];
            if (groupStamp[w][slot] != stamp) {
                throw new IllegalStateException("a connection live at the capture's end was not ended by its share");
            }
            group(c, w, slot);
            if (liveCount > 0 && liveShare[0] == w && liveSlot[0] == slot) {
                throw new IllegalStateException("a connection's end did not end it");
            }
        }
    }

    private void group(Chunk c, int w, int slot) {
        if (groupStamp[w][slot] == stamp) {
            groupStamp[w][slot] = 0;
            apply(w, c.out[w], groupFrom[w][slot], groupTo[w][slot]);
        }
    }

    private void apply(int w, Out out, int from, int to) {
        for (int i = from; i < to; i++) {
            int slot = out.slot[i];
            switch (out.kind[i]) {
                case E_RELEASE -> {
                    LogEntry e = out.entry[i];
                    e.client = clientOf[w][slot];
                    if (e.verb != VerbTable.OVERFLOW) {
                        e.verb = verbOf[w][e.verb];
                    }
                    if (readyCount == ready.length) {
                        ready = Arrays.copyOf(ready, readyCount * 2);
                    }
                    ready[readyCount++] = e;
                }
                case E_OPEN -> {
                    grow(w, slot);
                    clientOf[w][slot] = nextClient++;
                    if (liveCount == liveShare.length) {
                        liveShare = Arrays.copyOf(liveShare, liveCount * 2);
                        liveSlot = Arrays.copyOf(liveSlot, liveCount * 2);
                    }
                    liveIndexOf[w][slot] = liveCount;
                    liveShare[liveCount] = w;
                    liveSlot[liveCount++] = slot;
                }
                case E_END -> {
                    int at = liveIndexOf[w][slot];
                    if (at >= 0) {
                        int lastShare = liveShare[--liveCount];
                        int lastSlot = liveSlot[liveCount];
                        liveShare[at] = lastShare;
                        liveSlot[at] = lastSlot;
                        liveIndexOf[lastShare][lastSlot] = at;
                        liveIndexOf[w][slot] = -1;
                    }
                }
                case E_STATS -> ctx.stats.add((LogStats) out.ref[i]);
                case E_BAD -> ctx.bad.take((BadLines) out.ref[i]);
                case E_VERB -> {
                    byte[] name = ((String) out.ref[i]).getBytes(StandardCharsets.ISO_8859_1);
                    if (slot >= verbOf[w].length) {
                        verbOf[w] = Arrays.copyOf(verbOf[w], Math.max(slot + 1, verbOf[w].length * 2));
                    }
                    verbOf[w][slot] = ctx.verbs.id(name, 0, name.length);
                }
                case E_GROUP -> {
                    // only in a sweep or the end, taken apart by groups()
                }
                default -> throw new IllegalStateException("event " + out.kind[i]);
            }
        }
    }

    private void grow(int w, int slot) {
        if (slot < clientOf[w].length) {
            return;
        }
        int n = Math.max(slot + 1, clientOf[w].length * 2);
        clientOf[w] = Arrays.copyOf(clientOf[w], n);
        liveIndexOf[w] = Arrays.copyOf(liveIndexOf[w], n);
        groupStamp[w] = Arrays.copyOf(groupStamp[w], n);
        groupFrom[w] = Arrays.copyOf(groupFrom[w], n);
        groupTo[w] = Arrays.copyOf(groupTo[w], n);
    }

    private void await(Chunk c) throws IOException {
        if (closed) {
            throw new IOException("the capture's reader was closed");
        }
        merger = Thread.currentThread();
        mergerWaiting = true;
        try {
            if ((c.seq != expected || !c.done()) && expected < total) {
                LockSupport.parkNanos(PARK_NANOS);
            }
        } finally {
            mergerWaiting = false;
        }
    }

    private void wakeMerger() {
        if (mergerWaiting) {
            Thread m = merger;
            if (m != null) {
                LockSupport.unpark(m);
            }
        }
    }

    private void end() throws IOException {
        if (ended) {
            return;
        }
        ended = true;
        Throwable f = readFailure;
        if (f != null) {
            if (f instanceof IOException io) {
                throw io;
            }
            if (f instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(f);
        }
        input.reportEnd(ctx);
    }

    // ---- the file thread ----

    private void readFile() {
        long k = 0;
        Chunk c = null;
        long pos = 0;
        try {
            c = take(k);
            long first = Long.MIN_VALUE;
            long now = 0;
            long lastSweep = 0;
            while (c != null && file.next()) {
                long t = file.timeNanos();
                if (first == Long.MIN_VALUE) {
                    first = t;
                    lastSweep = t;
                }
                now = Math.max(now, t);
                pos = input.filePosition();
                int kind = PacketDecoder.decode(file.data(), file.dataOffset(), file.capturedLength(), file.linkType(), seg);
                if (kind == PacketDecoder.TCP) {
                    TcpSegment s = seg;
                    int h = CaptureReader.hash(s.srcHi, s.srcLo, s.srcPort) + CaptureReader.hash(s.dstHi, s.dstLo, s.dstPort);
                    int w = Math.floorMod(h ^ h >>> 16, threads);
                    c.add(w, c.in[w].segment(s, t, now, file.packetNumber(), pos, first));
                }
                if (now - lastSweep >= CaptureReader.SWEEP_NANOS) {
                    lastSweep = now;
                    c.addAll(SWEEP, now, pos, first);
                }
                if (c.full()) {
                    publish(c, k++, pos);
                    c = null;
                    c = take(k);
                }
            }
            if (c != null) {
                c.addAll(END, now, input.filePosition(), first);
                publish(c, k++, input.filePosition());
                c = null;
            }
            total = k;
        } catch (Throwable t) {
            if (c != null) {
                publish(c, k++, pos); // the packets before the failure are given out, as one reader gives them
            }
            readFailure = t;
            total = k;
        } finally {
            wakeMerger();
            for (Share s : shares) {
                LockSupport.unpark(s.thread);
            }
        }
    }

    /** The chunk slot of chunk {@code k}, once the merger has given out what it held; null when closed. */
    private Chunk take(long k) {
        Chunk c = chunks[(int) (k % chunks.length)];
        while (released <= k - chunks.length) {
            fileWaiting = true;
            try {
                if (closed) {
                    return null;
                }
                if (released <= k - chunks.length) {
                    LockSupport.parkNanos(PARK_NANOS);
                }
            } finally {
                fileWaiting = false;
            }
        }
        c.clear();
        return c;
    }

    private void publish(Chunk c, long k, long pos) {
        c.position = pos;
        c.packets = file.packetNumber();
        c.seq = k; // volatile: the shares and the merger see the chunk whole
        for (Share s : shares) {
            if (s.waiting) {
                LockSupport.unpark(s.thread);
            }
        }
    }

    // ---- a share ----

    /** A thread that reads the connections whose segments the file thread gives it. */
    private final class Share implements CaptureReader.Tap {
        final int index;
        final Thread thread;
        final CaptureReader reader;
        final LogStats stats = new LogStats();
        final BadLines bad = new BadLines(ctx.bad.strict());
        final VerbTable verbs;
        int verbsSeen;
        Out out;
        volatile boolean waiting;

        Share(int index, CaptureSelection selection, String snapReason) {
            this.index = index;
            ReaderContext own = ctx.share(stats, bad);
            this.verbs = own.verbs;
            this.reader = new CaptureReader(own, selection, snapReason, this);
            this.thread = new Thread(this::run, "capture-share-" + index);
            thread.setDaemon(true);
        }

        private void run() {
            for (long k = 0; ; k++) {
                Chunk c = chunks[(int) (k % chunks.length)];
                while (c.seq != k) {
                    if (closed || k >= total) {
                        return;
                    }
                    waiting = true;
                    try {
                        if (c.seq != k && !closed && k < total) {
                            LockSupport.parkNanos(PARK_NANOS);
                        }
                    } finally {
                        waiting = false;
                    }
                }
                In in = c.in[index];
                out = c.out[index];
                out.recycle(reader);
                out.ensureItems(in.count);
                int i = 0;
                try {
                    for (; i < in.count; i++) {
                        handle(in, i);
                        flush();
                        out.itemEnd[i] = out.count;
                    }
                } catch (Throwable t) {
                    out.failure = t;
                    out.failedAt = i;
                }
                out.done = true;
                wakeMerger();
                if (out.failure != null) {
                    return;
                }
            }
        }

        private void handle(In in, int i) {
            CaptureReader r = reader;
            r.now = in.now[i];
            r.packetPosition = in.position[i];
            r.firstPacketNanos = in.first[i];
            switch (in.kind[i]) {
                case SEGMENT -> {
                    in.fill(i, r.seg);
                    r.segment(in.time[i], in.packet[i]);
                }
                case SWEEP -> r.sweep();
                default -> r.endAll();
            }
        }

        /** Counters, bad lines and new verbs since the last call, as events. */
        private void flush() {
            if (stats.anySkippedOrAdjusted()) {
                LogStats moved = new LogStats();
                moved.add(stats);
                out.add(E_STATS, 0, null, moved);
            }
            if (bad.count() > 0) {
                BadLines moved = new BadLines(false);
                moved.take(bad);
                out.add(E_BAD, 0, null, moved);
            }
            int n = verbs.size();
            while (verbsSeen < n) {
                out.add(E_VERB, verbsSeen, null, verbs.name(verbsSeen));
                verbsSeen++;
            }
        }

        @Override
        public void opened(TcpConnection c) {
            flush();
            out.add(E_OPEN, c.slot, null, null);
        }

        @Override
        public void ended(TcpConnection c) {
            flush();
            out.add(E_END, c.slot, null, null);
        }

        @Override
        public void released(LogEntry e, TcpConnection c) {
            flush(); // a verb first read in this command is entered before it is given out
            out.add(E_RELEASE, c.slot, e, null);
        }

        @Override
        public void group(TcpConnection c) {
            flush();
            out.add(E_GROUP, c.slot, null, null);
        }
    }

    // ---- chunks ----

    /** A run of packets: each share's segments (and the sweeps and end every share gets), and what the shares made of them. */
    private static final class Chunk {
        volatile long seq = -1;
        final In[] in;
        final Out[] out;
        int items;
        /** Per item in packet order: the share that handles it, or -1 - kind for an item of every share. */
        int[] itemShare = new int[CHUNK_ITEMS + 2];
        long position;
        long packets;
        private int bytes;

        Chunk(int threads) {
            in = new In[threads];
            out = new Out[threads];
            for (int i = 0; i < threads; i++) {
                in[i] = new In();
                out[i] = new Out();
            }
        }

        void clear() {
            items = 0;
            bytes = 0;
            for (In i : in) {
                i.count = 0;
                i.used = 0;
            }
            for (Out o : out) {
                o.done = false;
            }
        }

        void add(int w, int payload) {
            if (items == itemShare.length) {
                itemShare = Arrays.copyOf(itemShare, items * 2);
            }
            itemShare[items++] = w;
            bytes += payload;
        }

        void addAll(byte kind, long now, long pos, long first) {
            if (items == itemShare.length) {
                itemShare = Arrays.copyOf(itemShare, items * 2);
            }
            itemShare[items++] = -1 - kind;
            for (In i : in) {
                i.mark(kind, now, pos, first);
            }
        }

        boolean full() {
            return items >= CHUNK_ITEMS || bytes >= CHUNK_BYTES;
        }

        boolean done() {
            for (Out o : out) {
                if (!o.done) {
                    return false;
                }
            }
            return true;
        }
    }

    /** One share's items of a chunk: segments with their payloads copied, sweeps and the end. */
    private static final class In {
        int count;
        byte[] kind = new byte[256];
        long[] time = new long[256];
        long[] now = new long[256];
        long[] packet = new long[256];
        long[] position = new long[256];
        long[] first = new long[256];
        long[] srcHi = new long[256];
        long[] srcLo = new long[256];
        long[] dstHi = new long[256];
        long[] dstLo = new long[256];
        int[] srcPort = new int[256];
        int[] dstPort = new int[256];
        int[] seq = new int[256];
        int[] ack = new int[256];
        int[] flags = new int[256];
        int[] from = new int[256];
        int[] length = new int[256];
        int[] missing = new int[256];
        byte[] bytes = new byte[1 << 16];
        int used;

        /** Adds {@code s}; returns its payload's length. */
        int segment(TcpSegment s, long t, long nowNanos, long packetNumber, long pos, long firstNanos) {
            int i = slot();
            kind[i] = SEGMENT;
            time[i] = t;
            now[i] = nowNanos;
            packet[i] = packetNumber;
            position[i] = pos;
            first[i] = firstNanos;
            srcHi[i] = s.srcHi;
            srcLo[i] = s.srcLo;
            dstHi[i] = s.dstHi;
            dstLo[i] = s.dstLo;
            srcPort[i] = s.srcPort;
            dstPort[i] = s.dstPort;
            seq[i] = s.seq;
            ack[i] = s.ack;
            flags[i] = s.flags;
            missing[i] = s.missing;
            int n = s.payloadLength;
            if (used + n > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(used + n, bytes.length * 2));
            }
            System.arraycopy(s.data, s.payloadOffset, bytes, used, n);
            from[i] = used;
            length[i] = n;
            used += n;
            return n;
        }

        void mark(byte k, long nowNanos, long pos, long firstNanos) {
            int i = slot();
            kind[i] = k;
            now[i] = nowNanos;
            position[i] = pos;
            first[i] = firstNanos;
        }

        void fill(int i, TcpSegment s) {
            s.srcHi = srcHi[i];
            s.srcLo = srcLo[i];
            s.dstHi = dstHi[i];
            s.dstLo = dstLo[i];
            s.srcPort = srcPort[i];
            s.dstPort = dstPort[i];
            s.seq = seq[i];
            s.ack = ack[i];
            s.flags = flags[i];
            s.missing = missing[i];
            s.data = bytes;
            s.payloadOffset = from[i];
            s.payloadLength = length[i];
        }

        private int slot() {
            if (count == kind.length) {
                int n = count * 2;
                kind = Arrays.copyOf(kind, n);
                time = Arrays.copyOf(time, n);
                now = Arrays.copyOf(now, n);
                packet = Arrays.copyOf(packet, n);
                position = Arrays.copyOf(position, n);
                first = Arrays.copyOf(first, n);
                srcHi = Arrays.copyOf(srcHi, n);
                srcLo = Arrays.copyOf(srcLo, n);
                dstHi = Arrays.copyOf(dstHi, n);
                dstLo = Arrays.copyOf(dstLo, n);
                srcPort = Arrays.copyOf(srcPort, n);
                dstPort = Arrays.copyOf(dstPort, n);
                seq = Arrays.copyOf(seq, n);
                ack = Arrays.copyOf(ack, n);
                flags = Arrays.copyOf(flags, n);
                from = Arrays.copyOf(from, n);
                length = Arrays.copyOf(length, n);
                missing = Arrays.copyOf(missing, n);
            }
            return count++;
        }
    }

    /** What one share made of its items of a chunk: events, and where each item's end. */
    private static final class Out {
        volatile boolean done;
        Throwable failure;
        int failedAt;
        int count;
        byte[] kind = new byte[1024];
        int[] slot = new int[1024];
        LogEntry[] entry = new LogEntry[1024];
        Object[] ref = new Object[1024];
        int[] itemEnd = new int[256];

        int itemFrom(int local) {
            return local == 0 ? 0 : itemEnd[local - 1];
        }

        void add(byte k, int s, LogEntry e, Object r) {
            if (count == kind.length) {
                int n = count * 2;
                kind = Arrays.copyOf(kind, n);
                slot = Arrays.copyOf(slot, n);
                entry = Arrays.copyOf(entry, n);
                ref = Arrays.copyOf(ref, n);
            }
            kind[count] = k;
            slot[count] = s;
            entry[count] = e;
            ref[count] = r;
            count++;
        }

        /** Hands the entries the merger has given out back to the share's reader, and empties the events. */
        void recycle(CaptureReader reader) {
            for (int i = 0; i < count; i++) {
                LogEntry e = entry[i];
                if (e != null) {
                    reader.recycle(e);
                    entry[i] = null;
                }
                ref[i] = null;
            }
            count = 0;
            failure = null;
        }

        void ensureItems(int n) {
            if (itemEnd.length < n) {
                itemEnd = Arrays.copyOf(itemEnd, Math.max(n, itemEnd.length * 2));
            }
        }
    }

    // ---- LogReader ----

    @Override
    public long position() {
        return position;
    }

    @Override
    public long size() {
        return input.fileSize();
    }

    @Override
    public long lines() {
        return lines;
    }

    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(fileThread);
        for (Share s : shares) {
            LockSupport.unpark(s.thread);
        }
        try {
            fileThread.join(10_000);
            for (Share s : shares) {
                s.thread.join(10_000);
            }
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
        }
        input.close();
    }
}
