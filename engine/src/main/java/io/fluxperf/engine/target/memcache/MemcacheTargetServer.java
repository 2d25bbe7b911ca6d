package io.fluxperf.engine.target.memcache;

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
 * An in-process memcache server speaking the text protocol as memcached 1.6 does, over
 * reactor-netty's {@link TcpServer} on its own event loops ({@code fluxperf-target-*} threads,
 * epoll when available). Items live in a memory-bounded LRU {@link MemcacheStore}.
 *
 * <p>The protocol work is done by plain Netty handlers added per connection (one
 * {@link MemcacheConnectionHandler} each); reactor-netty provides the listening socket, the loops
 * and the lifecycle. Since nothing subscribes to reactor-netty's inbound flux, auto-read is turned
 * on for each connection here.
 */
public final class MemcacheTargetServer implements TargetServer {
    private static final Duration BIND_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);

    private final TargetOptions options;
    private final LoopResources loops;
    private final DisposableServer server;
    private final ChannelGroup connections;
    private final MemcacheServerStats stats;
    private final InetSocketAddress address;
    private final AtomicBoolean closed = new AtomicBoolean();

    private MemcacheTargetServer(TargetOptions options, LoopResources loops, DisposableServer server,
                                 ChannelGroup connections, MemcacheServerStats stats) {
        this.options = options;
        this.loops = loops;
        this.server = server;
        this.connections = connections;
        this.stats = stats;
        this.address = (InetSocketAddress) server.address();
    }

    /**
     * Starts listening and returns once it does.
     *
     * @throws IllegalStateException if it cannot listen; the message names the address and the reason
     */
    public static MemcacheTargetServer start(TargetOptions options) {
        MemcacheStore store = new MemcacheStore(options.memoryLimitBytes(),
                MemcacheStore.segmentsFor(options.memoryLimitBytes(), options.threads()));
        MemcacheCounters counters = new MemcacheCounters();
        MemcacheServerStats stats = new MemcacheServerStats(counters, store, options.threads());
        ReplyPacer pacer = ReplyPacer.of(options, System.nanoTime());
        ChannelGroup connections = new DefaultChannelGroup("fluxperf-target", GlobalEventExecutor.INSTANCE);
        LoopResources loops = LoopResources.create("fluxperf-target", options.threads(), true);
        try {
            DisposableServer server = TcpServer.create()
                    .host(options.bindAddress())
                    .port(options.port())
                    .runOn(loops)
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .doOnConnection(connection -> {
                        connections.add(connection.channel());
                        connection.addHandlerLast("fluxperf-memcache",
                                new MemcacheConnectionHandler(store, counters, stats, pacer));
                        connection.channel().config().setAutoRead(true);
                    })
                    .handle((in, out) -> Mono.never()) // the connection lives until the client or close() ends it
                    .bindNow(BIND_TIMEOUT);
            if (pacer != null) {
                TimerSlack.minimize(loops.onServer(true)); // the loops that serve connections (see runOn)
            }
            return new MemcacheTargetServer(options, loops, server, connections, stats);
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
        StringBuilder s = new StringBuilder("embedded memcache on ")
                .append(address.getAddress().getHostAddress()).append(':').append(address.getPort());
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
        return message.replaceFirst("^bind\\(\\.\\.\\) failed with error\\(-?\\d+\\): ", ""); // Netty's native prefix
    }
}
