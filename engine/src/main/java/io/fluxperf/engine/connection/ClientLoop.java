package io.fluxperf.engine.connection;

import io.fluxperf.engine.netty.AlarmIoHandler;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.SocketChannel;
import java.time.Duration;

/**
 * The event loop of one load thread and the channel classes that run on it: epoll (the default)
 * or Netty's io_uring transport ({@code --io-uring}).
 */
public interface ClientLoop {
    EventLoop loop();

    /** The loop's alarm: the pacer's wake-up, set once per send without a task per call. */
    AlarmIoHandler alarm();

    Class<? extends SocketChannel> socketChannel();

    Class<? extends DatagramChannel> datagramChannel();

    /** @throws io.fluxperf.engine.UserError when this transport has no Unix sockets here */
    Class<? extends Channel> domainSocketChannel();

    /** Stops the loop once its channels are closed, waiting at most {@code timeout}. */
    void dispose(Duration timeout);

    /** @param ioUring use io_uring; check {@link IoUringClientLoop#ensureAvailable()} first */
    static ClientLoop create(String name, boolean ioUring) {
        return ioUring ? new IoUringClientLoop(name) : new EpollClientLoop(name);
    }
}
