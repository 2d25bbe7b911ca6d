package io.fluxperf.engine.connection;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.netty.EpollLoopResources;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringDatagramChannel;
import io.netty.channel.uring.IoUringDomainSocketChannel;
import io.netty.channel.uring.IoUringSocketChannel;
import java.time.Duration;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The load loops' transports: epoll by default, io_uring when asked and available, one sentence when it is not. */
class ClientLoopTest {
    @Test
    void ioUringLoopsUseIoUringChannels() {
        Assumptions.assumeTrue(IoUring.isAvailable(), () -> "io_uring is not available: " + IoUring.unavailabilityCause());
        ClientLoop loop = ClientLoop.create("fluxperf-test", true);
        try {
            assertSame(IoUringSocketChannel.class, loop.socketChannel());
            assertSame(IoUringDatagramChannel.class, loop.datagramChannel());
            assertSame(IoUringDomainSocketChannel.class, loop.domainSocketChannel());
        } finally {
            loop.dispose(Duration.ofSeconds(2));
        }
    }

    @Test
    void epollStaysTheDefault() {
        Assumptions.assumeTrue(Epoll.isAvailable(), "epoll is not available");
        ClientLoop loop = ClientLoop.create("fluxperf-test", false);
        EpollLoopResources servers = new EpollLoopResources("fluxperf-test-server", 1);
        try {
            assertSame(EpollSocketChannel.class, loop.socketChannel());
            EventLoopGroup group = servers.onServer(true);
            assertSame(EpollSocketChannel.class, servers.onChannelClass(SocketChannel.class, group));
        } finally {
            loop.dispose(Duration.ofSeconds(2));
            servers.disposeLater(Duration.ZERO, Duration.ofSeconds(2)).block(Duration.ofSeconds(5));
        }
    }

    @Test
    void unavailableIoUringIsOneSentenceNamingTheFlag() {
        UserError e = assertThrows(UserError.class, () -> IoUringClientLoop.ensureAvailable(false,
                new UnsatisfiedLinkError("io_uring_setup failed: Operation not permitted")));
        assertEquals("--io-uring: Netty's io_uring transport is not available here: io_uring_setup failed: Operation not permitted",
                e.getMessage());
    }
}
