package io.fluxperf.engine.protocol.memcache.target;

import io.fluxperf.engine.protocol.memcache.target.MemcacheCounters.Stat;
import io.fluxperf.engine.target.DecodingConnectionHandler;
import io.fluxperf.engine.target.ReplyPacer;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;

/**
 * One memcache client connection on the hot path: a {@link DecodingConnectionHandler} with the
 * {@link MemcacheRequestDecoder} and a {@link MemcacheCommandProcessor}. As memcached does, it
 * stops reading while the client does not read its replies, and hangs up after {@code quit}.
 */
final class MemcacheConnectionHandler extends DecodingConnectionHandler<MemcacheCommandProcessor> {
    private final MemcacheStore store;
    private final MemcacheCounters counters;
    private final MemcacheServerStats stats;

    private final MemcacheRequestDecoder decoder = new MemcacheRequestDecoder();
    private MemcacheCounters.Cell cell;

    /** @param pacer null unless a test knob is set */
    MemcacheConnectionHandler(MemcacheStore store, MemcacheCounters counters, MemcacheServerStats stats, ReplyPacer pacer) {
        super("memcache", pacer);
        this.store = store;
        this.counters = counters;
        this.stats = stats;
    }

    @Override
    protected void opened(ChannelHandlerContext ctx) {
        MemcacheCounters.Cell c = counters.cellFor(ctx.channel().eventLoop());
        this.cell = c;
        this.processor = new MemcacheCommandProcessor(store, c, stats, ctx.alloc(), this::writeEarly,
                ctx.channel().localAddress());
        c.increment(Stat.CURR_CONNECTIONS);
        c.increment(Stat.TOTAL_CONNECTIONS);
        ctx.channel().closeFuture().addListener(f -> c.add(Stat.CURR_CONNECTIONS, -1));
    }

    @Override
    protected void decode(ByteBuf in) {
        decoder.decode(in, processor);
    }

    @Override
    protected boolean decoderStopped() {
        return decoder.stopped();
    }

    @Override
    protected void stopDecoder() {
        decoder.stop();
    }

    @Override
    protected void countBytesRead(int bytes) {
        cell.add(Stat.BYTES_READ, bytes);
    }

    @Override
    protected void countBytesWritten(int bytes) {
        cell.add(Stat.BYTES_WRITTEN, bytes);
    }
}
