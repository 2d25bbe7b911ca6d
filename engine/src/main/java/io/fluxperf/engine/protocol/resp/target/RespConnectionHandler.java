package io.fluxperf.engine.protocol.resp.target;

import io.fluxperf.engine.protocol.resp.target.RespCounters.Stat;
import io.fluxperf.engine.target.DecodingConnectionHandler;
import io.fluxperf.engine.target.ReplyPacer;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One redis client connection on the hot path: a {@link DecodingConnectionHandler} with the
 * {@link RespRequestDecoder} and a {@link RespCommandProcessor} (the delay and stall test knobs
 * apply as for memcache). QUIT and protocol errors close the connection once the replies so far
 * are written, as redis does.
 */
final class RespConnectionHandler extends DecodingConnectionHandler<RespCommandProcessor> {
    private static final AtomicLong CLIENT_IDS = new AtomicLong();

    private final RespStore store;
    private final RespCounters counters;
    private final RespServerStats stats;
    private final String requirePass;

    private final RespRequestDecoder decoder = new RespRequestDecoder();
    private RespCounters.Cell cell;

    /**
     * @param pacer       null unless a test knob is set
     * @param requirePass the default user's password, or null for none
     */
    RespConnectionHandler(RespStore store, RespCounters counters, RespServerStats stats, ReplyPacer pacer, String requirePass) {
        super("redis", pacer);
        this.store = store;
        this.counters = counters;
        this.stats = stats;
        this.requirePass = requirePass;
    }

    @Override
    protected void opened(ChannelHandlerContext ctx) {
        RespCounters.Cell c = counters.cellFor(ctx.channel().eventLoop());
        this.cell = c;
        this.processor = new RespCommandProcessor(store, c, stats, ctx.alloc(), this::writeEarly,
                requirePass, CLIENT_IDS.incrementAndGet());
        c.increment(Stat.CONNECTED_CLIENTS);
        c.increment(Stat.TOTAL_CONNECTIONS_RECEIVED);
        ctx.channel().closeFuture().addListener(f -> c.add(Stat.CONNECTED_CLIENTS, -1));
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
        cell.add(Stat.TOTAL_NET_INPUT_BYTES, bytes);
    }

    @Override
    protected void countBytesWritten(int bytes) {
        cell.add(Stat.TOTAL_NET_OUTPUT_BYTES, bytes);
    }
}
