package io.fluxperf.engine.connection;

import io.fluxperf.engine.config.ConnectionOptions;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.request.Command;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.uring.IoUring;
import io.netty.channel.unix.DomainSocketAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The socket options a load connection gets: Nagle's algorithm off unless --tcp-nodelay false
 * turns it on, and keep-alive on held connections only. A connection per request is a bare socket
 * ({@link SocketWireTest} checks its options), unless TLS needs a channel; held connections are bare
 * sockets too with {@code -Dfluxperf.connect.heldBareSockets=true}, on epoll without TLS.
 */
class TransportsSocketOptionsTest {
    private ServerSocket server;
    private ClientLoop loop;

    @BeforeEach
    void start() throws Exception {
        server = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
        loop = ClientLoop.create("fluxperf-options-test", false);
    }

    @AfterEach
    void stop() throws Exception {
        loop.dispose(Duration.ofSeconds(2));
        server.close();
    }

    private Wire connect(boolean tcpNoDelay, boolean connectPerRequest) throws Exception {
        return connect(loop, server, tcpNoDelay, connectPerRequest);
    }

    /** Connects to {@code server} through {@link Transports} on {@code loop}, as a load connection does. */
    static Wire connect(ClientLoop loop, ServerSocket server, boolean tcpNoDelay, boolean connectPerRequest)
            throws Exception {
        ConnectionOptions c = ConnectionOptions.builder().connectPerRequest(connectPerRequest).build();
        InetSocketAddress target = new InetSocketAddress(server.getInetAddress(), server.getLocalPort());
        Transports transports = new Transports(config(tcpNoDelay, c), loop, target);
        CompletableFuture<Wire> done = new CompletableFuture<>();
        loop.loop().execute(() -> transports.connect(new RecordingWireListener(), (ch, e) -> {
            if (e != null) {
                done.completeExceptionally(e);
            } else {
                done.complete(ch);
            }
        }));
        Wire wire = done.get(5, TimeUnit.SECONDS);
        assertNotNull(wire);
        return wire;
    }

    private static RunConfig config(boolean tcpNoDelay, ConnectionOptions c) {
        return RunConfig.builder().threads(1).connections(1).pipeline(1).duration(Duration.ofSeconds(1))
                .windows(1).timeout(Duration.ofSeconds(1)).tcpNoDelay(tcpNoDelay).seed(7)
                .workload(WorkloadConfig.of(Command.GET)).connection(c).build();
    }

    private Channel channel(boolean tcpNoDelay) throws Exception {
        Wire wire = connect(tcpNoDelay, false);
        assertInstanceOf(ChannelWire.class, wire);
        return ((ChannelWire) wire).channel();
    }

    @Test
    void heldConnectionsHaveNagleOffAndKeepAlive() throws Exception {
        Channel ch = channel(true);
        assertEquals(true, ch.config().getOption(ChannelOption.TCP_NODELAY));
        assertEquals(true, ch.config().getOption(ChannelOption.SO_KEEPALIVE));
        ch.close().sync();
    }

    @Test
    void tcpNoDelayFalseTurnsNagleOn() throws Exception {
        Channel ch = channel(false);
        assertEquals(false, ch.config().getOption(ChannelOption.TCP_NODELAY));
        ch.close().sync();
    }

    @Test
    void heldBareSocketsWhenSwitchedOnWithTheChannelsOptions() throws Exception {
        boolean before = Transports.heldBareSockets(true);
        try {
            SocketWire nagleOff = assertInstanceOf(SocketWire.class, connect(true, false));
            SocketWire nagleOn = assertInstanceOf(SocketWire.class, connect(false, false));
            loop.loop().submit(() -> {
                assertTrue(nagleOff.noDelay(), "TCP_NODELAY at connect: small requests back to back wait for no ACK");
                assertTrue(nagleOff.keepAlive(), "SO_KEEPALIVE, as a held channel");
                assertFalse(nagleOn.noDelay(), "--tcp-nodelay false keeps Nagle's algorithm");
                assertTrue(nagleOn.keepAlive());
                nagleOff.close();
                nagleOn.close();
                return null;
            }).get(5, TimeUnit.SECONDS);

            ConnectionOptions held = ConnectionOptions.defaults();
            DomainSocketAddress unix = new DomainSocketAddress("/tmp/fluxperf-held-test.sock");
            assertTrue(new Transports(config(true, held), loop, unix).bareSockets(), "a Unix socket");
            ConnectionOptions tls = ConnectionOptions.builder().tls(true).tlsInsecure(true).build();
            InetSocketAddress target = new InetSocketAddress(server.getInetAddress(), server.getLocalPort());
            assertFalse(new Transports(config(true, tls), loop, target).bareSockets(), "TLS stays on channels");
            if (IoUring.isAvailable()) {
                ClientLoop uring = ClientLoop.create("fluxperf-options-uring", true);
                try {
                    assertFalse(new Transports(config(true, held), uring, target).bareSockets(), "io_uring stays on channels");
                } finally {
                    uring.dispose(Duration.ofSeconds(2));
                }
            }
        } finally {
            Transports.heldBareSockets(before);
        }
        assertEquals(before, new Transports(config(true, ConnectionOptions.defaults()), loop,
                new InetSocketAddress(server.getInetAddress(), server.getLocalPort())).bareSockets(),
                "as -Dfluxperf.connect.heldBareSockets says: held connections are channels by default");
    }

    @Test
    void aConnectionPerRequestIsABareSocket() throws Exception {
        Wire wire = connect(true, true);
        assertInstanceOf(SocketWire.class, wire);
        assertTrue(wire.isActive());
        loop.loop().submit(wire::close).get(5, TimeUnit.SECONDS);
    }
}
