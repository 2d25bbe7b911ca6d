package io.fluxperf.engine.target.memcache;

import io.fluxperf.engine.target.ReplyPacer;
import io.fluxperf.engine.target.TargetOptions;
import io.fluxperf.engine.target.TargetServer;
import io.fluxperf.engine.target.TargetStats;
import io.fluxperf.engine.target.TimerSlack;
import io.fluxperf.engine.target.memcache.MemcacheCounters.Stat;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.resources.LoopResources;
import reactor.netty.tcp.TcpServer;

/**
 * An in-process memcache server speaking the text protocol as memcached 1.6 does, over
 * reactor-netty's {@link TcpServer} on its own event loops ({@code fluxperf-target-*} threads,
 * epoll when available). Items live in a memory-bounded LRU {@link MemcacheStore}.
 *
 * <p>The protocol work is done by plain Netty handlers added per connection (one
 * {@link MemcacheConnectionHandler} each); reactor-netty provides the listening socket, the loops
 * and the lifecycle. Since nothing subscribes to reactor-netty's inbound flux, auto-read is turned
 * on for each connection here.
 *
 * <p>Besides TCP (with TLS when the options give a certificate and key) it can listen on a Unix
 * socket (the same handlers) and on UDP. Over UDP it speaks memcached's UDP protocol: every
 * datagram starts with the 8-byte frame header (request id, sequence number, total datagrams,
 * reserved); a request is one datagram (memcached drops multi-datagram requests, and so does this
 * server); the replies to one datagram are split into datagrams of at most
 * {@value #UDP_MAX_DATAGRAM} bytes, header included, numbered 0..n-1 of n. Unlike memcached, each
 * datagram is decoded on its own (an incomplete request is not continued by the next datagram,
 * which may come from another client). With several threads on epoll, one UDP socket per thread
 * shares the port (SO_REUSEPORT). The reply-pacing test knobs apply to UDP replies too, by timers
 * without the TCP writer's spin.
 */
public final class MemcacheTargetServer implements TargetServer {
    private static final Duration BIND_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);
    /** memcached's UDP_MAX_PAYLOAD_SIZE: a reply datagram, frame header included. */
    static final int UDP_MAX_DATAGRAM = 1400;
    static final int UDP_HEADER = 8;
    /** Largest UDP payload over IPv4: requests up to this size are accepted whole. */
    private static final int UDP_MAX_REQUEST = 65_507;

    private final TargetOptions options;
    private final LoopResources loops;
    private final DisposableServer server;
    private final DisposableServer unixServer;
    private final List<Channel> udpChannels;
    private final ChannelGroup connections;
    private final MemcacheServerStats stats;
    private final InetSocketAddress address;
    private final InetSocketAddress udpAddress;
    private final AtomicBoolean closed = new AtomicBoolean();

    private MemcacheTargetServer(TargetOptions options, LoopResources loops, DisposableServer server,
                                 DisposableServer unixServer, List<Channel> udpChannels,
                                 ChannelGroup connections, MemcacheServerStats stats) {
        this.options = options;
        this.loops = loops;
        this.server = server;
        this.unixServer = unixServer;
        this.udpChannels = udpChannels;
        this.connections = connections;
        this.stats = stats;
        this.address = (InetSocketAddress) server.address();
        this.udpAddress = udpChannels.isEmpty() ? null : (InetSocketAddress) udpChannels.get(0).localAddress();
    }

    /**
     * Starts listening and returns once it does.
     *
     * @throws IllegalStateException if it cannot listen; the message names the listener (the TCP
     *                               address, {@code UDP host:port}, {@code Unix socket path}, or
     *                               the TLS files) and the reason
     */
    public static MemcacheTargetServer start(TargetOptions options) {
        SslContext ssl = options.tls() ? serverTls(options.tlsCert(), options.tlsKey()) : null;
        MemcacheStore store = new MemcacheStore(options.memoryLimitBytes(),
                MemcacheStore.segmentsFor(options.memoryLimitBytes(), options.threads()));
        MemcacheCounters counters = new MemcacheCounters();
        MemcacheServerStats stats = new MemcacheServerStats(counters, store, options.threads());
        ReplyPacer pacer = ReplyPacer.of(options, System.nanoTime());
        ChannelGroup connections = new DefaultChannelGroup("fluxperf-target", GlobalEventExecutor.INSTANCE);
        LoopResources loops = LoopResources.create("fluxperf-target", options.threads(), true);
        DisposableServer server = null;
        DisposableServer unixServer = null;
        List<Channel> udp = new ArrayList<>();
        String listener = options.bindAddress() + ":" + options.port();
        try {
            TcpServer base = TcpServer.create()
                    .runOn(loops)
                    .doOnConnection(connection -> {
                        connections.add(connection.channel());
                        connection.addHandlerLast("fluxperf-memcache",
                                new MemcacheConnectionHandler(store, counters, stats, pacer));
                        connection.channel().config().setAutoRead(true);
                    })
                    .handle((in, out) -> Mono.never()); // the connection lives until the client or close() ends it
            TcpServer tcp = base
                    .host(options.bindAddress())
                    .port(options.port())
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .childOption(ChannelOption.TCP_NODELAY, true);
            if (ssl != null) {
                tcp = tcp.secure(spec -> spec.sslContext(ssl));
            }
            server = tcp.bindNow(BIND_TIMEOUT);
            if (options.unixPath() != null) {
                listener = "Unix socket " + options.unixPath();
                Path path = options.unixPath();
                clearStaleSocket(path);
                unixServer = base.bindAddress(() -> new DomainSocketAddress(path.toString())).bindNow(BIND_TIMEOUT);
            }
            if (options.udpPort() >= 0) {
                listener = "UDP " + options.bindAddress() + ":" + options.udpPort();
                udp = bindUdp(options, loops, store, counters, stats, pacer);
            }
            if (pacer != null) {
                TimerSlack.minimize(loops.onServer(true)); // the loops that serve connections (see runOn)
            }
            return new MemcacheTargetServer(options, loops, server, unixServer, udp, connections, stats);
        } catch (RuntimeException e) {
            for (Channel c : udp) {
                c.close().awaitUninterruptibly(CLOSE_TIMEOUT.toMillis());
            }
            for (DisposableServer s : new DisposableServer[] {server, unixServer}) {
                if (s != null) {
                    s.disposeNow(CLOSE_TIMEOUT);
                }
            }
            loops.disposeLater(Duration.ZERO, CLOSE_TIMEOUT).block(CLOSE_TIMEOUT);
            throw new IllegalStateException("cannot listen on " + listener + ": " + rootMessage(e), e);
        }
    }

    /** Checks the certificate and key and makes the server's TLS context from them. */
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

    /** One UDP socket, or with several threads on epoll one per thread on the same port (SO_REUSEPORT). */
    private static List<Channel> bindUdp(TargetOptions options, LoopResources loops, MemcacheStore store,
                                         MemcacheCounters counters, MemcacheServerStats stats, ReplyPacer pacer) {
        EventLoopGroup group = loops.onServer(true);
        Class<? extends DatagramChannel> type = loops.onChannelClass(DatagramChannel.class, group);
        boolean reusePort = options.threads() > 1 && EpollDatagramChannel.class.isAssignableFrom(type);
        Bootstrap b = new Bootstrap().group(group).channel(type)
                .option(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(UDP_MAX_REQUEST + UDP_HEADER + 1))
                .option(ChannelOption.SO_RCVBUF, 4 << 20)
                .handler(new io.netty.channel.ChannelInitializer<DatagramChannel>() {
                    @Override
                    protected void initChannel(DatagramChannel ch) {
                        ch.pipeline().addLast("fluxperf-memcache-udp", new UdpHandler(store, counters, stats, pacer));
                    }
                });
        if (reusePort) {
            b.option(EpollChannelOption.SO_REUSEPORT, true);
        }
        List<Channel> channels = new ArrayList<>();
        int port = options.udpPort();
        int sockets = reusePort ? options.threads() : 1;
        try {
            for (int i = 0; i < sockets; i++) {
                io.netty.channel.ChannelFuture bound = b.bind(options.bindAddress(), port).awaitUninterruptibly();
                if (!bound.isSuccess()) {
                    throw new IllegalStateException(bound.cause());
                }
                Channel ch = bound.channel();
                channels.add(ch);
                port = ((InetSocketAddress) ch.localAddress()).getPort(); // the others share the first one's port
            }
            return channels;
        } catch (RuntimeException e) {
            for (Channel c : channels) {
                c.close().awaitUninterruptibly(CLOSE_TIMEOUT.toMillis());
            }
            throw e;
        }
    }

    public TargetOptions options() {
        return options;
    }

    @Override
    public InetSocketAddress address() {
        return address;
    }

    @Override
    public InetSocketAddress udpAddress() {
        return udpAddress;
    }

    @Override
    public Path unixPath() {
        return unixServer == null ? null : options.unixPath();
    }

    @Override
    public boolean tls() {
        return options.tls();
    }

    @Override
    public String describe() {
        StringBuilder s = new StringBuilder("embedded memcache on ")
                .append(address.getAddress().getHostAddress()).append(':').append(address.getPort());
        if (options.tls()) {
            s.append(" (TLS)");
        }
        if (udpAddress != null) {
            s.append(", UDP ").append(udpAddress.getAddress().getHostAddress()).append(':').append(udpAddress.getPort());
        }
        if (unixServer != null) {
            s.append(", Unix socket ").append(options.unixPath());
        }
        if (!options.responseDelay().isZero()) {
            s.append(", reply delay ").append(options.responseDelay().toNanos() / 1000).append(" us");
        }
        if (!options.stallEvery().isZero()) {
            s.append(", stalls of ").append(options.stallFor().toMillis()).append(" ms every ")
                    .append(options.stallEvery().toMillis()).append(" ms");
        }
        return s.toString();
    }

    @Override
    public TargetStats stats() {
        return stats.targetStats();
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        for (DisposableServer s : new DisposableServer[] {server, unixServer}) {
            if (s == null) {
                continue;
            }
            try {
                s.disposeNow(CLOSE_TIMEOUT);
            } catch (RuntimeException e) {
                // connections that did not close in time are closed below with their loops
            }
        }
        for (Channel c : udpChannels) {
            c.close().awaitUninterruptibly(CLOSE_TIMEOUT.toMillis());
        }
        connections.close().awaitUninterruptibly(CLOSE_TIMEOUT.toMillis());
        loops.disposeLater(Duration.ZERO, CLOSE_TIMEOUT).block(CLOSE_TIMEOUT);
        if (unixServer != null) {
            try {
                Files.deleteIfExists(options.unixPath());
            } catch (IOException ignored) {
                // a leftover socket file is replaced by the next server
            }
        }
    }

    /** The innermost cause in plain words: "Address already in use", "unknown host". */
    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        if (t instanceof java.nio.channels.UnresolvedAddressException) {
            return "unknown host";
        }
        String message = t.getMessage() != null ? t.getMessage() : t.getClass().getSimpleName();
        return message.replaceFirst("^\\w+\\(\\.\\.\\) failed with error\\(-?\\d+\\): ", ""); // Netty's native prefix
    }

    /**
     * memcache over UDP on one socket (so one event loop): each datagram is one request, answered
     * with its frame header's request id, the replies split into numbered datagrams. A datagram
     * shorter than the header, or one of a multi-datagram request, is dropped, as memcached does.
     */
    static final class UdpHandler extends ChannelInboundHandlerAdapter {
        private static final InternalLogger LOG = InternalLoggerFactory.getInstance(UdpHandler.class);

        private final MemcacheStore store;
        private final MemcacheCounters counters;
        private final MemcacheServerStats stats;
        private final ReplyPacer pacer;
        private MemcacheCounters.Cell cell;
        private MemcacheCommandProcessor processor;
        /** Replies that the processor handed over early (a reply batch past its size bound) for this datagram. */
        private ByteBuf early;

        UdpHandler(MemcacheStore store, MemcacheCounters counters, MemcacheServerStats stats, ReplyPacer pacer) {
            this.store = store;
            this.counters = counters;
            this.stats = stats;
            this.pacer = pacer;
        }

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            cell = counters.cellFor(ctx.channel().eventLoop());
            processor = new MemcacheCommandProcessor(store, cell, stats, ctx.alloc(), this::takeEarly,
                    ctx.channel().localAddress());
        }

        private void takeEarly(ByteBuf part) {
            if (early == null) {
                early = part;
            } else {
                early.writeBytes(part);
                part.release();
            }
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (!(msg instanceof DatagramPacket packet)) {
                io.netty.util.ReferenceCountUtil.release(msg);
                return;
            }
            long arrival = pacer != null ? System.nanoTime() : 0L;
            try {
                ByteBuf in = packet.content();
                cell.add(Stat.BYTES_READ, in.readableBytes());
                if (in.readableBytes() < UDP_HEADER) {
                    return;
                }
                int requestId = in.readUnsignedShort();
                int sequence = in.readUnsignedShort();
                int total = in.readUnsignedShort();
                in.skipBytes(2);
                if (sequence != 0 || total != 1) {
                    return; // memcached: multi-datagram requests are not supported, and dropped
                }
                processor.now(System.currentTimeMillis());
                // a fresh decoder per datagram: an unfinished request must not swallow the next datagram
                new MemcacheRequestDecoder().decode(in, processor);
                ByteBuf replies = processor.takeReplies();
                if (early != null) {
                    if (replies != null) {
                        early.writeBytes(replies);
                        replies.release();
                    }
                    replies = early;
                    early = null;
                }
                if (replies != null) {
                    reply(ctx, requestId, replies, packet.sender(), arrival);
                }
            } finally {
                packet.release();
            }
        }

        /** Splits the replies into numbered datagrams and writes them, now or when the pacer says. */
        private void reply(ChannelHandlerContext ctx, int requestId, ByteBuf replies, InetSocketAddress to, long arrival) {
            int chunk = UDP_MAX_DATAGRAM - UDP_HEADER;
            int total = (replies.readableBytes() + chunk - 1) / chunk;
            if (total > 0xFFFF) {
                replies.release();
                replies = ctx.alloc().ioBuffer(64).writeBytes(
                        "SERVER_ERROR reply too large for UDP\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                total = 1;
            }
            cell.add(Stat.BYTES_WRITTEN, replies.readableBytes() + (long) total * UDP_HEADER);
            List<DatagramPacket> datagrams = pacer == null ? null : new ArrayList<>(total);
            for (int seq = 0; seq < total; seq++) {
                int n = Math.min(chunk, replies.readableBytes());
                ByteBuf d = ctx.alloc().ioBuffer(UDP_HEADER + n);
                d.writeShort(requestId).writeShort(seq).writeShort(total).writeShort(0);
                d.writeBytes(replies, n);
                DatagramPacket p = new DatagramPacket(d, to);
                if (datagrams != null) {
                    datagrams.add(p);
                } else {
                    ctx.write(p, ctx.voidPromise());
                }
            }
            replies.release();
            if (datagrams == null) {
                ctx.flush();
                return;
            }
            long now = System.nanoTime();
            long due = pacer.releaseTime(arrival, now);
            Runnable send = () -> {
                for (DatagramPacket p : datagrams) {
                    ctx.write(p, ctx.voidPromise());
                }
                ctx.flush();
            };
            if (due <= now) {
                send.run();
            } else {
                ctx.executor().schedule(send, due - now, TimeUnit.NANOSECONDS);
            }
        }

        @Override
        public void handlerRemoved(ChannelHandlerContext ctx) {
            if (processor != null) {
                processor.release();
            }
            if (early != null) {
                early.release();
                early = null;
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // a UDP socket stays open: an ICMP error about one client must not stop the others
            if (!(cause instanceof IOException)) {
                LOG.warn("memcache UDP listener {}: unexpected error", ctx.channel(), cause);
            }
        }
    }
}
