package io.fluxperf.engine.target.http;

import io.fluxperf.engine.target.ReplyPacer;
import io.fluxperf.engine.target.TargetOptions;
import io.fluxperf.engine.target.TargetServer;
import io.fluxperf.engine.target.TargetStats;
import io.fluxperf.engine.target.TimerSlack;
import io.fluxperf.engine.target.http.HttpCounters.Stat;
import io.fluxperf.engine.target.http.HttpCounters.Verb;
import io.netty.channel.ChannelOption;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.resources.LoopResources;
import reactor.netty.tcp.TcpServer;

/**
 * An in-process HTTP/1.1 server (like dperf's server mode) over reactor-netty's {@link TcpServer},
 * with Netty's {@link HttpRequestDecoder} for requests and pre-encoded responses
 * ({@link HttpConnectionHandler} has the rules): GET returns what PUT/POST stored at the path, or
 * a generated body of {@link #DEFAULT_BODY_BYTES} bytes when nothing is (so GETs work against an
 * empty server); DELETE removes (404 when nothing was there). Keep-alive, pipelining and
 * {@code Connection: close} as RFC 9112 says. The test knobs of {@link TargetOptions} (reply
 * delay, stalls) apply as for the memcache target.
 *
 * <p>{@link #stats()}: requests by method as commands ({@code get}, {@code head}, {@code post},
 * {@code put}, {@code delete}, {@code error}), GETs of stored paths as hits and of empty ones as
 * misses, bytes in and out, items and bytes stored; {@link #statusCounts()} has the responses by
 * status class.
 */
public final class HttpTargetServer implements TargetServer {
    /** The generated body's size when nothing is stored: the 100 bytes of the peers' small.txt. */
    public static final int DEFAULT_BODY_BYTES = 100;
    /** Bound on one request body (PUT/POST); larger ones get 413. */
    public static final int MAX_REQUEST_BODY_BYTES = 64 << 20;
    private static final Duration BIND_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);

    private final TargetOptions options;
    private final int bodyBytes;
    private final LoopResources loops;
    private final DisposableServer server;
    private final ChannelGroup connections;
    private final HttpCounters counters;
    private final HttpStore store;
    private final InetSocketAddress address;
    private final AtomicBoolean closed = new AtomicBoolean();

    private HttpTargetServer(TargetOptions options, int bodyBytes, LoopResources loops, DisposableServer server,
                             ChannelGroup connections, HttpCounters counters, HttpStore store) {
        this.options = options;
        this.bodyBytes = bodyBytes;
        this.loops = loops;
        this.server = server;
        this.connections = connections;
        this.counters = counters;
        this.store = store;
        this.address = (InetSocketAddress) server.address();
    }

    /** Starts with generated bodies of {@link #DEFAULT_BODY_BYTES}. */
    public static HttpTargetServer start(TargetOptions options) {
        return start(options, DEFAULT_BODY_BYTES);
    }

    /**
     * Starts listening and returns once it does.
     *
     * @param bodyBytes size of the body a GET gets when nothing is stored at its path, 0..64 MiB
     * @throws IllegalStateException if it cannot listen; the message names the address and the reason
     */
    public static HttpTargetServer start(TargetOptions options, int bodyBytes) {
        if (bodyBytes < 0 || bodyBytes > HttpConnectionHandler.MAX_GENERATED_BYTES) {
            throw new IllegalArgumentException("body size " + bodyBytes + " is outside 0.."
                    + HttpConnectionHandler.MAX_GENERATED_BYTES);
        }
        HttpStore store = new HttpStore(options.memoryLimitBytes());
        HttpCounters counters = new HttpCounters();
        ReplyPacer pacer = ReplyPacer.of(options, System.nanoTime());
        int maxBody = (int) Math.min(MAX_REQUEST_BODY_BYTES, options.memoryLimitBytes());
        ChannelGroup connections = new DefaultChannelGroup("fluxperf-http-target", GlobalEventExecutor.INSTANCE);
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
                        connection.addHandlerLast("fluxperf-http-bytes", new HttpConnectionHandler.ByteCounter(counters));
                        connection.addHandlerLast("fluxperf-http-decoder", new HttpRequestDecoder(new HttpDecoderConfig()
                                .setMaxInitialLineLength(8192).setMaxHeaderSize(16384).setMaxChunkSize(65536)));
                        connection.addHandlerLast("fluxperf-http",
                                new HttpConnectionHandler(store, counters, pacer, bodyBytes, maxBody));
                        connection.channel().config().setAutoRead(true);
                    })
                    .handle((in, out) -> Mono.never()) // the connection lives until the client or close() ends it
                    .bindNow(BIND_TIMEOUT);
            if (pacer != null) {
                TimerSlack.minimize(loops.onServer(true));
            }
            return new HttpTargetServer(options, bodyBytes, loops, server, connections, counters, store);
        } catch (RuntimeException e) {
            loops.disposeLater(Duration.ZERO, CLOSE_TIMEOUT).block(CLOSE_TIMEOUT);
            throw new IllegalStateException("cannot listen on " + options.bindAddress() + ":" + options.port()
                    + ": " + rootMessage(e), e);
        }
    }

    public TargetOptions options() {
        return options;
    }

    /** The generated body's size. */
    public int bodyBytes() {
        return bodyBytes;
    }

    @Override
    public InetSocketAddress address() {
        return address;
    }

    @Override
    public String describe() {
        StringBuilder s = new StringBuilder("embedded http on ")
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
        long[] c = counters.snapshot();
        Map<String, Long> commands = new LinkedHashMap<>();
        for (Verb v : Verb.values()) {
            commands.put(v.label, c[HttpCounters.verbIndex(v)]);
        }
        return new TargetStats(stat(c, Stat.CURR_CONNECTIONS), stat(c, Stat.TOTAL_CONNECTIONS), commands,
                stat(c, Stat.GET_HITS), stat(c, Stat.GET_MISSES), stat(c, Stat.BYTES_READ), stat(c, Stat.BYTES_WRITTEN),
                store.items(), store.bytes(), 0);
    }

    /** Responses sent, by status class: {@code 1xx} … {@code 5xx}, in that order. */
    public Map<String, Long> statusCounts() {
        long[] c = counters.snapshot();
        Map<String, Long> m = new LinkedHashMap<>();
        Stat[] classes = {Stat.STATUS_1XX, Stat.STATUS_2XX, Stat.STATUS_3XX, Stat.STATUS_4XX, Stat.STATUS_5XX};
        for (int i = 0; i < classes.length; i++) {
            m.put((i + 1) + "xx", stat(c, classes[i]));
        }
        return m;
    }

    private static long stat(long[] c, Stat s) {
        return c[HttpCounters.statIndex(s)];
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
