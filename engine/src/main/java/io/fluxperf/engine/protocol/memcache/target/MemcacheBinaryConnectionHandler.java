package io.fluxperf.engine.protocol.memcache.target;

import io.fluxperf.engine.protocol.memcache.target.MemcacheCounters.Stat;
import io.fluxperf.engine.target.DecodingConnectionHandler;
import io.fluxperf.engine.target.ReplyPacer;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * One memcache client connection that speaks the binary protocol: a {@link DecodingConnectionHandler}
 * with a {@link MemcacheBinaryProcessor}. It takes the place of the text protocol's
 * {@link MemcacheConnectionHandler} when the {@link Sniffer} sees the binary request magic as the
 * connection's first byte (memcached tells the protocols apart the same way); the text handler
 * already counted the connection.
 */
final class MemcacheBinaryConnectionHandler extends DecodingConnectionHandler<MemcacheBinaryProcessor> {
    private final MemcacheStore store;
    private final MemcacheCounters counters;
    private MemcacheCounters.Cell cell;

    MemcacheBinaryConnectionHandler(MemcacheStore store, MemcacheCounters counters, ReplyPacer pacer) {
        super("memcache-binary", pacer);
        this.store = store;
        this.counters = counters;
    }

    @Override
    protected void opened(ChannelHandlerContext ctx) {
        cell = counters.cellFor(ctx.channel().eventLoop());
        processor = new MemcacheBinaryProcessor(store, cell, ctx.alloc(), this::writeEarly);
    }

    @Override
    protected void decode(ByteBuf in) {
        processor.decode(in);
    }

    @Override
    protected boolean decoderStopped() {
        return processor == null || processor.stopped();
    }

    @Override
    protected void stopDecoder() {
        if (processor != null) {
            processor.stop();
        }
    }

    @Override
    protected void countBytesRead(int bytes) {
        cell.add(Stat.BYTES_READ, bytes);
    }

    @Override
    protected void countBytesWritten(int bytes) {
        cell.add(Stat.BYTES_WRITTEN, bytes);
    }

    /**
     * Sits before the text handler (named {@code textHandler}) until the connection's first byte:
     * 0x80 swaps that handler for a {@link MemcacheBinaryConnectionHandler}; either way it then
     * steps out of the pipeline and passes the bytes on.
     */
    static final class Sniffer extends ChannelInboundHandlerAdapter {
        private final String textHandler;
        private final MemcacheStore store;
        private final MemcacheCounters counters;
        private final ReplyPacer pacer;

        Sniffer(String textHandler, MemcacheStore store, MemcacheCounters counters, ReplyPacer pacer) {
            this.textHandler = textHandler;
            this.store = store;
            this.counters = counters;
            this.pacer = pacer;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof ByteBuf in) {
                if (!in.isReadable()) {
                    in.release();
                    return;
                }
                if (in.getByte(in.readerIndex()) == MemcacheBinaryProcessor.REQUEST_MAGIC
                        && ctx.pipeline().get(textHandler) != null) {
                    ctx.pipeline().replace(textHandler, textHandler,
                            new MemcacheBinaryConnectionHandler(store, counters, pacer));
                }
            }
            ctx.pipeline().remove(this);
            ctx.fireChannelRead(msg);
        }
    }
}
