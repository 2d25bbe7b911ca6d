package io.fluxperf.engine.target.memcache;

import io.fluxperf.engine.target.ReplyPacer;
import io.fluxperf.engine.target.ReplyWriter;
import io.fluxperf.engine.target.memcache.MemcacheCounters.Stat;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;
import java.io.IOException;

/**
 * One memcache client connection on the hot path: feeds the bytes of each read to the
 * {@link MemcacheRequestDecoder}, lets the {@link MemcacheCommandProcessor} answer into one reply
 * buffer per read batch, and hands that buffer to the {@link ReplyWriter} once, in
 * {@code channelReadComplete}, so that a pipelining client costs one write per batch.
 *
 * <p>Back-pressure: when the socket stops being writable (a client that sends but does not read),
 * or too many paced replies are held, it stops reading until that clears, as memcached does;
 * memory per connection stays bounded. It consumes what it reads (nothing reaches reactor-netty's
 * own inbound handling) and closes quietly on I/O errors (anything else is logged: it is a bug).
 */
final class MemcacheConnectionHandler extends ChannelInboundHandlerAdapter {
    private static final InternalLogger LOG = InternalLoggerFactory.getInstance(MemcacheConnectionHandler.class);

    private final MemcacheStore store;
    private final MemcacheCounters counters;
    private final MemcacheServerStats stats;
    private final ReplyPacer pacer;

    private final MemcacheRequestDecoder decoder = new MemcacheRequestDecoder();
    private ChannelHandlerContext ctx;
    private MemcacheCounters.Cell cell;
    private MemcacheCommandProcessor processor;
    private ReplyWriter writer;
    private ByteBuf cumulation;
    private boolean inBatch;
    private long batchArrivalNanos;
    private boolean readsPaused;
    private boolean unflushed;
    private boolean closing;

    /** @param pacer null unless a test knob is set */
    MemcacheConnectionHandler(MemcacheStore store, MemcacheCounters counters, MemcacheServerStats stats, ReplyPacer pacer) {
        this.store = store;
        this.counters = counters;
        this.stats = stats;
        this.pacer = pacer;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        MemcacheCounters.Cell c = counters.cellFor(ctx.channel().eventLoop());
        this.cell = c;
        this.writer = new ReplyWriter(ctx, pacer, this::resumeReads);
        this.processor = new MemcacheCommandProcessor(store, c, stats, ctx.alloc(),
                early -> writeReplies(early, false), ctx.channel().localAddress());
        c.increment(Stat.CURR_CONNECTIONS);
        c.increment(Stat.TOTAL_CONNECTIONS);
        ctx.channel().closeFuture().addListener(f -> c.add(Stat.CURR_CONNECTIONS, -1));
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
        cell.add(Stat.BYTES_READ, in.readableBytes());
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
                cumulation = buf; // an unfinished line waits for the next read
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
            // a reset or broken pipe from a client is routine for a server; anything else is a bug here
            LOG.warn("closing memcache connection {} after an unexpected error", ctx.channel(), cause);
        }
        ctx.close();
    }

    private void writeReplies(ByteBuf replies, boolean endOfBatch) {
        unflushed = !endOfBatch;
        cell.add(Stat.BYTES_WRITTEN, replies.readableBytes());
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
