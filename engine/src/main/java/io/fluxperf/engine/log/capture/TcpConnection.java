package io.fluxperf.engine.log.capture;

import io.fluxperf.engine.log.LogEntry;
import java.util.Arrays;

/**
 * One captured connection to a replayed server: its two {@link TcpStream}s, its protocol's
 * {@link ConnectionReader}, and the commands read but not yet released, each waiting for its
 * original reply. Commands are released in the order the client sent them, as soon as every one
 * before them is settled, to the reader's queue; a command whose reply does not come within
 * {@link #REPLY_WAIT_NANOS} of capture time (a blocking command, a lost reply) or that has more than
 * {@link #MAX_PENDING} after it waiting is released with its reply unknown.
 *
 * <p>Reused: the capture recycles a connection object (and its reader) for a later connection.
 */
final class TcpConnection implements CommandSink, TcpStream.Receiver {
    static final long REPLY_WAIT_NANOS = 5_000_000_000L;
    static final int MAX_PENDING = 4096;

    private final CaptureReader owner;
    final TcpStream requests = new TcpStream(this);
    final TcpStream replies = new TcpStream(this);

    // identity: client and server endpoints
    long clientHi;
    long clientLo;
    int clientPort;
    long serverHi;
    long serverLo;
    int serverPort;
    int clientId;
    /** The object's number in its reader, for ever (a thread's share of a capture names its connections by it). */
    int slot;
    CaptureProtocol protocol;
    ConnectionReader reader;
    /** The next connection in the same bucket of the flow table. */
    TcpConnection nextInBucket;
    /** The server's place in the selection. */
    int serverIndex;
    /** In the flow table. */
    boolean inTable;
    /** Where the connection is in the reader's list of live connections, or -1. */
    int liveIndex = -1;
    /** Capture time it ended at (FIN both ways, RST, eviction); -1 while it lasts. */
    long endedAt = -1;

    private boolean readerReady;
    private boolean requestsLost;
    private boolean repliesLost;
    /** Bytes of the client's stream after its loss (what a lost stream did not replay). */
    private long bytesAfterLoss;
    private long unreadAnswered;
    private String lossWhat;
    private long lossPacket;
    private long lossAtNanos;

    // what is being delivered now
    private long chunkTime;
    private long chunkPacket;
    private long gapBytes;
    private boolean inSnapGap;
    // the command begun
    private LogEntry begun;
    private boolean begunSnapCut;
    private boolean begunLossCut;

    // server bytes that wait for the client's stream to catch up
    static final int MAX_DEFERRED = 4 << 20;
    private byte[] deferred = new byte[0];
    private int deferredLength;
    private long[] deferredSizes = new long[8];
    private int deferredParts;

    // commands waiting for their reply, in order
    private LogEntry[] pending = new LogEntry[16];
    private long[] pendingHandle = new long[16];
    private boolean[] pendingSettled = new boolean[16];
    private int pendingHead;
    private int pendingCount;
    private long nextHandle;

    TcpConnection(CaptureReader owner) {
        this.owner = owner;
    }

    /** Readies the object for a new connection. */
    void open(long cHi, long cLo, int cPort, long sHi, long sLo, int sPort, int client, CaptureProtocol p,
              ConnectionReader r) {
        clientHi = cHi;
        clientLo = cLo;
        clientPort = cPort;
        serverHi = sHi;
        serverLo = sLo;
        serverPort = sPort;
        clientId = client;
        protocol = p;
        reader = r;
        requests.reset();
        replies.reset();
        nextInBucket = null;
        inTable = true;
        endedAt = -1;
        readerReady = false;
        requestsLost = false;
        repliesLost = false;
        bytesAfterLoss = 0;
        unreadAnswered = 0;
        lossWhat = null;
        begun = null;
        pendingHead = 0;
        pendingCount = 0;
        nextHandle = 0;
        deferredLength = 0;
        deferredParts = 0;
    }

    boolean matches(long aHi, long aLo, int aPort, long bHi, long bLo, int bPort) {
        return aPort == clientPort && bPort == serverPort && aLo == clientLo && bLo == serverLo && aHi == clientHi
                && bHi == serverHi;
    }

    Endpoint client() {
        return new Endpoint(clientHi, clientLo, clientPort);
    }

    Endpoint server() {
        return new Endpoint(serverHi, serverLo, serverPort);
    }

    private void ready() {
        if (!readerReady) {
            readerReady = true;
            reader.reset(requests.fromStart);
            if (!requests.fromStart) {
                // replies to commands sent before the capture began cannot be told from later ones
                repliesLost = true;
            }
        }
    }

    // ---- the streams deliver ----

    @Override
    public void data(TcpStream stream, byte[] b, int from, int to, long timeNanos, long packet) {
        ready();
        chunkTime = timeNanos;
        chunkPacket = packet;
        if (stream == requests) {
            if (requestsLost) {
                bytesAfterLoss += to - from;
                return;
            }
            inSnapGap = false;
            reader.request(b, from, to, this);
        } else if (!repliesLost) {
            if (requests.hasHole() || deferredParts > 0) {
                defer(b, from, to, 0);
            } else {
                reader.reply(b, from, to, this);
            }
        }
    }

    /**
     * Keeps server bytes that came while the client's stream waits for a hole to be filled: they
     * answer commands the reader has not been given yet, so they are read once it has.
     */
    private void defer(byte[] b, int from, int to, long gap) {
        int n = to - from;
        if (deferredLength + n > deferred.length) {
            deferred = Arrays.copyOf(deferred, Math.max(deferredLength + n, deferred.length * 2));
        }
        if (n > 0) {
            System.arraycopy(b, from, deferred, deferredLength, n);
        }
        if (deferredParts == deferredSizes.length) {
            deferredSizes = Arrays.copyOf(deferredSizes, deferredParts * 2);
        }
        // a part is either bytes (a positive size) or a gap (its size negated)
        deferredSizes[deferredParts++] = gap > 0 ? -gap : n;
        deferredLength += n;
        if (deferredLength > MAX_DEFERRED) {
            requests.declareHole(chunkTime); // so many replies to bytes the capture lacks: they will not come
        }
    }

    /** Reads the deferred server bytes once the client's stream has no hole before them. */
    void readDeferred() {
        if (deferredParts == 0 || requests.hasHole()) {
            return;
        }
        int at = 0;
        int parts = deferredParts;
        deferredParts = 0;
        for (int i = 0; i < parts && !repliesLost; i++) {
            long size = deferredSizes[i];
            if (size < 0) {
                reader.replyGap(-size, this);
            } else {
                reader.reply(deferred, at, at + (int) size, this);
                at += (int) size;
            }
        }
        deferredLength = 0;
    }

    @Override
    public void gap(TcpStream stream, long n, boolean snap, long timeNanos, long packet) {
        ready();
        chunkTime = timeNanos;
        if (packet >= 0) {
            chunkPacket = packet;
        }
        if (stream == requests) {
            if (requestsLost) {
                bytesAfterLoss += n;
                return;
            }
            gapBytes = n;
            inSnapGap = snap;
            if (begun != null) {
                if (snap) {
                    begunSnapCut = true;
                } else {
                    begunLossCut = true;
                }
            }
            reader.requestGap(n, this);
        } else if (!repliesLost) {
            if (requests.hasHole() || deferredParts > 0) {
                defer(null, 0, 0, n);
            } else {
                reader.replyGap(n, this);
            }
        }
    }

    // ---- the protocol's reader reports ----

    @Override
    public LogEntry begin() {
        if (begun != null) {
            owner.recycle(begun);
        }
        LogEntry e = owner.entry();
        e.timeNanos = chunkTime;
        e.sortKey = chunkTime;
        e.line = chunkPacket;
        e.position = owner.filePosition();
        e.client = clientId;
        begun = e;
        begunSnapCut = false;
        begunLossCut = false;
        return e;
    }

    @Override
    public long complete() {
        LogEntry e = begun;
        begun = null;
        long handle = nextHandle++;
        if (e == null) {
            return handle;
        }
        if (pendingCount == pending.length) {
            growPending();
        }
        int slot = (pendingHead + pendingCount) & (pending.length - 1);
        pending[slot] = e;
        pendingHandle[slot] = handle;
        pendingSettled[slot] = false;
        pendingCount++;
        if (repliesLost) {
            settle(handle, LogEntry.REPLY_UNKNOWN);
        } else if (pendingCount > MAX_PENDING) {
            settleOldest();
        }
        return handle;
    }

    @Override
    public void abandon() {
        drop();
    }

    @Override
    public long skip(String reason) {
        drop();
        owner.skipped(reason);
        return nextHandle++;
    }

    @Override
    public long cut() {
        boolean snap = begunSnapCut || !begunLossCut && inSnapGap;
        drop();
        owner.cut(snap);
        return nextHandle++;
    }

    private void drop() {
        if (begun != null) {
            owner.recycle(begun);
            begun = null;
        }
    }

    @Override
    public void settle(long handle, byte reply) {
        if (pendingCount == 0) {
            return;
        }
        int mask = pending.length - 1;
        long first = pendingHandle[pendingHead];
        if (handle < first) {
            return;
        }
        // handles are increasing; most replies settle the oldest command
        for (int i = 0; i < pendingCount; i++) {
            int slot = (pendingHead + i) & mask;
            long h = pendingHandle[slot];
            if (h == handle) {
                if (!pendingSettled[slot]) {
                    pendingSettled[slot] = true;
                    pending[slot].originalReply = reply;
                }
                break;
            }
            if (h > handle) {
                return;
            }
        }
        releaseSettled();
    }

    private void releaseSettled() {
        int mask = pending.length - 1;
        while (pendingCount > 0 && pendingSettled[pendingHead]) {
            LogEntry e = pending[pendingHead];
            pending[pendingHead] = null;
            pendingHead = (pendingHead + 1) & mask;
            pendingCount--;
            owner.release(e, this);
        }
    }

    private void settleOldest() {
        int mask = pending.length - 1;
        for (int i = 0; i < pendingCount; i++) {
            int slot = (pendingHead + i) & mask;
            if (!pendingSettled[slot]) {
                pendingSettled[slot] = true;
                break;
            }
        }
        releaseSettled();
    }

    private void growPending() {
        int n = pending.length * 2;
        LogEntry[] p = new LogEntry[n];
        long[] h = new long[n];
        boolean[] s = new boolean[n];
        for (int i = 0; i < pendingCount; i++) {
            int slot = (pendingHead + i) & (pending.length - 1);
            p[i] = pending[slot];
            h[i] = pendingHandle[slot];
            s[i] = pendingSettled[slot];
        }
        pending = p;
        pendingHandle = h;
        pendingSettled = s;
        pendingHead = 0;
    }

    @Override
    public void requestsLost(String why) {
        if (requestsLost) {
            return;
        }
        drop();
        requestsLost = true;
        lossAtNanos = chunkTime;
        lossPacket = chunkPacket;
        lossWhat = why != null ? why : String.format(java.util.Locale.ROOT, "%,d bytes missing", gapBytes);
        if (why == null) {
            bytesAfterLoss += gapBytes;
        }
    }

    @Override
    public void repliesLost() {
        if (repliesLost) {
            return;
        }
        repliesLost = true;
        int mask = pending.length - 1;
        for (int i = 0; i < pendingCount; i++) {
            pendingSettled[(pendingHead + i) & mask] = true;
        }
        releaseSettled();
    }

    @Override
    public void unreadCommandAnswered() {
        unreadAnswered++;
    }

    @Override
    public void pickedUp(long bytesBefore) {
        owner.pickedUp(this, bytesBefore, chunkTime, chunkPacket);
    }

    // ---- time and the end ----

    /** Expires holes and replies waited for too long, at capture time {@code now}. */
    void expire(long now) {
        requests.expireHole(now);
        replies.expireHole(now);
        readDeferred();
        while (pendingCount > 0) {
            int slot = pendingHead;
            if (!pendingSettled[slot] && now - pending[slot].timeNanos < REPLY_WAIT_NANOS) {
                break;
            }
            pendingSettled[slot] = true;
            releaseSettled();
        }
    }

    boolean waiting() {
        return pendingCount > 0 || requests.hasHole() || replies.hasHole() || deferredParts > 0;
    }

    /**
     * The connection ends (or the capture does): holes become gaps, a command the stream ends inside
     * is counted, every command still waiting is released with what is known of its reply, and a
     * lost stream is named.
     */
    void end(long now) {
        if (endedAt >= 0) {
            return;
        }
        requests.flush(now);
        readDeferred();
        replies.flush(now);
        if (begun != null) {
            drop();
            if (!requestsLost) {
                owner.endedInside();
            }
        }
        boolean answersCounted = !repliesLost;
        repliesLost();
        if (requestsLost) {
            owner.lost(this, lossWhat, lossAtNanos, lossPacket, answersCounted ? unreadAnswered : -1, bytesAfterLoss);
        }
        endedAt = now;
    }
}
