package io.fluxperf.engine.load;

import io.fluxperf.engine.protocol.HandshakeRefused;
import io.fluxperf.engine.protocol.ProtocolCodec;
import io.fluxperf.engine.protocol.ProtocolException;
import io.fluxperf.engine.request.Outcome;
import io.fluxperf.engine.request.Request;
import io.netty.buffer.ByteBuf;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

/**
 * One connection slot to the target and the requests in flight on it; it outlives the wires
 * (channels or bare sockets) it reconnects with. Lives on its driver's event loop.
 *
 * <p>Replies are matched to requests by order. When that order can no longer be trusted — a
 * reply that cannot belong to the oldest request, bytes that answer nothing, a timeout — the
 * wire is closed, its other requests end as CLOSED and the driver reconnects: a late reply is
 * never attributed to a later request.
 */
final class TargetConnection implements ConnectionSlot, WireListener {
    private final LoadDriver driver;
    private final int id;
    private final InFlight inFlight;
    private ProtocolCodec codec;
    private Wire wire;
    /** The wire is being closed by us: ignore what it still delivers. */
    private boolean abandoned;
    private boolean shuttingDown;
    private ByteBuf outgoing;
    private boolean dirty;
    /** Connect per request (mcb's -s, dperf's CPS): one request per wire, closed after its reply. */
    private final boolean oneRequestPerChannel;
    private boolean usedOnce;
    /** This wire has decoded a reply (the first resets the driver's reconnect backoff). */
    private boolean replied;
    /** Handshake replies (AUTH, SELECT, HELLO) are still awaited: no load yet. */
    private boolean handshaking;
    /** A connect is under way or its handshake is: the driver hears once whether the wire became ready. */
    private boolean awaitingReady;
    private long connectStartedNanos;
    /** The first connect's caller ({@link #open}), told once the wire is ready (true) or failed (false); then null. */
    private CompletableFuture<Boolean> opening;
    /** Made once: a connection per request reconnects thousands of times a second. */
    private final BiConsumer<Wire, Throwable> connectDone;

    TargetConnection(LoadDriver driver, int id, int pipeline, boolean oneRequestPerChannel) {
        this.oneRequestPerChannel = oneRequestPerChannel;
        this.driver = driver;
        this.id = id;
        this.inFlight = new InFlight(pipeline);
        this.connectDone = (w, error) -> driver.connectDone(this, w, error);
    }

    @Override
    public int id() {
        return id;
    }

    @Override
    public CompletableFuture<Boolean> open() {
        CompletableFuture<Boolean> opened = new CompletableFuture<>();
        driver.connect(this, opened);
        return opened;
    }

    /** A connect starts (on the loop); {@code opened}, if not null, hears how it ends. */
    void connecting(long startedNanos, CompletableFuture<Boolean> opened) {
        connectStartedNanos = startedNanos;
        awaitingReady = true;
        if (opened != null) {
            opening = opened;
        }
    }

    /** What the transport calls with the new wire or the failure. */
    BiConsumer<Wire, Throwable> connectDone() {
        return connectDone;
    }

    long connectStartedNanos() {
        return connectStartedNanos;
    }

    /**
     * The codec of the last wire, if it can start afresh on the next one (connect per request
     * keeps one per slot this way); otherwise null.
     */
    ProtocolCodec reusableCodec() {
        return codec != null && codec.resetForNewConnection() ? codec : null;
    }

    /** Takes a new wire to the target; what arrives on it comes to {@link #received} and the like. */
    void attach(Wire newWire, ProtocolCodec newCodec) {
        this.wire = newWire;
        this.codec = newCodec;
        this.abandoned = false;
        this.usedOnce = false;
        this.replied = false;
    }

    /** The connect failed, or its wire came too late for the run: the wire never became ready. */
    void connectFailed() {
        becomeReady(false);
    }

    /** Sends the protocol's handshake, if it has one; the connection is ready once its replies are in. */
    void startHandshake() {
        if (!codec.hasHandshake()) {
            becomeReady(true);
            return;
        }
        ByteBuf out = wire.buffer(128);
        if (codec.writeHandshake(out)) {
            handshaking = true;
            wire.write(out);
        } else {
            out.release();
            becomeReady(true);
        }
    }

    private void becomeReady(boolean ok) {
        if (!awaitingReady) {
            return;
        }
        awaitingReady = false;
        if (ok) {
            driver.connected(this);
        }
        CompletableFuture<Boolean> o = opening;
        if (o != null) {
            opening = null;
            o.complete(ok);
        }
    }

    @Override
    public boolean isOpen() {
        return wire != null && !abandoned && wire.isActive();
    }

    @Override
    public boolean canSend() {
        return !handshaking && !inFlight.isFull() && isOpen() && !(oneRequestPerChannel && usedOnce)
                && !codec.closesConnection();
    }

    @Override
    public int inFlightCount() {
        return inFlight.size();
    }

    Request oldest() {
        return inFlight.peek();
    }

    /** Encodes the request into this batch's buffer and returns its size; {@link #flush()} writes the batch. */
    @Override
    public int send(Request r, long nowNanos) {
        if (outgoing == null) {
            outgoing = wire.buffer(256);
        }
        int before = outgoing.writerIndex();
        codec.encode(r, outgoing);
        int bytes = outgoing.writerIndex() - before;
        r.sentNanos(nowNanos).sentOn(id, bytes);
        usedOnce = true;
        inFlight.add(r);
        dirty = true;
        return bytes;
    }

    /** Writes and flushes what this batch encoded: one write, one flush, one syscall per batch. */
    @Override
    public void flush() {
        if (!dirty) {
            return;
        }
        dirty = false;
        ByteBuf batch = outgoing;
        outgoing = null;
        if (isOpen()) {
            wire.write(batch);
        } else {
            batch.release();
        }
    }

    /**
     * When the oldest request timed out, order can no longer be trusted: it ends as a timeout,
     * the wire goes, and the requests behind it end as CLOSED.
     */
    @Override
    public void expire(long nowNanos, long timeoutNanos) {
        Request head = inFlight.peek();
        if (head == null || nowNanos - head.sentNanos() <= timeoutNanos) {
            return;
        }
        inFlight.poll();
        driver.complete(head, Outcome.TIMEOUT, nowNanos, 0);
        abandon(null);
    }

    /** Closes at the end of the run; not counted as a close or a failure. */
    @Override
    public void shutdown() {
        shuttingDown = true;
        if (wire != null) {
            wire.close();
        }
    }

    @Override
    public boolean isShuttingDown() {
        return shuttingDown;
    }

    private void abandon(String reason) {
        if (reason != null) {
            driver.noteProtocolError(reason);
        }
        abandoned = true;
        failInFlight(Outcome.CLOSED);
        if (wire != null) {
            wire.close();
        }
    }

    private void failInFlight(Outcome outcome) {
        long now = System.nanoTime();
        Request r;
        while ((r = inFlight.poll()) != null) {
            driver.complete(r, outcome, now, 0);
        }
        if (outgoing != null) {
            outgoing.release();
            outgoing = null;
        }
        dirty = false;
    }

    private void decodeReplies(ByteBuf in) {
        if (handshaking && !decodeHandshake(in)) {
            return;
        }
        long now = System.nanoTime();
        while (in.isReadable()) {
            Request head = inFlight.peek();
            if (head == null) {
                int stray = in.readableBytes();
                in.skipBytes(stray);
                abandon("the server sent " + stray + " bytes that answer no request");
                return;
            }
            int start = in.readerIndex();
            int result;
            try {
                result = codec.decode(in, head);
            } catch (ProtocolException e) {
                inFlight.poll();
                int garbage = in.readableBytes();
                in.skipBytes(garbage);
                driver.complete(head, Outcome.ERROR, now, garbage);
                abandon(e.getMessage());
                return;
            }
            if (result == ProtocolCodec.NEED_MORE) {
                return;
            }
            inFlight.poll();
            int replyClass = codec.replyClass();
            if (replyClass > 0) {
                driver.replyClass(head, replyClass);
            }
            driver.complete(head, Outcome.of(result), now, in.readerIndex() - start);
            if (!replied) {
                replied = true;
                driver.replied(this);
            }
            if (codec.closesConnection()) {
                // the server closes after this reply: what was pipelined behind it ends as CLOSED
                failInFlight(Outcome.CLOSED);
                in.skipBytes(in.readableBytes());
                wire.close();
                return;
            }
            if (oneRequestPerChannel && inFlight.isEmpty()) {
                wire.close(); // its one request is answered; the driver connects anew
                return;
            }
        }
    }

    /** Returns true when the handshake is over and the remaining bytes are replies to load. */
    private boolean decodeHandshake(ByteBuf in) {
        try {
            if (codec.decodeHandshake(in) == ProtocolCodec.NEED_MORE) {
                return false;
            }
            handshaking = false;
            becomeReady(true);
            driver.pump();
            return true;
        } catch (HandshakeRefused e) {
            in.skipBytes(in.readableBytes());
            driver.handshakeRefused(this, e.getMessage());
            abandon(null);
            return false;
        } catch (ProtocolException e) {
            in.skipBytes(in.readableBytes());
            abandon("handshake: " + e.getMessage());
            return false;
        }
    }

    /** The stream ended: a reply that the end completes (an HTTP body ended by the close) is decoded. */
    private void decodeAtEnd(ByteBuf in) {
        Request head = inFlight.peek();
        if (head == null || abandoned || handshaking || !in.isReadable()) {
            return;
        }
        int start = in.readerIndex();
        try {
            int result = codec.decodeAtEnd(in, head);
            if (result != ProtocolCodec.NEED_MORE) {
                inFlight.poll();
                int replyClass = codec.replyClass();
                if (replyClass > 0) {
                    driver.replyClass(head, replyClass);
                }
                driver.complete(head, Outcome.of(result), System.nanoTime(), in.readerIndex() - start);
            }
        } catch (ProtocolException e) {
            driver.noteProtocolError(e.getMessage());
        }
        in.skipBytes(in.readableBytes());
    }

    // ---- what the wire reports, on the loop; reports of a wire no longer ours, or abandoned, are dropped ----

    /** Decodes the replies the bytes complete, and leaves the rest in {@code in}. */
    @Override
    public void received(Wire from, ByteBuf in) {
        if (!dropped(from, in)) {
            decodeReplies(in);
        }
    }

    @Override
    public void ended(Wire from, ByteBuf in) {
        if (!dropped(from, in)) {
            decodeReplies(in);
            decodeAtEnd(in);
        }
    }

    /** Bytes from a wire that is no longer ours, or that we abandoned, are skipped unread. */
    private boolean dropped(Wire from, ByteBuf in) {
        if (from != wire || abandoned) {
            in.skipBytes(in.readableBytes());
            return true;
        }
        return false;
    }

    /** The replies a read turn decoded freed room for more requests. */
    @Override
    public void readComplete() {
        driver.pumpAfterReads();
    }

    /** {@link #closed} follows and accounts for the requests in flight. */
    @Override
    public void failed(Wire from, Throwable cause) {
        driver.noteConnectionError(cause);
    }

    @Override
    public void closed(Wire closed) {
        if (closed != wire) {
            return;
        }
        boolean announced = codec != null && codec.closesConnection();
        handshaking = false;
        becomeReady(false);
        failInFlight(Outcome.CLOSED);
        wire = null;
        driver.connectionLost(this, announced);
    }
}
