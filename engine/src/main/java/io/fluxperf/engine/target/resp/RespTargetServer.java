package io.fluxperf.engine.target.resp;

import io.fluxperf.engine.target.ReplyPacer;
import io.fluxperf.engine.target.TargetOptions;
import io.fluxperf.engine.target.TargetServer;
import io.fluxperf.engine.target.TargetStats;
import io.fluxperf.engine.target.TimerSlack;
import io.netty.channel.ChannelOption;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.resources.LoopResources;
import reactor.netty.tcp.TcpServer;

/**
 * An in-process redis server speaking RESP2 and, after {@code HELLO 3}, RESP3, as redis 7.0 does
 * for the commands a load test sends (strings, hashes, lists, sets, sorted sets, expiry, 16
 * databases) and the ones tools send on connecting (AUTH, SELECT, HELLO, INFO, COMMAND, CONFIG
 * GET, PING, QUIT). It runs over reactor-netty's {@link TcpServer} on its own event loops
 * ({@code fluxperf-redis-*} threads, epoll when available); keys live in a memory-bounded LRU
 * {@link RespStore} ({@code allkeys-lru}).
 *
 * <p>The protocol work is done by plain Netty handlers added per connection (one
 * {@link RespConnectionHandler} each); reactor-netty provides the listening socket, the loops and
 * the lifecycle. The delay and stall test knobs of {@link TargetOptions} apply to every reply.
 */
public final class RespTargetServer implements TargetServer {
    private static final Duration BIND_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);

    private final TargetOptions options;
    private final LoopResources loops;
    private final DisposableServer server;
    private final ChannelGroup connections;
    private final RespServerStats stats;
    private final InetSocketAddress address;
    private final boolean passwordSet;
    private final AtomicBoolean closed = new AtomicBoolean();

    private RespTargetServer(TargetOptions options, LoopResources loops, DisposableServer server,
                             ChannelGroup connections, RespServerStats stats, boolean passwordSet) {
        this.options = options;
        this.loops = loops;
        this.server = server;
        this.connections = connections;
        this.stats = stats;
        this.passwordSet = passwordSet;
        this.address = (InetSocketAddress) server.address();
    }

    /** Starts listening without a password and returns once it does. */
    public static RespTargetServer start(TargetOptions options) {
        return start(options, null);
    }

    /**
     * Starts listening and returns once it does.
     *
     * @param requirePass the default user's password (redis' {@code requirepass}); null for none
     * @throws IllegalStateException if it cannot listen; the message names the address and the reason
     */
    public static RespTargetServer start(TargetOptions options, String requirePass) {
        RespStore store = new RespStore(options.memoryLimitBytes(),
                RespStore.segmentsFor(options.memoryLimitBytes(), options.threads()));
        RespCounters counters = new RespCounters();
        RespServerStats stats = new RespServerStats(counters, store);
        ReplyPacer pacer = ReplyPacer.of(options, System.nanoTime());
        ChannelGroup connections = new DefaultChannelGroup("fluxperf-redis", GlobalEventExecutor.INSTANCE);
        LoopResources loops = LoopResources.create("fluxperf-redis", options.threads(), true);
        try {
            DisposableServer server = TcpServer.create()
                    .host(options.bindAddress())
                    .port(options.port())
                    .runOn(loops)
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .doOnConnection(connection -> {
                        connections.add(connection.channel());
                        connection.addHandlerLast("fluxperf-redis",
                                new RespConnectionHandler(store, counters, stats, pacer, requirePass));
                        connection.channel().config().setAutoRead(true);
                    })
                    .handle((in, out) -> Mono.never()) // the connection lives until the client or close() ends it
                    .bindNow(BIND_TIMEOUT);
            if (pacer != null) {
                TimerSlack.minimize(loops.onServer(true));
            }
            stats.port(((InetSocketAddress) server.address()).getPort());
            return new RespTargetServer(options, loops, server, connections, stats, requirePass != null);
        } catch (RuntimeException e) {
            loops.disposeLater(Duration.ZERO, CLOSE_TIMEOUT).block(CLOSE_TIMEOUT);
            throw new IllegalStateException("cannot listen on " + options.bindAddress() + ":" + options.port()
                    + ": " + rootMessage(e), e);
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
    public String describe() {
        StringBuilder s = new StringBuilder("embedded redis on ")
                .append(address.getAddress().getHostAddress()).append(':').append(address.getPort());
        if (passwordSet) {
            s.append(", password required");
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
        try {
            server.disposeNow(CLOSE_TIMEOUT);
        } catch (RuntimeException e) {
            // connections that did not close in time are closed below with their loops
        }
        connections.close().awaitUninterruptibly(CLOSE_TIMEOUT.toMillis());
        loops.disposeLater(Duration.ZERO, CLOSE_TIMEOUT).block(CLOSE_TIMEOUT);
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        if (t instanceof java.nio.channels.UnresolvedAddressException) {
            return "unknown host";
        }
        String message = t.getMessage() != null ? t.getMessage() : t.getClass().getSimpleName();
        return message.replaceFirst("^bind\\(\\.\\.\\) failed with error\\(-?\\d+\\): ", "");
    }
}
