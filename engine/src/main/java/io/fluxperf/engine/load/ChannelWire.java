package io.fluxperf.engine.load;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;

/** A connection's Netty channel: its replies reach the connection through a decoder at the pipeline's end. */
final class ChannelWire implements Wire {
    private final Channel channel;

    /** Adds the decoder that hands {@code slot} what this channel receives. */
    ChannelWire(Channel channel, WireListener slot) {
        this.channel = channel;
        channel.pipeline().addLast("fluxperf-replies", new ReplyHandler(slot));
    }

    /** The channel, for tests of its options. */
    Channel channel() {
        return channel;
    }

    @Override
    public ByteBuf buffer(int capacity) {
        return channel.alloc().ioBuffer(capacity);
    }

    @Override
    public void write(ByteBuf batch) {
        channel.writeAndFlush(batch, channel.voidPromise());
    }

    @Override
    public boolean isActive() {
        return channel.isActive();
    }

    @Override
    public void close() {
        channel.close(); // channelInactive follows on a later turn of the loop
    }

    /** One per channel (a decoder keeps per-channel state). */
    private final class ReplyHandler extends ByteToMessageDecoder {
        private final WireListener slot;

        ReplyHandler(WireListener slot) {
            this.slot = slot;
        }

        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
            slot.received(ChannelWire.this, in);
        }

        @Override
        protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
            slot.ended(ChannelWire.this, in);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
            super.channelReadComplete(ctx);
            slot.readComplete();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
            super.channelInactive(ctx);
            slot.closed(ChannelWire.this);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // a reset or broken pipe; channelInactive accounts for the requests in flight
            slot.failed(ChannelWire.this, cause);
            ctx.close();
        }
    }
}
