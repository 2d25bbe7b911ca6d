package io.fluxperf.engine.target;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;

/**
 * A connection of a protocol with its own resumable request decoder (memcache, redis): feeds the
 * bytes of each read to the decoder, which drives a {@link CommandProcessorBase} that answers into
 * one reply buffer per read batch; that buffer goes to the {@link ReplyWriter} once, in
 * {@code channelReadComplete}, so that a pipelining client costs one write per batch. An
 * unfinished request waits in a cumulation buffer for the next read.
 *
 * <p>A decoder that stops (QUIT, a protocol error after which the protocol hangs up) makes the
 * connection close once the replies so far are written; what arrives after that is dropped. It
 * consumes what it reads (nothing reaches reactor-netty's own inbound handling).
 *
 * @param <P> the protocol's command processor
 */
public abstract class DecodingConnectionHandler<P extends CommandProcessorBase> extends ConnectionHandlerBase {
    protected P processor;
    private ByteBuf cumulation;
    /** Replies were written early in this read batch and not flushed yet. */
    private boolean unflushed;

    protected DecodingConnectionHandler(String protocol, ReplyPacer pacer) {
        super(protocol, pacer);
    }

    /** Decodes what {@code in} holds, driving {@link #processor}; leaves an unfinished request unread. */
    protected abstract void decode(ByteBuf in);

    /** Whether the decoder has stopped (the connection is to close). */
    protected abstract boolean decoderStopped();

    /** Stops the decoder for good. */
    protected abstract void stopDecoder();

    /** Counts {@code bytes} read from the client. */
    protected abstract void countBytesRead(int bytes);

    /** Takes a reply batch that the processor hands over mid-read because it grew large. */
    protected final void writeEarly(ByteBuf replies) {
        writeReplies(replies, false);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf in)) {
            ctx.fireChannelRead(msg);
            return;
        }
        if (startBatch()) {
            processor.now(System.currentTimeMillis());
            processor.startBatch(pacer());
        }
        countBytesRead(in.readableBytes());
        if (decoderStopped()) {
            in.release();
            return;
        }
        ByteBuf buf = cumulation == null ? in : ByteToMessageDecoder.MERGE_CUMULATOR.cumulate(ctx.alloc(), cumulation, in);
        cumulation = null;
        try {
            decode(buf);
        } finally {
            if (buf.isReadable() && !decoderStopped()) {
                cumulation = buf; // an unfinished request waits for the next read
                buf.discardSomeReadBytes();
            } else {
                buf.release();
            }
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        endBatch();
        ByteBuf replies = processor.takeReplies();
        if (replies != null) {
            writeReplies(replies, true);
        } else if (unflushed) {
            writer.flush();
        }
        unflushed = false;
        if (decoderStopped()) {
            if (!closing) {
                closing = true;
                closeWhenWritten();
            }
        } else {
            pauseReadsIfBacklogged();
        }
    }

    @Override
    protected final void releaseBuffers() {
        if (cumulation != null) {
            cumulation.release();
            cumulation = null;
        }
        if (processor != null) {
            processor.release();
        }
        stopDecoder();
    }

    private void writeReplies(ByteBuf replies, boolean endOfBatch) {
        unflushed = !endOfBatch;
        writeOut(replies, endOfBatch, processor.takeBatchRequests(), processor.batchSlow());
    }
}
