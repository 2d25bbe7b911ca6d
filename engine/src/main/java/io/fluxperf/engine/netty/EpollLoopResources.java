package io.fluxperf.engine.netty;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import reactor.core.publisher.Mono;
import reactor.netty.resources.LoopResources;

/**
 * reactor-netty loop resources that are epoll (NIO where epoll is not available), and never
 * io_uring. reactor-netty's own {@link LoopResources#create} prefers io_uring whenever Netty's
 * io_uring transport is on the class path, which it is for {@code run --io-uring}; the embedded
 * targets and the default load client stay on the transport they were measured and tuned on (see
 * {@code TimerSlack}, and SO_REUSEPORT for UDP). One group of daemon threads serves, selects and
 * connects, whatever {@code useNative} says: the transport is chosen here, once.
 */
public final class EpollLoopResources implements LoopResources {
    private final EventLoopGroup group;

    /**
     * @param prefix  the prefix of the threads' names
     * @param threads event loops
     */
    public EpollLoopResources(String prefix, int threads) {
        this(prefix, threads, UnaryOperator.identity());
    }

    /**
     * @param handlers wraps the transport's I/O handler factory (for example in
     *                 {@link AlarmIoHandler#factory})
     */
    public EpollLoopResources(String prefix, int threads, UnaryOperator<IoHandlerFactory> handlers) {
        boolean epoll = Epoll.isAvailable();
        IoHandlerFactory io = handlers.apply(epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
        // daemon threads, as reactor-netty's: a run that fails must not keep the JVM alive
        this.group = new MultiThreadIoEventLoopGroup(threads,
                new DefaultThreadFactory(prefix + (epoll ? "-epoll" : "-nio"), true), io);
    }

    @Override
    public EventLoopGroup onServer(boolean useNative) {
        return group;
    }

    @Override
    public boolean daemon() {
        return true;
    }

    @Override
    public boolean isDisposed() {
        return group.isTerminated();
    }

    @Override
    public Mono<Void> disposeLater(Duration quietPeriod, Duration timeout) {
        return Mono.create(sink -> group.shutdownGracefully(quietPeriod.toMillis(), timeout.toMillis(), TimeUnit.MILLISECONDS)
                .addListener(f -> sink.success()));
    }
}
