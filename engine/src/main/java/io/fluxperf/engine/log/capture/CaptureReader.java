package io.fluxperf.engine.log.capture;

import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.log.LogInput;
import io.fluxperf.engine.log.LogReader;
import io.fluxperf.engine.log.ReaderContext;
import java.io.IOException;
import java.util.Arrays;
import java.util.Locale;

/**
 * A packet capture read as a command log: packets ({@link CaptureFile}) decoded to TCP segments
 * ({@link PacketDecoder}), each connection to a chosen server put back in order per direction
 * ({@link TcpStream}), the client's bytes read into commands and the server's into their original
 * replies by the server's protocol ({@link ConnectionReader}), and the commands released in each
 * client's order once their replies are known ({@link TcpConnection}).
 *
 * <p>Each captured connection is one original client ({@link LogEntry#client}, numbered in the
 * order the connections appear); a command's send time is the capture time of the packet that
 * holds its first byte. Streamed: memory is the file's read buffer, the connections that are open,
 * the commands waiting for their replies and each connection's reader; nothing is allocated per
 * packet or per command once those have grown to what the capture needs.
 *
 * <p>What cannot be given whole is counted and named: a command cut by the snap length or by a
 * gap (the report's skipped lines), a command the capture ends inside, a connection whose stream is
 * lost at a gap or at bytes that are not its protocol's, and a connection open before the capture
 * began whose first bytes are the end of an earlier command (bad lines, with the packet and the
 * time).
 */
public final class CaptureReader implements LogReader {
    /** An ended connection keeps its place this long (capture time), so that its last packets are not taken for a new one. */
    static final long ENDED_KEEP_NANOS = 30_000_000_000L;
    /** How often every connection's holes and waiting replies are checked, ns of capture time. */
    static final long SWEEP_NANOS = 100_000_000L;

    private final LogInput input;
    private final CaptureFile file;
    private final ReaderContext ctx;
    private final CaptureSelection selection;
    final TcpSegment seg = new TcpSegment();
    /** Of a thread's share of the connections ({@link CaptureSplitReader}): what it tells the merger; else null. */
    private final Tap tap;
    /** With a tap: the file position of the packet being handled, as the thread that reads the file saw it. */
    long packetPosition;
    private int connectionsMade;
    private final ConnectionReader[][] readerPool;
    private final int[] readerPoolSize;
    private final long[] commandsPerServer;

    // the flow table: connections by their endpoints, chained per bucket
    private TcpConnection[] buckets = new TcpConnection[1024];
    private int tableSize;
    private TcpConnection[] live = new TcpConnection[64];
    private int liveCount;
    private TcpConnection[] ended = new TcpConnection[64];
    private int endedHead;
    private int endedCount;
    private TcpConnection[] spareConnections = new TcpConnection[16];
    private int spareCount;
    private int nextClient;
    /** The connection of the last segment. */
    private TcpConnection last;

    // entries: the pool and the queue of released ones
    private LogEntry[] free = new LogEntry[64];
    private int freeCount;
    private LogEntry[] ready = new LogEntry[256];
    private int readyHead;
    private int readyCount;

    long firstPacketNanos = Long.MIN_VALUE;
    long now;
    private long lastSweep;
    private boolean finished;
    final String snapReason;
    private final String lossReason = "commands cut by packets the capture lacks (never sent half)";
    private static final String ENDED_INSIDE = "commands the capture ends inside (never sent half)";

    /**
     * @param selection the servers whose connections are read, each with its protocol's reading
     */
    public CaptureReader(LogInput input, ReaderContext ctx, CaptureSelection selection) {
        this.input = input;
        this.ctx = ctx;
        this.selection = selection;
        this.file = new CaptureFile(ctx.name, input.stream());
        this.tap = null;
        int servers = selection.servers().size();
        this.readerPool = new ConnectionReader[servers][8];
        this.readerPoolSize = new int[servers];
        this.commandsPerServer = new long[servers];
        this.snapReason = "commands cut by the capture's " + file.largestSnapLength() + "-byte snap length (never sent half)";
    }

    /**
     * The connections of one thread of a capture read by several ({@link CaptureSplitReader}): no file;
     * that thread gives it the segments of its connections ({@link #segment}), the sweeps and the end,
     * and {@code tap} hears what it opens, ends and releases.
     */
    CaptureReader(ReaderContext ctx, CaptureSelection selection, String snapReason, Tap tap) {
        this.input = null;
        this.file = null;
        this.ctx = ctx;
        this.selection = selection;
        this.tap = tap;
        int servers = selection.servers().size();
        this.readerPool = new ConnectionReader[servers][8];
        this.readerPoolSize = new int[servers];
        this.commandsPerServer = new long[servers];
        this.snapReason = snapReason;
    }

    /** What a thread's share of the connections tells the thread that puts the shares back in order. */
    interface Tap {
        /** {@code c} opened (its {@link TcpConnection#clientId} is its slot in this share). */
        void opened(TcpConnection c);

        /** {@code c} ended (after what its end released). */
        void ended(TcpConnection c);

        /** {@code c} released {@code e}. */
        void released(LogEntry e, TcpConnection c);

        /** What follows, up to the next call, is {@code c}'s part of a sweep or of the end of the capture. */
        void group(TcpConnection c);
    }
    /** Commands released per server, in the order of the selection's servers. */
    long[] commandsPerServer() {
        return commandsPerServer;
    }

    @Override
    public boolean next(LogEntry e) throws IOException {
        while (readyCount == 0) {
            if (finished) {
                input.reportEnd(ctx);
                return false;
            }
            if (!packet()) {
                endAll();
                finished = true;
            }
        }
        LogEntry r = ready[readyHead];
        ready[readyHead] = null;
        readyHead = (readyHead + 1) & (ready.length - 1);
        readyCount--;
        moveTo(r, e);
        recycle(r);
        return true;
    }

    /** Reads and handles one packet; false at the end of the file. */
    private boolean packet() throws IOException {
        if (!file.next()) {
            return false;
        }
        long t = file.timeNanos();
        if (firstPacketNanos == Long.MIN_VALUE) {
            firstPacketNanos = t;
            lastSweep = t;
        }
        now = Math.max(now, t);
        int kind = PacketDecoder.decode(file.data(), file.dataOffset(), file.capturedLength(), file.linkType(), seg);
        if (kind == PacketDecoder.TCP) {
            segment(t, file.packetNumber());
        }
        if (now - lastSweep >= SWEEP_NANOS) {
            lastSweep = now;
            sweep();
        }
        return true;
    }

    void segment(long time, long packet) {
        TcpSegment s = seg;
        int h = hash(s.srcHi, s.srcLo, s.srcPort) + hash(s.dstHi, s.dstLo, s.dstPort);
        // a request and its reply come one after the other: the last connection first
        TcpConnection c = last != null && last.inTable && (last.matches(s.srcHi, s.srcLo, s.srcPort, s.dstHi, s.dstLo, s.dstPort)
                || last.matches(s.dstHi, s.dstLo, s.dstPort, s.srcHi, s.srcLo, s.srcPort)) ? last : lookup(h, s);
        boolean toServer;
        if (c != null) {
            toServer = c.matches(s.srcHi, s.srcLo, s.srcPort, s.dstHi, s.dstLo, s.dstPort);
            boolean opening = toServer && s.has(TcpSegment.SYN) && !s.has(TcpSegment.ACK);
            if (c.endedAt >= 0) {
                if (!opening) {
                    return; // the last packets of an ended connection
                }
                remove(c, h); // the client reuses the port: a new connection
                c = null;
            } else if (opening && c.requests.fromStart && c.requests.isn != s.seq) {
                // a new connection on the same ports while the capture never saw the old one end
                end(c);
                remove(c, h);
                c = null;
            }
        } else {
            toServer = false;
        }
        if (c == null) {
            int server = selection.indexOf(s.dstHi, s.dstLo, s.dstPort);
            toServer = server >= 0;
            if (!toServer) {
                server = selection.indexOf(s.srcHi, s.srcLo, s.srcPort);
                if (server < 0) {
                    return;
                }
            }
            if (!s.has(TcpSegment.SYN) && s.wireLength() == 0) {
                return; // an acknowledgement or a FIN of a connection the capture did not see open
            }
            c = open(h, server, toServer);
        }
        last = c;
        TcpStream stream = toServer ? c.requests : c.replies;
        TcpStream other = toServer ? c.replies : c.requests;
        int seq = s.seq;
        if (s.has(TcpSegment.SYN)) {
            stream.syn(seq);
            seq++;
            if (s.has(TcpSegment.ACK) && !other.started) {
                other.syn(s.ack - 1); // a SYN-ACK tells where the other side's bytes start
            }
        }
        if (s.has(TcpSegment.ACK)) {
            other.acknowledged(s.ack, time);
        }
        stream.segment(seq, s.data, s.payloadOffset, s.payloadLength, s.missing, time, packet);
        if (s.has(TcpSegment.FIN)) {
            stream.fin(seq + s.wireLength());
        }
        c.expire(now);
        if (s.has(TcpSegment.RST) || stream.finished() && other.finished()) {
            end(c);
        }
    }

    private TcpConnection lookup(int h, TcpSegment s) {
        for (TcpConnection c = buckets[h & (buckets.length - 1)]; c != null; c = c.nextInBucket) {
            if (c.matches(s.srcHi, s.srcLo, s.srcPort, s.dstHi, s.dstLo, s.dstPort)
                    || c.matches(s.dstHi, s.dstLo, s.dstPort, s.srcHi, s.srcLo, s.srcPort)) {
                return c;
            }
        }
        return null;
    }

    private TcpConnection open(int h, int server, boolean toServer) {
        TcpSegment s = seg;
        TcpConnection c = spareCount > 0 ? spareConnections[--spareCount] : newConnection();
        ConnectionReader r = readerPoolSize[server] > 0 ? readerPool[server][--readerPoolSize[server]]
                : selection.protocols().get(server).newReader(ctx);
        c.open(toServer ? s.srcHi : s.dstHi, toServer ? s.srcLo : s.dstLo, toServer ? s.srcPort : s.dstPort,
                toServer ? s.dstHi : s.srcHi, toServer ? s.dstLo : s.srcLo, toServer ? s.dstPort : s.srcPort,
                tap == null ? nextClient++ : c.slot, selection.protocols().get(server), r);
        c.serverIndex = server;
        if (tableSize >= buckets.length) {
            rehash();
        }
        int b = h & (buckets.length - 1);
        c.nextInBucket = buckets[b];
        buckets[b] = c;
        tableSize++;
        if (liveCount == live.length) {
            live = Arrays.copyOf(live, liveCount * 2);
        }
        c.liveIndex = liveCount;
        live[liveCount++] = c;
        if (tap != null) {
            tap.opened(c);
        }
        return c;
    }

    private TcpConnection newConnection() {
        TcpConnection c = new TcpConnection(this);
        c.slot = connectionsMade++;
        return c;
    }

    private void rehash() {
        TcpConnection[] old = buckets;
        buckets = new TcpConnection[old.length * 2];
        for (TcpConnection head : old) {
            TcpConnection c = head;
            while (c != null) {
                TcpConnection next = c.nextInBucket;
                int b = (hash(c.clientHi, c.clientLo, c.clientPort) + hash(c.serverHi, c.serverLo, c.serverPort))
                        & (buckets.length - 1);
                c.nextInBucket = buckets[b];
                buckets[b] = c;
                c = next;
            }
        }
    }

    private void remove(TcpConnection c, int h) {
        int b = h & (buckets.length - 1);
        TcpConnection prev = null;
        for (TcpConnection x = buckets[b]; x != null; prev = x, x = x.nextInBucket) {
            if (x == c) {
                if (prev == null) {
                    buckets[b] = x.nextInBucket;
                } else {
                    prev.nextInBucket = x.nextInBucket;
                }
                tableSize--;
                c.inTable = false;
                return;
            }
        }
    }

    private void end(TcpConnection c) {
        c.end(now);
        if (c.liveIndex >= 0) {
            TcpConnection last = live[--liveCount];
            live[c.liveIndex] = last;
            last.liveIndex = c.liveIndex;
            live[liveCount] = null;
            c.liveIndex = -1;
        }
        if (endedCount == ended.length) {
            TcpConnection[] grown = new TcpConnection[ended.length * 2];
            for (int i = 0; i < endedCount; i++) {
                grown[i] = ended[(endedHead + i) & (ended.length - 1)];
            }
            ended = grown;
            endedHead = 0;
        }
        ended[(endedHead + endedCount) & (ended.length - 1)] = c;
        endedCount++;
        if (tap != null) {
            tap.ended(c);
        }
    }

    /** Expires what waited too long on every live connection, and forgets connections ended long ago. */
    void sweep() {
        for (int i = 0; i < liveCount; i++) {
            TcpConnection c = live[i];
            if (c.waiting()) {
                if (tap != null) {
                    tap.group(c);
                }
                c.expire(now);
            }
        }
        while (endedCount > 0) {
            TcpConnection c = ended[endedHead];
            if (now - c.endedAt < ENDED_KEEP_NANOS) {
                break;
            }
            ended[endedHead] = null;
            endedHead = (endedHead + 1) & (ended.length - 1);
            endedCount--;
            if (c.inTable) {
                remove(c, hash(c.clientHi, c.clientLo, c.clientPort) + hash(c.serverHi, c.serverLo, c.serverPort));
            }
            int server = c.serverIndex;
            if (readerPoolSize[server] == readerPool[server].length) {
                readerPool[server] = Arrays.copyOf(readerPool[server], readerPoolSize[server] * 2);
            }
            readerPool[server][readerPoolSize[server]++] = c.reader;
            c.reader = null;
            if (spareCount == spareConnections.length) {
                spareConnections = Arrays.copyOf(spareConnections, spareCount * 2);
            }
            spareConnections[spareCount++] = c;
        }
    }

    /** The end of the capture: every connection still open ends where the capture does. */
    void endAll() {
        while (liveCount > 0) {
            if (tap != null) {
                tap.group(live[0]);
            }
            end(live[0]);
        }
    }

    /** An endpoint's hash; a connection's is the sum of its two, the same in both directions. */
    static int hash(long hi, long lo, int port) {
        long x = (hi ^ lo ^ (long) port << 40) * 0x9E3779B97F4A7C15L;
        return (int) (x ^ x >>> 32);
    }

    // ---- what connections report ----

    LogEntry entry() {
        LogEntry e = freeCount > 0 ? free[--freeCount] : new LogEntry();
        e.reset();
        return e;
    }

    void recycle(LogEntry e) {
        if (freeCount == free.length) {
            free = Arrays.copyOf(free, freeCount * 2);
        }
        free[freeCount++] = e;
    }

    long filePosition() {
        return input == null ? packetPosition : input.filePosition();
    }

    /** A command whose reply is known (or will not be), released in its client's order. */
    void release(LogEntry e, TcpConnection c) {
        commandsPerServer[c.serverIndex]++;
        if (tap != null) {
            tap.released(e, c);
            return;
        }
        if (readyCount == ready.length) {
            LogEntry[] grown = new LogEntry[ready.length * 2];
            for (int i = 0; i < readyCount; i++) {
                grown[i] = ready[(readyHead + i) & (ready.length - 1)];
            }
            ready = grown;
            readyHead = 0;
        }
        ready[(readyHead + readyCount) & (ready.length - 1)] = e;
        readyCount++;
    }

    void skipped(String reason) {
        ctx.stats.skip(reason);
    }

    void cut(boolean snap) {
        ctx.stats.skip(snap ? snapReason : lossReason);
    }

    void endedInside() {
        ctx.stats.skip(ENDED_INSIDE);
    }

    void pickedUp(TcpConnection c, long bytesBefore, long time, long packet) {
        if (bytesBefore == 0) {
            ctx.stats.adjust("connections open before the capture began, picked up at their first command");
            return;
        }
        ctx.bad.add(place(packet), String.format(Locale.ROOT, "connection %s: open before the capture began; its first %,d"
                + " bytes (the rest of a command sent before) not replayed, picked up at %.3f s", c.client(), bytesBefore,
                seconds(time)));
    }

    /**
     * A connection whose client stream was lost: {@code answered} commands were answered after the
     * loss (-1 when its replies were lost too), {@code bytesAfter} bytes of its stream were not read.
     */
    void lost(TcpConnection c, String what, long at, long packet, long answered, long bytesAfter) {
        String rest = answered >= 0
                ? String.format(Locale.ROOT, "%,d command%s not replayed", answered, answered == 1 ? "" : "s")
                : String.format(Locale.ROOT, "its last %,d bytes not replayed (its replies are lost too: the commands"
                + " in them cannot be counted)", bytesAfter);
        ctx.bad.add(place(packet), String.format(Locale.ROOT, "connection %s: %s at %.3f s, %s", c.client(), what,
                seconds(at), rest));
    }

    private String place(long packet) {
        return ctx.name + ", packet " + String.format(Locale.ROOT, "%,d", packet);
    }

    private double seconds(long time) {
        return firstPacketNanos == Long.MIN_VALUE ? 0 : (time - firstPacketNanos) / 1e9;
    }

    /** Moves {@code from}'s command into {@code to}: fields copied, buffers swapped (nothing allocated). */
    static void moveTo(LogEntry from, LogEntry to) {
        to.sortKey = from.sortKey;
        to.timeNanos = from.timeNanos;
        to.line = from.line;
        to.position = from.position;
        to.client = from.client;
        to.verb = from.verb;
        to.command(from.command);
        to.ttlSeconds = from.ttlSeconds;
        to.numeric = from.numeric;
        to.keyCount = from.keyCount;
        to.argCount = from.argCount;
        to.valueArg = from.valueArg;
        to.valueLength = from.valueLength;
        to.valueLogged = from.valueLogged;
        to.synthSize = from.synthSize;
        to.originalReply = from.originalReply;
        byte[] keys = to.keys;
        to.keys = from.keys;
        from.keys = keys;
        int[] keyEnds = to.keyEnds;
        to.keyEnds = from.keyEnds;
        from.keyEnds = keyEnds;
        byte[] args = to.args;
        to.args = from.args;
        from.args = args;
        int[] argEnds = to.argEnds;
        to.argEnds = from.argEnds;
        from.argEnds = argEnds;
        byte[] value = to.value;
        to.value = from.value;
        from.value = value;
    }

    // ---- LogReader ----

    @Override
    public long position() {
        return input.filePosition();
    }

    @Override
    public long size() {
        return input.fileSize();
    }

    @Override
    public long lines() {
        return file.packetNumber();
    }

    @Override
    public void close() {
        input.close();
    }
}
