package io.fluxperf.engine.target.resp;

import io.fluxperf.engine.target.ReplyPacer;
import io.fluxperf.engine.target.ReplyWriter;
import io.fluxperf.engine.target.resp.RespCounters.Stat;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One redis client connection on the hot path: feeds the bytes of each read to the
 * {@link RespRequestDecoder}, lets the {@link RespCommandProcessor} answer into one reply buffer
 * per read batch, and hands that buffer to the {@link ReplyWriter} once, in
 * {@code channelReadComplete}, so that a pipelining client costs one write per batch (and the
 * delay and stall test knobs apply as for memcache).
 *
 * <p>Back-pressure: when the socket stops being writable (a client that sends but does not read),
 * or too many paced replies are held, it stops reading until that clears; memory per connection
 * stays bounded. QUIT and protocol errors close the connection once the replies so far are
 * written, as redis does.
 */
final class RespConnectionHandler extends ChannelInboundHandlerAdapter {
    private static final InternalLogger LOG = InternalLoggerFactory.getInstance(RespConnectionHandler.class);
    private static final AtomicLong CLIENT_IDS = new AtomicLong();

    private final RespStore store;
    private final RespCounters counters;
    private final RespServerStats stats;
    private final ReplyPacer pacer;
    private final String requirePass;

    private final RespRequestDecoder decoder = new RespRequestDecoder();
    private ChannelHandlerContext ctx;
    private RespCounters.Cell cell;
    private RespCommandProcessor processor;
    private ReplyWriter writer;
    private ByteBuf cumulation;
    private boolean inBatch;
    private long batchArrivalNanos;
    private boolean readsPaused;
    private boolean unflushed;
    private boolean closing;

    /**
     * @param pacer       null unless a test knob is set
     * @param requirePass the default user's password, or null for none
     */
    RespConnectionHandler(RespStore store, RespCounters counters, RespServerStats stats, ReplyPacer pacer, String requirePass) {
        this.store = store;
        this.counters = counters;
        this.stats = stats;
        this.pacer = pacer;
        this.requirePass = requirePass;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        RespCounters.Cell c = counters.cellFor(ctx.channel().eventLoop());
        this.cell = c;
        this.writer = new ReplyWriter(ctx, pacer, this::resumeReads);
        this.processor = new RespCommandProcessor(store, c, stats, ctx.alloc(), early -> writeReplies(early, false),
                requirePass, CLIENT_IDS.incrementAndGet());
        c.increment(Stat.CONNECTED_CLIENTS);
        c.increment(Stat.TOTAL_CONNECTIONS_RECEIVED);
        ctx.channel().closeFuture().addListener(f -> c.add(Stat.CONNECTED_CLIENTS, -1));
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf in)) {
            ctx.fireChannelRead(msg);
            return;
        }
        if (!inBatch) {
            inBatch = true;
            batchArrivalNanos = pacer != null ? System.nanoTime() : 0L;
            processor.now(System.currentTimeMillis());
        }
        cell.add(Stat.TOTAL_NET_INPUT_BYTES, in.readableBytes());
        if (decoder.stopped()) {
            in.release();
            return;
        }
        ByteBuf buf = cumulation == null ? in : ByteToMessageDecoder.MERGE_CUMULATOR.cumulate(ctx.alloc(), cumulation, in);
        cumulation = null;
        try {
            decoder.decode(buf, processor);
        } finally {
            if (buf.isReadable() && !decoder.stopped()) {
                cumulation = buf; // an unfinished frame waits for the next read
                buf.discardSomeReadBytes();
            } else {
                buf.release();
            }
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        inBatch = false;
        ByteBuf replies = processor.takeReplies();
        if (replies != null) {
            writeReplies(replies, true);
        } else if (unflushed) {
            writer.flush();
        }
        unflushed = false;
        if (decoder.stopped()) {
            if (!closing) {
                closing = true;
                writer.closeWhenWritten();
            }
        } else if (!ctx.channel().isWritable() || writer.backlogged()) {
            readsPaused = true;
            ctx.channel().config().setAutoRead(false);
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (ctx.channel().isWritable()) {
            resumeReads();
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        releaseAll();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        releaseAll();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (!(cause instanceof IOException)) {
            LOG.warn("closing redis connection {} after an unexpected error", ctx.channel(), cause);
        }
        ctx.close();
    }

    private void writeReplies(ByteBuf replies, boolean endOfBatch) {
        unflushed = !endOfBatch;
        cell.add(Stat.TOTAL_NET_OUTPUT_BYTES, replies.readableBytes());
        writer.write(replies, batchArrivalNanos, endOfBatch);
    }

    private void resumeReads() {
        if (readsPaused && !closing && ctx.channel().isWritable() && !writer.backlogged()) {
            readsPaused = false;
            ctx.channel().config().setAutoRead(true);
        }
    }

    private void releaseAll() {
        if (cumulation != null) {
            cumulation.release();
            cumulation = null;
        }
        if (processor != null) {
            processor.release();
        }
        if (writer != null) {
            writer.discard();
        }
        decoder.stop();
    }
}
