package io.fluxperf.engine.connection;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.netty.AlarmIoHandler;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringDatagramChannel;
import io.netty.channel.uring.IoUringDomainSocketChannel;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A client loop on Netty's io_uring transport ({@code --io-uring}): one thread, and the io_uring
 * channel classes for TCP, UDP and Unix sockets, named here rather than looked up through
 * reactor-netty, whose table has no Unix-socket entry for every transport.
 */
public final class IoUringClientLoop implements ClientLoop {
    private final EventLoopGroup group;
    private final EventLoop loop;
    private final AtomicReference<AlarmIoHandler> alarm = new AtomicReference<>();

    IoUringClientLoop(String name) {
        // daemon threads, as reactor-netty's: a run that fails must not keep the JVM alive
        this.group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory(name + "-io_uring", true),
                AlarmIoHandler.factory(IoUringIoHandler.newFactory(), alarm::set));
        this.loop = group.next();
    }

    @Override
    public AlarmIoHandler alarm() {
        return alarm.get();
    }

    /** @throws UserError naming --io-uring and why, when this JVM or kernel cannot use io_uring */
    public static void ensureAvailable() {
        ensureAvailable(IoUring.isAvailable(), IoUring.unavailabilityCause());
    }

    static void ensureAvailable(boolean available, Throwable cause) {
        if (!available) {
            throw new UserError("--io-uring: Netty's io_uring transport is not available here: "
                    + (cause != null ? Failures.describe(cause) : "unknown cause"));
        }
    }

    @Override
    public EventLoop loop() {
        return loop;
    }

    @Override
    public Class<? extends SocketChannel> socketChannel() {
        return IoUringSocketChannel.class;
    }

    @Override
    public Class<? extends DatagramChannel> datagramChannel() {
        return IoUringDatagramChannel.class;
    }

    @Override
    public Class<? extends Channel> domainSocketChannel() {
        return IoUringDomainSocketChannel.class;
    }

    @Override
    public void dispose(Duration timeout) {
        group.shutdownGracefully(0, timeout.toMillis(), TimeUnit.MILLISECONDS)
                .awaitUninterruptibly(timeout.plusSeconds(3).toMillis());
    }
}
