package io.fluxperf.engine.load;

import io.fluxperf.engine.protocol.HandshakeRefused;
import io.fluxperf.engine.protocol.ProtocolCodec;
import io.fluxperf.engine.protocol.ProtocolException;
import io.fluxperf.engine.request.Outcome;
import io.fluxperf.engine.request.Request;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;

/**
 * One connection slot to the target and the requests in flight on it; it outlives the channels it
 * reconnects with. Lives on its driver's event loop.
 *
 * <p>Replies are matched to requests by order. When that order can no longer be trusted — a
 * reply that cannot belong to the oldest request, bytes that answer nothing, a timeout — the
 * channel is closed, its other requests end as CLOSED and the driver reconnects: a late reply is
 * never attributed to a later request.
 */
final class TargetConnection implements ConnectionSlot {
    private final LoadDriver driver;
    private final int id;
    private final InFlight inFlight;
    private ProtocolCodec codec;
    private Channel channel;
    /** The channel is being closed by us: ignore what it still delivers. */
    private boolean abandoned;
    private boolean shuttingDown;
    private ByteBuf outgoing;
    private boolean dirty;
    /** Connect per request (mcb's -s, dperf's CPS): one request per channel, closed after its reply. */
    private final boolean oneRequestPerChannel;
    private boolean usedOnce;
    /** This channel has decoded a reply (the first resets the driver's reconnect backoff). */
    private boolean replied;
    /** Handshake replies (AUTH, SELECT, HELLO) are still awaited: no load yet. */
    private boolean handshaking;
    /** Completes when the channel is ready for load (true), or failed before that (false). */
    private java.util.concurrent.CompletableFuture<Boolean> ready;

    TargetConnection(LoadDriver driver, int id, int pipeline, boolean oneRequestPerChannel) {
        this.oneRequestPerChannel = oneRequestPerChannel;
        this.driver = driver;
        this.id = id;
        this.inFlight = new InFlight(pipeline);
    }

    @Override
    public int id() {
        return id;
    }

    @Override
    public java.util.concurrent.CompletableFuture<Boolean> open() {
        return driver.connect(this);
    }

    /** Takes a new channel to the target; returns the handler to add to its pipeline. */
    ChannelHandler attach(Channel newChannel, ProtocolCodec newCodec,
                          java.util.concurrent.CompletableFuture<Boolean> whenReady) {
        this.channel = newChannel;
        this.codec = newCodec;
        this.abandoned = false;
        this.usedOnce = false;
        this.replied = false;
        this.ready = whenReady;
        return new ReplyHandler(newChannel);
    }

    /** Sends the protocol's handshake, if it has one; the connection is ready once its replies are in. */
    void startHandshake() {
        ByteBuf out = channel.alloc().ioBuffer(128);
        if (codec.writeHandshake(out)) {
            handshaking = true;
            channel.writeAndFlush(out, channel.voidPromise());
        } else {
            out.release();
            becomeReady(true);
        }
    }

    private void becomeReady(boolean ok) {
        if (ready != null) {
            java.util.concurrent.CompletableFuture<Boolean> r = ready;
            ready = null;
            r.complete(ok);
        }
    }

    @Override
    public boolean isOpen() {
        return channel != null && !abandoned && channel.isActive();
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
            outgoing = channel.alloc().ioBuffer(256);
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
            channel.writeAndFlush(batch, channel.voidPromise());
        } else {
            batch.release();
        }
    }

    /**
     * When the oldest request timed out, order can no longer be trusted: it ends as a timeout,
     * the channel goes, and the requests behind it end as CLOSED.
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
        if (channel != null) {
            channel.close();
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
        if (channel != null) {
            channel.close();
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
                channel.close();
                return;
            }
            if (oneRequestPerChannel && inFlight.isEmpty()) {
                channel.close(); // its one request is answered; the driver connects anew
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

    private void channelClosed(Channel closed) {
        if (closed != channel) {
            return;
        }
        boolean announced = codec != null && codec.closesConnection();
        handshaking = false;
        becomeReady(false);
        failInFlight(Outcome.CLOSED);
        channel = null;
        driver.connectionLost(this, announced);
    }

    /** One per channel (a decoder keeps per-channel state); events of an abandoned channel are dropped. */
    private final class ReplyHandler extends ByteToMessageDecoder {
        private final Channel owner;

        ReplyHandler(Channel owner) {
            this.owner = owner;
        }

        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
            if (owner != channel || abandoned) {
                in.skipBytes(in.readableBytes());
                return;
            }
            decodeReplies(in);
        }

        @Override
        protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
            if (owner != channel || abandoned) {
                in.skipBytes(in.readableBytes());
                return;
            }
            decodeReplies(in);
            decodeAtEnd(in);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
            super.channelReadComplete(ctx);
            driver.pump();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
            super.channelInactive(ctx);
            channelClosed(owner);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // a reset or broken pipe; channelInactive accounts for the requests in flight
            driver.noteConnectionError(cause);
            ctx.close();
        }
    }
}
