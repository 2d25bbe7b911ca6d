package io.fluxperf.engine.connection;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.netty.AlarmIoHandler;
import io.fluxperf.engine.netty.EpollLoopResources;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDomainSocketChannel;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.SocketChannel;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import reactor.netty.resources.LoopResources;

/** The default client loop: one epoll thread (NIO where epoll is not available), with its alarm. */
final class EpollClientLoop implements ClientLoop {
    private final LoopResources resources;
    private final EventLoop loop;
    private final AtomicReference<AlarmIoHandler> alarm = new AtomicReference<>();

    EpollClientLoop(String name) {
        this.resources = new EpollLoopResources(name, 1, io -> AlarmIoHandler.factory(io, alarm::set));
        this.loop = resources.onClient(true).next();
    }

    @Override
    public EventLoop loop() {
        return loop;
    }

    @Override
    public AlarmIoHandler alarm() {
        return alarm.get();
    }

    @Override
    public Class<? extends SocketChannel> socketChannel() {
        return resources.onChannelClass(SocketChannel.class, loop);
    }

    @Override
    public Class<? extends DatagramChannel> datagramChannel() {
        return resources.onChannelClass(DatagramChannel.class, loop);
    }

    @Override
    public Class<? extends Channel> domainSocketChannel() {
        // reactor-netty's loop resources map no Unix-socket channel class: name epoll's
        if (!Epoll.isAvailable()) {
            throw new UserError("--server: Unix sockets need Netty's epoll transport, which is not available here: "
                    + Failures.describe(Epoll.unavailabilityCause()));
        }
        return EpollDomainSocketChannel.class;
    }

    @Override
    public void dispose(Duration timeout) {
        resources.disposeLater(Duration.ZERO, timeout).block(timeout.plusSeconds(3));
    }
}
