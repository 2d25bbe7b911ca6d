package io.fluxperf.engine.connection;

import io.fluxperf.engine.protocol.HandshakeRefused;
import io.fluxperf.engine.protocol.ProtocolCodec;
import io.fluxperf.engine.protocol.ProtocolException;
import io.fluxperf.engine.request.Outcome;
import io.fluxperf.engine.request.Request;
import io.netty.buffer.ByteBuf;
import java.util.function.BiConsumer;

/**
 * One connection slot to the target over TCP, a Unix socket or TLS, and the requests in flight on
 * it; it outlives the wires (channels or bare sockets) it connects with. Lives on its thread's
 * event loop.
 *
 * <p>Replies are matched to requests by order. When that order can no longer be trusted (a reply
 * that cannot belong to the oldest request, bytes that answer nothing, a timeout) the wire is
 * closed, its other requests end as CLOSED and the thread decides when to connect again: a late
 * reply is never attributed to a later request.
 */
public final class TargetConnection implements ConnectionSlot, WireListener {
    /** Where a connection is in its life; one at a time. */
    enum State {
        /** No wire: not connected yet, or the last one closed. */
        CLOSED,
        /** A connect (and any TLS handshake) is under way. */
        CONNECTING,
        /** Connected; the protocol's handshake replies (AUTH, SELECT, HELLO) are awaited, so no load yet. */
        HANDSHAKING,
        /** Ready for load. */
        READY,
        /** Takes no more requests: its one request is sent (a connection per request). */
        SPENT,
        /** Closing by our own decision: what the wire still delivers is ignored. */
        CLOSING,
        /** The run is over: never connected again. */
        SHUT_DOWN
    }

    private final SlotEvents events;
    private final Transports transports;
    private final int id;
    private final int index;
    private final InFlight inFlight;
    /** Connect per request (mcb's -s, dperf's CPS): one request per wire, closed after its reply. */
    private final boolean oneRequestPerWire;
    /** Made once: a connection per request reconnects thousands of times a second. */
    private final BiConsumer<Wire, Throwable> connectDone = this::connectDone;
    private State state = State.CLOSED;
    /** The close we asked for ends an exchange as planned (not a failure): the thread may connect again at once. */
    private boolean closeExpected;
    private ProtocolCodec codec;
    private Wire wire;
    /** The batch being encoded, until {@link #flush()}. */
    private ByteBuf outgoing;
    private long connectStartedNanos;
    /** The wire's retransmitted segments at its last TCP sample (0 for a new wire). */
    private long retransmitsSeen;

    public TargetConnection(SlotEvents events, Transports transports, int id, int index, int pipeline,
                            boolean oneRequestPerWire) {
        this.events = events;
        this.transports = transports;
        this.id = id;
        this.index = index;
        this.inFlight = new InFlight(pipeline);
        this.oneRequestPerWire = oneRequestPerWire;
    }

    @Override
    public int id() {
        return id;
    }

    @Override
    public int index() {
        return index;
    }

    State state() {
        return state;
    }

    @Override
    public void connect() {
        if (state == State.SHUT_DOWN) {
            return;
        }
        state = State.CONNECTING;
        closeExpected = false;
        connectStartedNanos = System.nanoTime();
        transports.connect(this, connectDone);
    }

    @Override
    public long connectStartedNanos() {
        return connectStartedNanos;
    }

    /** The transport's answer to {@link #connect()}: the new wire, or why there is none. */
    private void connectDone(Wire newWire, Throwable error) {
        if (state == State.SHUT_DOWN) {
            if (newWire != null) {
                newWire.close();
            }
            return;
        }
        if (newWire == null) {
            state = State.CLOSED;
            events.connectFailed(this, error);
            return;
        }
        wire = newWire;
        retransmitsSeen = 0;
        // a codec that can start afresh is kept from wire to wire (connect per request: one per slot)
        if (codec == null || !codec.resetForNewConnection()) {
            codec = events.newCodec(this);
        }
        events.established(this);
        startHandshake();
    }

    /** Sends the protocol's handshake, if it has one; the connection is ready once its replies are in. */
    private void startHandshake() {
        ByteBuf out = codec.hasHandshake() ? wire.buffer(128) : null;
        if (out != null && codec.writeHandshake(out)) {
            state = State.HANDSHAKING;
            wire.write(out);
            return;
        }
        if (out != null) {
            out.release();
        }
        state = State.READY;
        events.ready(this);
    }

    @Override
    public boolean isOpen() {
        return (state == State.HANDSHAKING || state == State.READY || state == State.SPENT) && wire.isActive();
    }

    @Override
    public boolean sampleTcp(TcpProbe probe) {
        if (!isOpen() || !wire.tcpInfo(probe)) {
            return false;
        }
        retransmitsSeen = probe.retransmittedSince(retransmitsSeen);
        return true;
    }

    @Override
    public boolean canSend() {
        return state == State.READY && !inFlight.isFull() && wire.isActive();
    }

    @Override
    public int inFlightCount() {
        return inFlight.size();
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
        inFlight.add(r);
        if (oneRequestPerWire) {
            state = State.SPENT;
        }
        return bytes;
    }

    /** Writes and flushes what this batch encoded, ended as its codec ends a batch: one write, one flush, one syscall. */
    @Override
    public void flush() {
        ByteBuf batch = outgoing;
        if (batch == null) {
            return;
        }
        outgoing = null;
        if (isOpen()) {
            codec.writeBatchEnd(batch);
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
        events.completed(head, Outcome.TIMEOUT, nowNanos, 0, -1);
        abandon(null);
    }

    @Override
    public void shutdown() {
        state = State.SHUT_DOWN;
        if (wire != null) {
            wire.close();
        }
    }

    /** Gives the wire up because it can no longer be trusted; its requests end as CLOSED. */
    private void abandon(String reason) {
        if (reason != null) {
            events.protocolError(reason);
        }
        closeOurselves(false);
    }

    /** Closes the wire by our own decision; {@link #closed} reports it once the wire has gone. */
    private void closeOurselves(boolean expected) {
        state = State.CLOSING;
        closeExpected = expected;
        failInFlight();
        if (wire != null) {
            wire.close();
        }
    }

    private void failInFlight() {
        long now = System.nanoTime();
        Request r;
        while ((r = inFlight.poll()) != null) {
            events.completed(r, Outcome.CLOSED, now, 0, -1);
        }
        if (outgoing != null) {
            outgoing.release();
            outgoing = null;
        }
    }

    private void decodeReplies(ByteBuf in) {
        if (state == State.HANDSHAKING && !decodeHandshake(in)) {
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
                events.unexpectedReply(e.getMessage(), in, start);
                in.skipBytes(garbage);
                events.completed(head, Outcome.ERROR, now, garbage, -1);
                abandon(null);
                return;
            }
            if (result == ProtocolCodec.NEED_MORE) {
                return;
            }
            inFlight.poll();
            if (result == ProtocolCodec.REDIRECTED) {
                events.redirected(this, head, codec.redirect(), now, in.readerIndex() - start);
                events.answered(this);
                continue;
            }
            events.completed(head, Outcome.of(result), now, in.readerIndex() - start, codec.replyClass());
            events.answered(this);
            if (codec.closesConnection()) {
                // the server closes after this reply: what was pipelined behind it ends as CLOSED
                in.skipBytes(in.readableBytes());
                closeOurselves(true);
                return;
            }
            if (oneRequestPerWire && inFlight.isEmpty()) {
                closeOurselves(true); // its one request is answered; the thread connects anew
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
            state = State.READY;
            events.ready(this);
            return true;
        } catch (HandshakeRefused e) {
            in.skipBytes(in.readableBytes());
            events.refused(this, e.getMessage());
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
        if (head == null || state == State.HANDSHAKING || !in.isReadable()) {
            return;
        }
        int start = in.readerIndex();
        try {
            int result = codec.decodeAtEnd(in, head);
            if (result != ProtocolCodec.NEED_MORE) {
                inFlight.poll();
                events.completed(head, Outcome.of(result), System.nanoTime(), in.readerIndex() - start,
                        codec.replyClass());
            }
        } catch (ProtocolException e) {
            events.protocolError(e.getMessage());
        }
        in.skipBytes(in.readableBytes());
    }

    // ---- what the wire reports, on the loop; reports of a wire no longer ours, or being closed, are dropped ----

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
            if (from == wire && state != State.CLOSING && state != State.SHUT_DOWN) {
                decodeAtEnd(in);
            }
        }
    }

    /** Bytes from a wire that is no longer ours, or that we are closing, are skipped unread. */
    private boolean dropped(Wire from, ByteBuf in) {
        if (from != wire || state == State.CLOSING || state == State.SHUT_DOWN) {
            in.skipBytes(in.readableBytes());
            return true;
        }
        return false;
    }

    /** The replies a read turn decoded freed room for more requests. */
    @Override
    public void readComplete() {
        events.readDone();
    }

    /** {@link #closed} follows and accounts for the requests in flight. */
    @Override
    public void failed(Wire from, Throwable cause) {
        events.connectionError(cause);
    }

    @Override
    public void closed(Wire closed) {
        if (closed != wire) {
            return;
        }
        State was = state;
        boolean expected = closeExpected || (codec != null && codec.closesConnection());
        wire = null;
        failInFlight();
        if (was == State.SHUT_DOWN) {
            return;
        }
        state = State.CLOSED;
        events.closed(this, expected);
    }
}
