package io.fluxperf.engine.admin;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.admin.AdminConnections.Limits;
import io.fluxperf.engine.admin.AdminRoutes.Attached;
import io.fluxperf.engine.config.AdminAddress;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.workload.RateControl;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * The admin endpoint ({@code --admin}, {@code [general] admin}): an HTTP server on a loop of its
 * own, never a load loop (invariant 10), that shows the running run's figures and steers it.
 * <ul>
 *   <li>{@code GET /}: the live dashboard ({@code dashboard.html}, self-contained);</li>
 *   <li>{@code GET /metrics}: Prometheus' text exposition ({@link AdminMetrics});</li>
 *   <li>{@code GET /metrics.json}, {@code GET /vars}: the same figures as JSON and as lines;</li>
 *   <li>{@code PUT /ratelimit/RATE}: the run's total rate, shared by the workloads' weights;
 *       {@code PUT /ratelimit/WORKLOAD/RATE}: one workload's rate;</li>
 *   <li>{@code POST /quitquitquit}: ends the run as Ctrl-C does, as a wanted end (exit 0).</li>
 * </ul>
 * A bad request gets a 4xx status (505 for a version other than HTTP/1.x) and a one-sentence
 * body, touches nothing of the run, and logs nothing ({@link AdminHttpHandler}, {@link AdminRoutes}).
 *
 * <p>It is Netty's HTTP/1.1 codec on a bootstrap of its own rather than reactor-netty's server,
 * so that every byte a client sends is answered here: reactor-netty logs a WARN for each request
 * that fails to decode and answers it without a body, and answers in whatever version was asked.
 *
 * <p>It cannot crowd out the run: its connections are capped, slow and idle ones closed
 * ({@link AdminConnections}), and the cap fits in what the process's file descriptor limit leaves
 * over the run's connections ({@link #attach}), so under a low {@code ulimit -n} the load's
 * connections still open.
 *
 * <p>The endpoint outlives a run: it starts before the load (so that a scraper finds it early) and
 * whoever started it closes it, after the run's report; until a run is {@link #attach attached}
 * it answers 503.
 */
public final class AdminEndpoint implements AutoCloseable {
    private final EventLoopGroup loop;
    private final Channel server;
    private final AdminConnections connections;
    private volatile Attached run;

    private AdminEndpoint(AdminAddress address, Limits limits) {
        AdminRoutes routes = new AdminRoutes(resource("dashboard.html"));
        boolean epoll = Epoll.isAvailable();
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        this.loop = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("fluxperf-admin", true), io);
        this.connections = new AdminConnections(limits);
        Class<? extends ServerChannel> type = epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
        try {
            this.server = new ServerBootstrap().group(loop).channel(type)
                    .option(ChannelOption.SO_BACKLOG, 128)
                    .handler(new AcceptFailures())
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(connections.guard())
                                    .addLast(new HttpServerCodec(new HttpDecoderConfig()
                                            .setMaxInitialLineLength(AdminHttpHandler.MAX_LINE)
                                            .setMaxHeaderSize(AdminHttpHandler.MAX_HEADERS)))
                                    .addLast(new AdminHttpHandler(routes, () -> run));
                        }
                    })
                    .bind(new InetSocketAddress(address.host(), address.port())).syncUninterruptibly().channel();
        } catch (Exception e) { // Netty's bind throws its native IOException unchecked
            loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
            throw new UserError("--admin: cannot listen on " + address.host() + ":" + address.port() + " ("
                    + reason(e) + ")", e);
        }
        loop.execute(() -> {
            connections.cap(AdminConnections.budget(limits.connections(), fdLimit(), fdOpen(), 0));
            connections.start(loop.next());
        });
    }

    /**
     * Starts listening on {@code spec} ({@code [ADDR:]PORT}).
     *
     * @param place how the user gave it ("--admin", "[general] admin"), for the message of a bad one
     * @throws UserError for a bad address or one it cannot bind
     */
    public static AdminEndpoint start(String spec, String place) {
        return start(spec, place, Limits.DEFAULT);
    }

    /** The same with other limits (a test's short timeouts). */
    static AdminEndpoint start(String spec, String place, Limits limits) {
        AdminAddress address;
        try {
            address = AdminAddress.parse(spec);
        } catch (IllegalArgumentException e) {
            throw new UserError(place + ": " + e.getMessage());
        }
        return new AdminEndpoint(address, limits);
    }

    private static String reason(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null) {
            t = t.getCause();
        }
        String m = t.getMessage();
        return m == null ? "cannot bind" : m;
    }

    /** The address it listens on (with the port the system chose for port 0). */
    public InetSocketAddress address() {
        return (InetSocketAddress) server.localAddress();
    }

    /** {@code http://HOST:PORT/}. */
    public String url() {
        InetSocketAddress a = address();
        String host = a.getAddress().getHostAddress();
        return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort() + "/";
    }

    /**
     * Shows {@code figures} and steers the run with {@code rates} (null: its rate cannot be set) and
     * {@code quit} (ends the run as a wanted stop). The cap on connections shrinks, if it must, so
     * that the run's connections ({@link #loadDescriptors}) and a reserve fit under the process's
     * file descriptor limit beside it.
     */
    public void attach(LiveFigures figures, RateControl rates, Runnable quit) {
        run = new Attached(figures, new AdminMetrics(figures::snapshot), rates, quit);
        long needs = loadDescriptors(figures.config());
        // the endpoint's own connections open now are not the run's: they are what the cap bounds
        loop.execute(() -> connections.cap(AdminConnections.budget(connections.wanted(), fdLimit(),
                fdOpen() - connections.size(), needs)));
    }

    /**
     * File descriptors the load may hold at once: a socket per connection to each server (a
     * connection per request holds at most as many at once), twice that with the embedded target
     * in this process (its end of each connection).
     */
    static long loadDescriptors(RunConfig config) {
        long servers = Math.max(1, config.pool().servers().size());
        long sockets = (long) config.totalConnections() * servers;
        return config.server() == null ? 2 * sockets : sockets;
    }

    /** The most connections the endpoint holds now (its cap, after the fd budget). */
    int connectionCap() {
        try {
            java.util.concurrent.Callable<Integer> cap = connections::cap;
            return loop.submit(cap).get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("the admin loop did not answer", e);
        }
    }

    /** The figures shown, or null before a run is attached. */
    public LiveFigures figures() {
        Attached a = run;
        return a == null ? null : a.figures();
    }

    @Override
    public void close() {
        server.close().syncUninterruptibly();
        loop.execute(connections::stop);
        loop.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }

    /** The process's file descriptor limit ({@code ulimit -n}), or -1 where the JVM cannot tell. */
    static long fdLimit() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.UnixOperatingSystemMXBean u
                ? u.getMaxFileDescriptorCount() : -1;
    }

    private static long fdOpen() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.UnixOperatingSystemMXBean u
                ? u.getOpenFileDescriptorCount() : 0;
    }

    /**
     * An accept that failed (too many open files) is dropped without a word, and accepting pauses
     * for 100 ms: the load's connections get the descriptors that free up first, and nothing of it
     * reaches the run's output.
     */
    private static final class AcceptFailures extends ChannelInboundHandlerAdapter {
        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (ctx.channel().config().isAutoRead()) {
                ctx.channel().config().setAutoRead(false);
                ctx.channel().eventLoop().schedule(() -> {
                    ctx.channel().config().setAutoRead(true);
                }, 100, TimeUnit.MILLISECONDS);
            }
        }
    }

    private static byte[] resource(String name) {
        try (InputStream in = AdminEndpoint.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("the admin endpoint's " + name + " is missing from the jar");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the admin endpoint's " + name, e);
        }
    }
}
