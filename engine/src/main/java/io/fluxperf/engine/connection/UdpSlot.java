package io.fluxperf.engine.connection;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.protocol.DatagramFraming;
import io.fluxperf.engine.protocol.ProtocolCodec;
import io.fluxperf.engine.protocol.ProtocolException;
import io.fluxperf.engine.request.Outcome;
import io.fluxperf.engine.request.Request;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.socket.DatagramPacket;
import io.netty.util.ReferenceCountUtil;
import java.net.InetSocketAddress;
import java.net.PortUnreachableException;
import java.net.SocketAddress;

/**
 * A protocol over UDP, framed by its {@link DatagramFraming} (memcache: memcached's 8-byte frame
 * header): one connected datagram socket on its thread's event loop, with up to {@code pipeline}
 * requests in flight. Lives on that loop; not thread-safe.
 *
 * <p>Matching: a request is one datagram whose header carries its request id,
 * {@code generation << bits | entry}: the low bits name the in-flight entry, the high bits count
 * that entry's uses, so a reply finds its request in O(1) and one for a request that already
 * ended (late after its timeout, or duplicated) does not match and is dropped and counted as a
 * protocol error. Replies are matched by id, never by order.
 *
 * <p>Reassembly: datagrams of a reply are appended in sequence order; one that arrives ahead of
 * its turn is held (retained) until the gap fills. When all {@code total} datagrams of a group are
 * in, the codec decodes the reply; if it is not complete yet, the next group is awaited (memcached
 * 1.6 sends each VALUE of a multi-key get as its own group numbered from 0 again). A one-datagram
 * reply is decoded in place, without a copy.
 *
 * <p>A lost or incomplete reply ends as TIMEOUT when its request times out ({@link #expire}); the
 * socket stays, and the other requests are unaffected (unlike TCP, order was never relied on). An
 * ICMP port unreachable (nothing listens on the port) goes to {@link SlotEvents#unreachable}: before
 * the target ever answered it is UDP's failed connect, and the socket closes with its requests; after,
 * the server went away for a while (a restart), which is counted and the requests end by their
 * timeouts. Byte counts include the headers: they are what went over UDP.
 */
public final class UdpSlot implements ConnectionSlot {
    /** Largest UDP payload over IPv4 (65535 - 20 - 8). */
    static final int MAX_DATAGRAM = 65_507;
    /** Receive buffer per datagram; memcached sends at most 1400 bytes. A larger datagram is cut here and its reply fails to decode. */
    static final int RECEIVE_BUFFER = 16 << 10;

    private final SlotEvents events;
    private final DatagramFraming framing;
    private final DatagramFraming.Header header = new DatagramFraming.Header();
    private final int id;
    private final int index;
    private final SocketAddress target;
    private final Bootstrap bootstrap;
    /** Bits of the request id that name the entry; the id's other bits count generations. */
    private final int bits;
    private final int entryMask;
    private final int generationMask;
    private final Entry[] entries;
    /** Indexes of entries with no request, a stack. */
    private final int[] free;
    private int freeCount;
    private int inFlight;
    private Channel channel;
    private boolean shuttingDown;
    private boolean dirty;
    private long connectStartedNanos;
    /** An entry whose request was too large for a datagram: it ends as ERROR right after the send batch. */
    private final Runnable failOversized = this::failOversized;
    private boolean oversizedPending;

    /** One request in flight and its reply's reassembly state; reused. */
    private static final class Entry {
        final int index;
        Request request;
        int requestId;
        int generation;
        ProtocolCodec codec;
        /** The codec saw part of a reply: it may hold state that a new request must not inherit. */
        boolean codecMidReply;
        boolean oversized;
        /** The reply so far, when it spans several datagrams; pooled. */
        ByteBuf assembled;
        /** Next sequence number expected in the current group, and the group's size (0: no group started). */
        int nextSeq;
        int total;
        /** Datagrams that arrived ahead of their turn, by sequence number; allocated on first need. */
        ByteBuf[] held;
        int heldCount;
        int receivedBytes;

        Entry(int index, ProtocolCodec codec) {
            this.index = index;
            this.codec = codec;
        }
    }

    /**
     * @param target the server's UDP address (HOST:PORT)
     */
    public UdpSlot(SlotEvents events, int id, int index, int pipeline, SocketAddress target, ClientLoop clientLoop,
                   DatagramFraming framing) {
        if (!(target instanceof InetSocketAddress)) {
            throw new UserError("--udp: UDP needs --server HOST:PORT, not " + target);
        }
        this.events = events;
        this.framing = framing;
        this.id = id;
        this.index = index;
        this.target = target;
        int size = Integer.highestOneBit(Math.max(1, pipeline - 1)) << (pipeline > 1 ? 1 : 0);
        this.bits = Integer.numberOfTrailingZeros(size);
        int idBits = framing.requestIdBits();
        if (bits > idBits - 4) { // at least 16 generations, so that a late reply rarely matches a new request
            throw new UserError("--pipeline: at most " + (1 << (idBits - 4)) + " requests can be in flight per UDP socket ("
                    + idBits + "-bit request ids)");
        }
        this.entryMask = size - 1;
        this.generationMask = (1 << (idBits - bits)) - 1;
        this.entries = new Entry[pipeline];
        this.free = new int[pipeline];
        for (int i = 0; i < pipeline; i++) {
            entries[i] = new Entry(i, events.newCodec());
            free[i] = pipeline - 1 - i;
        }
        this.freeCount = pipeline;
        this.bootstrap = new Bootstrap()
                .group(events.loop())
                .channel(clientLoop.datagramChannel())
                .option(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(RECEIVE_BUFFER))
                .handler(new Replies());
    }

    @Override
    public int id() {
        return id;
    }

    /** Binds an ephemeral local port and connects it to the target (no packet is sent: UDP has no handshake). */
    @Override
    public int index() {
        return index;
    }

    @Override
    public long connectStartedNanos() {
        return connectStartedNanos;
    }

    @Override
    public void connect() {
        if (shuttingDown) {
            return;
        }
        connectStartedNanos = System.nanoTime();
        ChannelFuture f = bootstrap.connect(target);
        f.addListener(done -> {
            if (!done.isSuccess()) {
                events.connectFailed(this, done.cause());
                return;
            }
            Channel ch = f.channel();
            if (shuttingDown) {
                ch.close();
                return;
            }
            channel = ch;
            ch.closeFuture().addListener(closed -> channelClosed(ch));
            events.established(this);
            events.ready(this);
        });
    }

    @Override
    public boolean isOpen() {
        return channel != null && channel.isActive();
    }

    @Override
    public boolean canSend() {
        return freeCount > 0 && isOpen();
    }

    @Override
    public int inFlightCount() {
        return inFlight;
    }

    /** Writes the request as one datagram (sent by {@link #flush()}); returns its size with the header. */
    @Override
    public int send(Request r, long nowNanos) {
        Entry e = entries[free[--freeCount]];
        e.generation = (e.generation + 1) & generationMask;
        e.requestId = (e.generation << bits) | e.index;
        e.request = r;
        inFlight++;
        ByteBuf out = channel.alloc().ioBuffer(256);
        framing.writeRequestHeader(out, e.requestId);
        e.codec.encode(r, out);
        int bytes = out.readableBytes();
        r.sentNanos(nowNanos).sentOn(id, bytes);
        if (bytes > MAX_DATAGRAM) {
            out.release();
            e.oversized = true;
            if (!oversizedPending) {
                oversizedPending = true;
                events.loop().execute(failOversized); // not from inside the thread's send loop
            }
            return bytes;
        }
        channel.write(out, channel.voidPromise());
        dirty = true;
        return bytes;
    }

    @Override
    public void flush() {
        if (dirty) {
            dirty = false;
            if (channel != null) {
                channel.flush();
            }
        }
    }

    private void failOversized() {
        oversizedPending = false;
        long now = System.nanoTime();
        for (Entry e : entries) {
            if (e.request != null && e.oversized) {
                events.protocolError("a request of " + e.request.requestBytes() + " bytes does not fit in one UDP datagram ("
                        + MAX_DATAGRAM + " bytes); not sent");
                finish(e, Outcome.ERROR, now, 0);
            }
        }
        events.pump();
    }

    /** Requests without a complete reply after the timeout end as TIMEOUT; the socket stays. */
    @Override
    public void expire(long nowNanos, long timeoutNanos) {
        if (inFlight == 0) {
            return;
        }
        boolean expired = false;
        for (Entry e : entries) {
            Request r = e.request;
            if (r != null && nowNanos - r.sentNanos() > timeoutNanos) {
                finish(e, Outcome.TIMEOUT, nowNanos, 0);
                expired = true;
            }
        }
        if (expired) {
            events.pump();
        }
    }

    @Override
    public void shutdown() {
        shuttingDown = true;
        if (channel != null) {
            channel.close();
        }
        for (Entry e : entries) {
            releaseReassembly(e);
        }
    }

    // ---- replies ----

    private void receive(ByteBuf in) {
        events.answered(this); // something listens: a later refusal is a restart, not a wrong port
        int size = in.readableBytes();
        if (size < framing.headerBytes()) {
            events.protocolError("a UDP datagram of " + size + " bytes, shorter than the " + framing.headerBytes()
                    + "-byte frame header; dropped");
            return;
        }
        if (size >= RECEIVE_BUFFER) {
            events.protocolError("a UDP datagram larger than " + RECEIVE_BUFFER + " bytes was cut short");
        }
        framing.readReplyHeader(in, header);
        int requestId = header.requestId;
        int seq = header.sequence;
        int total = header.total;
        Entry e = entries.length > (requestId & entryMask) ? entries[requestId & entryMask] : null;
        if (e == null || e.request == null || e.requestId != requestId) {
            events.protocolError("a UDP reply datagram for a request that already ended (late after its timeout,"
                    + " or duplicated); dropped");
            return;
        }
        if (total == 0 || seq >= total || (e.total != 0 && total != e.total)) {
            events.protocolError("a UDP datagram with a bad frame header (sequence " + seq + " of " + total
                    + (e.total != 0 ? ", expected " + e.total : "") + "); dropped");
            return;
        }
        e.receivedBytes += size;
        e.total = total;
        if (seq == e.nextSeq) {
            if (e.assembled == null && seq == 0 && total == 1) {
                e.total = 0; // the group is complete
                decode(e, in, true); // the common case: the whole reply in one datagram, no copy
                return;
            }
            append(e, in);
            e.nextSeq++;
            drainHeld(e);
        } else if (seq > e.nextSeq) {
            hold(e, seq, in);
            return;
        } else {
            events.protocolError("a duplicated UDP reply datagram; dropped");
            return;
        }
        if (e.nextSeq == e.total) {
            e.nextSeq = 0;
            e.total = 0;
            decode(e, e.assembled, false);
        }
    }

    private void append(Entry e, ByteBuf in) {
        if (e.assembled == null) {
            e.assembled = channel.alloc().buffer(Math.max(2048, in.readableBytes()));
        }
        e.assembled.writeBytes(in);
    }

    private void hold(Entry e, int seq, ByteBuf in) {
        if (e.held == null || e.held.length <= seq) {
            ByteBuf[] bigger = new ByteBuf[Math.max(seq + 1, e.total)];
            if (e.held != null) {
                System.arraycopy(e.held, 0, bigger, 0, e.held.length);
            }
            e.held = bigger;
        }
        if (e.held[seq] != null) {
            events.protocolError("a duplicated UDP reply datagram; dropped");
            return;
        }
        e.held[seq] = in.retainedSlice();
        e.heldCount++;
    }

    private void drainHeld(Entry e) {
        while (e.heldCount > 0 && e.nextSeq < e.held.length && e.held[e.nextSeq] != null) {
            ByteBuf b = e.held[e.nextSeq];
            e.held[e.nextSeq] = null;
            e.heldCount--;
            append(e, b);
            b.release();
            e.nextSeq++;
        }
    }

    /**
     * Decodes the reply of {@code e} from {@code in}: complete, it ends the request; incomplete,
     * the next group of datagrams is awaited (a copy is kept when {@code in} is the datagram itself).
     */
    private void decode(Entry e, ByteBuf in, boolean inPlace) {
        long now = System.nanoTime();
        int from = in.readerIndex();
        int result;
        try {
            result = e.codec.decode(in, e.request);
        } catch (ProtocolException ex) {
            e.codecMidReply = true;
            events.unexpectedReply(ex.getMessage(), in, from);
            finish(e, Outcome.ERROR, now, e.receivedBytes);
            return;
        }
        if (result == ProtocolCodec.NEED_MORE) {
            e.codecMidReply = true;
            if (inPlace) {
                append(e, in);
            }
            return;
        }
        e.codecMidReply = false;
        if (in.isReadable()) {
            events.protocolError(in.readableBytes() + " bytes after a complete UDP reply; ignored");
        }
        finish(e, Outcome.of(result), now, e.receivedBytes);
    }

    /** Ends the entry's request and makes the entry free again. */
    private void finish(Entry e, Outcome outcome, long now, int responseBytes) {
        Request r = e.request;
        e.request = null;
        e.oversized = false;
        releaseReassembly(e);
        if (e.codecMidReply) {
            e.codec = events.newCodec(); // it may wait for bytes of a reply that will never come
            e.codecMidReply = false;
        }
        free[freeCount++] = e.index;
        inFlight--;
        events.completed(r, outcome, now, responseBytes, -1);
    }

    private static void releaseReassembly(Entry e) {
        if (e.assembled != null) {
            e.assembled.release();
            e.assembled = null;
        }
        if (e.heldCount > 0) {
            for (int i = 0; i < e.held.length; i++) {
                if (e.held[i] != null) {
                    e.held[i].release();
                    e.held[i] = null;
                }
            }
            e.heldCount = 0;
        }
        e.nextSeq = 0;
        e.total = 0;
        e.receivedBytes = 0;
    }

    /** A datagram socket closes only when told to; if it does otherwise, its requests end as CLOSED and the thread reopens it. */
    private void channelClosed(Channel closed) {
        if (closed != channel) {
            return;
        }
        channel = null;
        if (shuttingDown) {
            return;
        }
        long now = System.nanoTime();
        for (Entry e : entries) {
            if (e.request != null) {
                finish(e, Outcome.CLOSED, now, 0);
            }
        }
        events.closed(this, false);
    }

    /** Reads datagrams (a connected channel delivers only the target's) and pumps once per read batch. */
    private final class Replies extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (ctx.channel() != channel || shuttingDown) {
                    return;
                }
                if (msg instanceof DatagramPacket p) {
                    receive(p.content());
                } else if (msg instanceof ByteBuf b) {
                    receive(b);
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            events.pump();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (shuttingDown || ctx.channel() != channel) {
                return;
            }
            if (cause instanceof PortUnreachableException) {
                if (events.unreachable(UdpSlot.this, cause)) {
                    ctx.channel().close(); // its requests end as CLOSED now: nothing will answer them
                }
                return;
            }
            events.connectionError(cause); // counted; the requests end by their timeouts
        }
    }
}
