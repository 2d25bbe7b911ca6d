package io.fluxperf.engine.connection;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.config.ConnectionOptions;
import io.fluxperf.engine.config.RunConfig;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.IoEventLoop;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.List;
import java.util.function.BiConsumer;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;

/**
 * Opens the channels of one load thread: TCP over IPv4/IPv6 or a Unix socket, with TLS when
 * asked, on the thread's event loop (epoll on Linux, or io_uring with {@code --io-uring}).
 *
 * <p>Why a Netty {@link Bootstrap} rather than reactor-netty's {@code TcpClient}: each connect
 * through {@code TcpClient} builds a reactive connection (observers, operations, a Mono chain) that
 * this engine does not use, since its own handler reads the replies. Measured with
 * {@code --connect-per-request} against memcached, that cost about 270 µs of CPU per connection;
 * connections per second are a figure users measure (dperf's CPS), so the client makes plain
 * channels. For connect per request without TLS, even those cost more than the request:
 * {@link SocketWire} registers a bare socket on the loop instead. Held connections use one too with
 * {@code -Dfluxperf.connect.heldBareSockets=true} (off by default: paced, it cost the same as a channel;
 * docs/internals.md, "Bare sockets").
 */
public final class Transports {
    /**
     * {@code -Dfluxperf.connect.heldBareSockets=true}: held connections without TLS on epoll are bare
     * sockets too. Read once; the connection package's tests switch it through
     * {@link #heldBareSockets(boolean)}.
     */
    private static volatile boolean heldBareSockets = Boolean.getBoolean("fluxperf.connect.heldBareSockets");

    private final Bootstrap bootstrap;
    private final SocketAddress target;
    private final SslContext ssl;
    private final String serverName;
    private final boolean verifyHost;
    /** Connect per request (or held, when switched on) without TLS, on epoll: bare sockets ({@link SocketWire}) instead of channels. */
    private final boolean bareSockets;
    /** Connections that carry many requests (not one per request). */
    private final boolean held;
    private final IoEventLoop loop;
    /** The connect timeouts of bare sockets; null with channels, which time their own connects. */
    private final ConnectDeadlines connectDeadlines;
    private final boolean tcpNoDelay;
    private final int connectMillis;

    public Transports(RunConfig config, ClientLoop clientLoop, SocketAddress target) {
        this.target = target;
        this.connectMillis = config.connectTimeout() != null
                ? (int) Math.max(1, Math.min(Integer.MAX_VALUE, config.connectTimeout().toMillis()))
                : (int) Math.max(1000, Math.min(5000, config.timeout().toMillis() * 2));
        this.tcpNoDelay = config.tcpNoDelay();
        Bootstrap b = new Bootstrap().group(clientLoop.loop()).option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectMillis);
        if (target instanceof DomainSocketAddress) {
            b.channel(clientLoop.domainSocketChannel());
        } else {
            // each option set is a system call per connection, which counts at thousands of
            // connections per second: Netty's TCP channels start with Nagle's algorithm off, and a
            // connection that carries one request has no idle time to keep alive
            b.channel(clientLoop.socketChannel());
            if (!config.tcpNoDelay()) {
                b.option(ChannelOption.TCP_NODELAY, false);
            }
            if (!config.connection().connectPerRequest()) {
                b.option(ChannelOption.SO_KEEPALIVE, true);
            }
        }
        ConnectionOptions c = config.connection();
        this.ssl = c.tls() ? sslContext(c) : null;
        this.serverName = c.sni() != null ? c.sni()
                : target instanceof InetSocketAddress inet ? inet.getHostString() : null;
        this.verifyHost = !c.tlsInsecure();
        this.held = !c.connectPerRequest();
        this.bareSockets = (c.connectPerRequest() || heldBareSockets) && ssl == null
                && SocketWire.supported(clientLoop.loop(), target);
        this.loop = bareSockets ? (IoEventLoop) clientLoop.loop() : null;
        this.connectDeadlines = bareSockets ? new ConnectDeadlines(loop, connectMillis) : null;
        this.bootstrap = b.handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                if (ssl != null) {
                    ch.pipeline().addLast("tls", tlsHandler(ch));
                    ch.pipeline().addLast("tls-handshake-errors", HANDSHAKE_ERRORS);
                }
            }
        });
    }

    /**
     * Connects {@code slot}; {@code done} gets the wire once it is usable (after the TLS handshake),
     * or the failure. Called on the event loop; {@code done} runs there too.
     */
    void connect(WireListener slot, BiConsumer<Wire, Throwable> done) {
        if (bareSockets) {
            SocketWire.connect(loop, target, slot, ByteBufAllocator.DEFAULT, tcpNoDelay, held, connectDeadlines, done);
            return;
        }
        ChannelFuture connect = bootstrap.connect(target);
        connect.addListener(f -> {
            if (!f.isSuccess()) {
                done.accept(null, f.cause());
                return;
            }
            Channel ch = connect.channel();
            SslHandler tls = ch.pipeline().get(SslHandler.class);
            if (tls == null) {
                done.accept(new ChannelWire(ch, slot), null);
                return;
            }
            tls.handshakeFuture().addListener(h -> {
                if (h.isSuccess()) {
                    ch.pipeline().remove(HANDSHAKE_ERRORS);
                    done.accept(new ChannelWire(ch, slot), null);
                } else {
                    ch.close();
                    // no cause: Failures.describe reports the innermost cause, and this sentence must stay
                    done.accept(null, new SSLException("TLS handshake failed: " + Failures.describe(h.cause())));
                }
            });
        });
    }

    /**
     * Switches held bare sockets on or off for the Transports made from now on (tests of the
     * connection package, one at a time); returns the setting before.
     */
    static boolean heldBareSockets(boolean on) {
        boolean was = heldBareSockets;
        heldBareSockets = on;
        return was;
    }

    /** Whether this makes bare sockets ({@link SocketWire}) rather than channels. */
    boolean bareSockets() {
        return bareSockets;
    }

    /** Until the handshake is done its failure is reported by the handshake future; this keeps Netty from logging it again. */
    @io.netty.channel.ChannelHandler.Sharable
    private static final class HandshakeErrors extends io.netty.channel.ChannelInboundHandlerAdapter {
        @Override
        public void exceptionCaught(io.netty.channel.ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }

    private static final HandshakeErrors HANDSHAKE_ERRORS = new HandshakeErrors();

    private SslHandler tlsHandler(Channel ch) {
        SslHandler handler = target instanceof InetSocketAddress inet && serverName != null
                ? ssl.newHandler(ch.alloc(), serverName, inet.getPort())
                : ssl.newHandler(ch.alloc());
        SSLEngine engine = handler.engine();
        SSLParameters params = engine.getSSLParameters();
        if (serverName != null && !serverName.isEmpty() && !isIpLiteral(serverName)) {
            params.setServerNames(List.of(new SNIHostName(serverName)));
        }
        if (verifyHost) {
            // the certificate must name the server, as a browser checks
            params.setEndpointIdentificationAlgorithm("HTTPS");
        }
        engine.setSSLParameters(params);
        return handler;
    }

    private static SslContext sslContext(ConnectionOptions c) {
        try {
            SslContextBuilder builder = SslContextBuilder.forClient();
            if (c.tlsInsecure()) {
                builder.trustManager(InsecureTrustManagerFactory.INSTANCE);
            } else if (c.tlsCa() != null) {
                builder.trustManager(c.tlsCa().toFile());
            }
            return builder.build();
        } catch (SSLException | IllegalArgumentException e) {
            throw new UserError("--tls-ca: " + (c.tlsCa() != null ? c.tlsCa() + ": " : "") + "cannot be used: "
                    + Failures.describe(e));
        }
    }

    private static boolean isIpLiteral(String host) {
        return host.indexOf(':') >= 0 || host.chars().allMatch(ch -> ch == '.' || Character.isDigit(ch));
    }
}
