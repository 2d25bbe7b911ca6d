package io.fluxperf.engine.target;

import io.fluxperf.engine.host.TimerSlack;
import io.fluxperf.engine.netty.EpollLoopResources;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.UnresolvedAddressException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;
import reactor.core.publisher.Mono;
import reactor.netty.Connection;
import reactor.netty.DisposableServer;
import reactor.netty.resources.LoopResources;
import reactor.netty.tcp.TcpServer;

/**
 * The listening side of an embedded target: its own event loops ({@link EpollLoopResources}:
 * epoll when available, never io_uring), a TCP listener over reactor-netty's
 * {@link TcpServer} (with TLS when given a context), and optionally a Unix-socket listener with the
 * same handlers and UDP sockets; every accepted connection is tracked so that {@link #close()}
 * can close it.
 *
 * <p>The protocol work is done by plain Netty handlers that the protocol adds to each connection;
 * reactor-netty provides the listening socket, the loops and the lifecycle. Since nothing
 * subscribes to reactor-netty's inbound flux, auto-read is turned on for each connection here, and
 * a connection lives until the client or {@link #close()} ends it.
 *
 * <p>Use: make one, bind its listeners inside a try block, and on a {@link RuntimeException} throw
 * {@link #failed}, which closes whatever was bound and names the listener that failed.
 */
public final class Listeners implements AutoCloseable {
    private static final Duration BIND_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);

    private final LoopResources loops;
    private final ChannelGroup connections;
    private final int threads;
    private final AtomicBoolean closed = new AtomicBoolean();

    private DisposableServer tcp;
    private boolean tls;
    private DisposableServer unix;
    private Path unixPath;
    private final List<Channel> udp = new ArrayList<>();
    /** The listener being bound, for {@link #failed}. */
    private String binding = "";

    /**
     * @param loopPrefix  the prefix of the event-loop threads' names, e.g. {@code fluxperf-target}
     * @param groupName   the name of the group of accepted connections
     * @param threads     event loops
     */
    public Listeners(String loopPrefix, String groupName, int threads) {
        this.loops = new EpollLoopResources(loopPrefix, threads);
        this.connections = new DefaultChannelGroup(groupName, GlobalEventExecutor.INSTANCE);
        this.threads = threads;
    }

    /**
     * A TCP server on these loops whose connections get their handlers from {@code init}; bind it
     * with {@link #bindTcp} and, for the same handlers on a Unix socket, {@link #bindUnix}.
     */
    public TcpServer tcpServer(Consumer<Connection> init) {
        return TcpServer.create()
                .runOn(loops)
                .doOnConnection(connection -> {
                    connections.add(connection.channel());
                    init.accept(connection);
                    connection.channel().config().setAutoRead(true);
                })
                .handle((in, out) -> Mono.never()); // the connection lives until the client or close() ends it
    }

    /** Binds {@code server} on {@code host:port} (port 0 for any), with TLS when {@code ssl} is not null. */
    public void bindTcp(TcpServer server, String host, int port, SslContext ssl) {
        binding = host + ":" + port;
        TcpServer s = server
                .host(host)
                .port(port)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true);
        if (ssl != null) {
            s = s.secure(spec -> spec.sslContext(ssl));
        }
        tcp = s.bindNow(BIND_TIMEOUT);
        tls = ssl != null;
    }

    /** Binds {@code server} (from {@link #tcpServer}) on a Unix socket, replacing a stale socket file as memcached does. */
    public void bindUnix(TcpServer server, Path path) {
        binding = "Unix socket " + path;
        clearStaleSocket(path);
        unix = server.bindAddress(() -> new DomainSocketAddress(path.toString())).bindNow(BIND_TIMEOUT);
        unixPath = path;
    }

    /**
     * Binds UDP on {@code host:port}: one socket, or with several threads on epoll one per thread
     * on the same port (SO_REUSEPORT), each with its own handler from {@code handler}.
     *
     * @param maxDatagram bytes of the largest datagram read whole
     * @param handlerName the handler's name in each socket's pipeline
     */
    public void bindUdp(String host, int port, int maxDatagram, String handlerName, Supplier<ChannelHandler> handler) {
        binding = "UDP " + host + ":" + port;
        EventLoopGroup group = loops.onServer(true);
        Class<? extends DatagramChannel> type = loops.onChannelClass(DatagramChannel.class, group);
        boolean reusePort = threads > 1 && EpollDatagramChannel.class.isAssignableFrom(type);
        Bootstrap b = new Bootstrap().group(group).channel(type)
                .option(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(maxDatagram))
                .option(ChannelOption.SO_RCVBUF, 4 << 20)
                .handler(new ChannelInitializer<DatagramChannel>() {
                    @Override
                    protected void initChannel(DatagramChannel ch) {
                        ch.pipeline().addLast(handlerName, handler.get());
                    }
                });
        if (reusePort) {
            b.option(EpollChannelOption.SO_REUSEPORT, true);
        }
        int sockets = reusePort ? threads : 1;
        for (int i = 0; i < sockets; i++) {
            ChannelFuture bound = b.bind(host, port).awaitUninterruptibly();
            if (!bound.isSuccess()) {
                throw new IllegalStateException(bound.cause());
            }
            Channel ch = bound.channel();
            udp.add(ch);
            port = ((InetSocketAddress) ch.localAddress()).getPort(); // the others share the first one's port
        }
    }

    /** Lets the loops wake up for timers without the kernel's timer slack (for paced replies): see {@link TimerSlack}. */
    public void minimizeTimerSlack() {
        TimerSlack.minimize(loops.onServer(true)); // the loops that serve connections (see runOn)
    }

    /**
     * Closes everything bound so far and says why binding failed.
     *
     * @return an exception naming the listener being bound and the innermost cause, to throw
     */
    public IllegalStateException failed(RuntimeException e) {
        close();
        return new IllegalStateException("cannot listen on " + binding + ": " + rootMessage(e), e);
    }

    /** The TCP listener's address, with the real port when port 0 was asked for. */
    public InetSocketAddress address() {
        return (InetSocketAddress) tcp.address();
    }

    /** Whether the TCP listener speaks TLS. */
    public boolean tls() {
        return tls;
    }

    /** The first UDP socket's address, or null when there is none. */
    public InetSocketAddress udpAddress() {
        return udp.isEmpty() ? null : (InetSocketAddress) udp.get(0).localAddress();
    }

    /** The Unix socket's path, or null when there is none. */
    public Path unixPath() {
        return unixPath;
    }

    /** Stops listening, closes every connection, stops the loops and removes the socket file; idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        for (DisposableServer s : new DisposableServer[] {tcp, unix}) {
            if (s == null) {
                continue;
            }
            try {
                s.disposeNow(CLOSE_TIMEOUT);
            } catch (RuntimeException e) {
                // connections that did not close in time are closed below with their loops
            }
        }
        for (Channel c : udp) {
            c.close().awaitUninterruptibly(CLOSE_TIMEOUT.toMillis());
        }
        connections.close().awaitUninterruptibly(CLOSE_TIMEOUT.toMillis());
        loops.disposeLater(Duration.ZERO, CLOSE_TIMEOUT).block(CLOSE_TIMEOUT);
        if (unixPath != null) {
            try {
                Files.deleteIfExists(unixPath);
            } catch (IOException ignored) {
                // a leftover socket file is replaced by the next server
            }
        }
    }

    /** Checks the certificate and key and makes a server's TLS context from them. */
    public static SslContext serverTls(Path certificate, Path key) {
        for (Path p : new Path[] {certificate, key}) {
            if (!Files.isReadable(p)) {
                throw new IllegalStateException("TLS " + (p == certificate ? "certificate " : "key ") + p
                        + (Files.exists(p) ? " cannot be read" : " does not exist"));
            }
        }
        try {
            return SslContextBuilder.forServer(certificate.toFile(), key.toFile()).build();
        } catch (Exception e) { // SSLException, IllegalArgumentException for a PEM file without a certificate or key
            throw new IllegalStateException("TLS certificate " + certificate + " and key " + key + " cannot be used: "
                    + rootMessage(e), e);
        }
    }

    /** The innermost cause in plain words: "Address already in use", "unknown host". */
    static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        if (t instanceof UnresolvedAddressException) {
            return "unknown host";
        }
        String message = t.getMessage() != null ? t.getMessage() : t.getClass().getSimpleName();
        return message.replaceFirst("^\\w+\\(\\.\\.\\) failed with error\\(-?\\d+\\): ", ""); // Netty's native prefix
    }

    /** memcached removes a socket file left by an earlier server; anything else in the way is a mistake. */
    private static void clearStaleSocket(Path path) {
        if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
            if (path.toAbsolutePath().getParent() != null && !Files.isDirectory(path.toAbsolutePath().getParent())) {
                throw new IllegalStateException("the directory " + path.toAbsolutePath().getParent() + " does not exist");
            }
            return;
        }
        if (!isSocket(path)) {
            throw new IllegalStateException(path + " exists and is not a socket");
        }
        try {
            Files.delete(path);
        } catch (IOException e) {
            throw new IllegalStateException("cannot remove the old socket file: " + e.getMessage(), e);
        }
    }

    private static boolean isSocket(Path path) {
        try {
            int mode = (Integer) Files.getAttribute(path, "unix:mode", LinkOption.NOFOLLOW_LINKS);
            return (mode & 0170000) == 0140000;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return false;
        }
    }
}
