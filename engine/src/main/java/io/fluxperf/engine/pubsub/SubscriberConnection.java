package io.fluxperf.engine.pubsub;

import io.fluxperf.engine.protocol.SubscriberCodec;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.nio.channels.ClosedChannelException;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One subscriber's connection to one server: it sends the protocol's handshake and subscriptions
 * once connected, then decodes what the server pushes with the protocol's {@link SubscriberCodec}:
 * the confirmations complete {@link #confirmation()}, each message goes to the subscriber's
 * {@link Deliveries} with its arrival time. Reading can be paused ({@link #pauseReading}): the
 * server then buffers this subscriber's messages, and they arrive late. On the subscribers' event
 * loop; not reconnected when lost (its messages then count as lost).
 */
final class SubscriberConnection extends ChannelInboundHandlerAdapter implements SubscriberCodec.MessageSink {
    private final SubscriberCodec codec;
    private final List<byte[]> channels;
    private final Deliveries deliveries;
    private final String server;
    private final CompletableFuture<Void> confirmation = new CompletableFuture<>();
    private int expected = -1;
    private int confirmed;
    private volatile Channel channel;
    /** Why the connection ended before the run did; null while it is up. */
    private volatile String lost;
    private volatile boolean closing;
    /**
     * Bytes read and not decoded yet (a frame cut by the read). Not a ByteToMessageDecoder: that one
     * reads on by itself, auto-read off, when a read produced no message for the next handler.
     */
    private ByteBuf pending;

    SubscriberConnection(SubscriberCodec codec, List<byte[]> channels, Deliveries deliveries, String server) {
        this.codec = codec;
        this.channels = channels;
        this.deliveries = deliveries;
        this.server = server;
    }

    String server() {
        return server;
    }

    /** Completes once every channel's subscription is confirmed; fails when the connection fails first. */
    CompletableFuture<Void> confirmation() {
        return confirmation;
    }

    /** Why the connection ended during the run, or null. */
    String lost() {
        return lost;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        channel = ctx.channel();
        ByteBuf out = ctx.alloc().buffer(64 + channels.size() * 32);
        expected = codec.writeSubscribe(channels, out);
        ctx.writeAndFlush(out);
        if (expected == 0) {
            confirmation.complete(null);
        }
        super.channelActive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        ByteBuf in = (ByteBuf) msg;
        pending = pending == null ? in : ByteToMessageDecoder.MERGE_CUMULATOR.cumulate(ctx.alloc(), pending, in);
        try {
            codec.decode(pending, this);
        } finally {
            if (!pending.isReadable()) {
                pending.release();
                pending = null;
            } else {
                pending.discardSomeReadBytes();
            }
        }
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        if (pending != null) {
            pending.release();
            pending = null;
        }
    }

    @Override
    public void subscribed() {
        if (++confirmed == expected) {
            confirmation.complete(null);
        }
    }

    @Override
    public void message(ByteBuf in, int start, int length) {
        deliveries.delivered(in, start, length, System.nanoTime());
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        Throwable root = cause;
        end(root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName());
        confirmation.completeExceptionally(root);
        ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        end("the server closed the connection");
        confirmation.completeExceptionally(new ClosedChannelException());
        super.channelInactive(ctx);
    }

    private void end(String why) {
        if (!closing && lost == null) {
            lost = why;
        }
    }

    /** Stops (or resumes) reading: a test's subscriber that falls behind. From any thread. */
    void pauseReading(boolean paused) {
        Channel c = channel;
        if (c != null) {
            c.config().setAutoRead(!paused);
        }
    }

    /** Closes at the run's end (not counted as lost). */
    void close() {
        closing = true;
        Channel c = channel;
        if (c != null) {
            c.close();
        }
    }
}
