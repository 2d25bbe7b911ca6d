package io.fluxperf.engine.protocol.http.target;

import io.fluxperf.engine.protocol.http.target.HttpCounters.Stat;
import io.fluxperf.engine.protocol.http.target.HttpCounters.Verb;
import io.fluxperf.engine.target.Listeners;
import io.fluxperf.engine.target.ReplyPacer;
import io.fluxperf.engine.target.TargetOptions;
import io.fluxperf.engine.target.TargetServerBase;
import io.fluxperf.engine.target.TargetStats;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpRequestDecoder;
import java.util.LinkedHashMap;
import java.util.Map;
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
public final class HttpTargetServer extends TargetServerBase {
    /** The generated body's size when nothing is stored: the 100 bytes of the peers' small.txt. */
    public static final int DEFAULT_BODY_BYTES = 100;
    /** Bound on one request body (PUT/POST); larger ones get 413. */
    public static final int MAX_REQUEST_BODY_BYTES = 64 << 20;

    private final int bodyBytes;
    private final HttpCounters counters;
    private final HttpStore store;

    private HttpTargetServer(TargetOptions options, int bodyBytes, Listeners listeners, HttpCounters counters,
                             HttpStore store) {
        super("http", options, listeners);
        this.bodyBytes = bodyBytes;
        this.counters = counters;
        this.store = store;
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
        Listeners listeners = new Listeners("fluxperf-target", "fluxperf-http-target", options.threads());
        try {
            listeners.bindTcp(listeners.tcpServer(connection -> {
                connection.addHandlerLast("fluxperf-http-bytes", new HttpConnectionHandler.ByteCounter(counters));
                connection.addHandlerLast("fluxperf-http-decoder", new HttpRequestDecoder(new HttpDecoderConfig()
                        .setMaxInitialLineLength(8192).setMaxHeaderSize(16384).setMaxChunkSize(65536)));
                connection.addHandlerLast("fluxperf-http",
                        new HttpConnectionHandler(store, counters, pacer, bodyBytes, maxBody));
            }), options.bindAddress(), options.port(), null);
            if (pacer != null) {
                listeners.minimizeTimerSlack();
            }
            return new HttpTargetServer(options, bodyBytes, listeners, counters, store);
        } catch (RuntimeException e) {
            throw listeners.failed(e);
        }
    }

    /** The generated body's size. */
    public int bodyBytes() {
        return bodyBytes;
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
}
