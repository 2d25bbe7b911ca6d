package io.fluxperf.engine.target;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.internal.logging.InternalLoggerFactory;
import java.io.IOException;

/**
 * The skeleton of one client connection of an embedded target, for every protocol: read batches
 * (the clock a batch's replies are paced from), reply batches handed to a {@link ReplyWriter},
 * back-pressure, and clean-up.
 *
 * <p>Back-pressure: when the socket stops being writable (a client that sends but does not read),
 * or too many paced replies are held, it stops reading until that clears, as memcached and redis
 * do; memory per connection stays bounded. It closes quietly on I/O errors (anything else is
 * logged: it is a bug).
 *
 * <p>A subclass decodes in {@code channelRead} (opening each read batch with {@link #startBatch}),
 * writes its replies with {@link #writeOut}, and in {@code channelReadComplete} calls
 * {@link #endBatch}, writes what the batch left and then either closes ({@link #closeWhenWritten})
 * or {@link #pauseReadsIfBacklogged}. Confined to the connection's event loop.
 */
public abstract class ConnectionHandlerBase extends ChannelInboundHandlerAdapter {
    private final String protocol;
    private final ReplyPacer pacer;

    protected ChannelHandlerContext ctx;
    protected ReplyWriter writer;
    private boolean inBatch;
    private long batchArrivalNanos;
    private boolean readsPaused;
    /** The connection is closing (or closed): reads are not resumed any more. */
    protected boolean closing;

    /**
     * @param protocol the protocol's name in log messages, e.g. {@code memcache}
     * @param pacer    null unless a test knob is set
     */
    protected ConnectionHandlerBase(String protocol, ReplyPacer pacer) {
        this.protocol = protocol;
        this.pacer = pacer;
    }

    @Override
    public final void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.writer = new ReplyWriter(ctx, pacer, this::resumeReads);
        opened(ctx);
    }

    /** Sets up the connection's protocol state (counters cell, processor) and counts the connection. */
    protected abstract void opened(ChannelHandlerContext ctx);

    /** Counts {@code bytes} of replies written (or held for writing). */
    protected abstract void countBytesWritten(int bytes);

    /** Releases the protocol's buffers of a connection that closed; may run more than once. */
    protected abstract void releaseBuffers();

    /**
     * Opens a read batch unless one is open: its replies are paced from now.
     *
     * @return whether this read opened the batch
     */
    protected final boolean startBatch() {
        if (inBatch) {
            return false;
        }
        inBatch = true;
        batchArrivalNanos = pacer != null ? System.nanoTime() : 0L;
        return true;
    }

    /** Closes the read batch; called first in {@code channelReadComplete}. */
    protected final void endBatch() {
        inBatch = false;
    }

    /** Hands replies to the writer (which owns them from here), counting their bytes. */
    protected final void writeOut(ByteBuf replies, boolean flush) {
        writeOut(replies, flush, 1, false);
    }

    /** The same for the replies to {@code requests} requests, {@code slow} when the batch held a slow key (test knobs). */
    protected final void writeOut(ByteBuf replies, boolean flush, int requests, boolean slow) {
        countBytesWritten(replies.readableBytes());
        writer.write(replies, batchArrivalNanos, flush, requests, slow);
    }

    /** The test knobs' pacer, or null. */
    protected final ReplyPacer pacer() {
        return pacer;
    }

    /** Closes the connection once everything written so far is on the wire. */
    protected final void closeWhenWritten() {
        writer.closeWhenWritten();
    }

    /** Stops reading while the socket is not writable or the writer holds too much. */
    protected final void pauseReadsIfBacklogged() {
        if (!ctx.channel().isWritable() || writer.backlogged()) {
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
            InternalLoggerFactory.getInstance(getClass())
                    .warn("closing {} connection {} after an unexpected error", protocol, ctx.channel(), cause);
        }
        ctx.close();
    }

    private void resumeReads() {
        if (readsPaused && !closing && ctx.channel().isWritable() && !writer.backlogged()) {
            readsPaused = false;
            ctx.channel().config().setAutoRead(true);
        }
    }

    private void releaseAll() {
        releaseBuffers();
        if (writer != null) {
            writer.discard();
        }
    }
}
