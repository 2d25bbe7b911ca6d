package io.fluxperf.engine.protocol.http.target;

import io.fluxperf.engine.protocol.http.target.HttpCounters.Stat;
import io.fluxperf.engine.protocol.http.target.HttpCounters.Verb;
import io.fluxperf.engine.target.ConnectionHandlerBase;
import io.fluxperf.engine.target.ReplyPacer;
import io.fluxperf.engine.target.ReplyWriter;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;

/**
 * One HTTP client connection, after Netty's {@code HttpRequestDecoder}: answers each request into
 * one reply buffer per read batch and hands that buffer to the {@link ReplyWriter} in
 * {@code channelReadComplete}, so pipelined requests are answered in order with one write per
 * batch.
 *
 * <p>Requests:
 * <ul>
 *   <li>GET (and HEAD) of a path returns what PUT or POST stored there, else a generated body of
 *       the server's default size (100 bytes unless set), so that GETs work on an empty server.</li>
 *   <li>PUT and POST store the body at the path: 201 when new, 204 when replaced, 507 when the
 *       memory bound would be passed, 413 (and close) for a body above the per-request bound.</li>
 *   <li>DELETE removes: 204, or 404 when nothing was stored there.</li>
 *   <li>Other methods: 405; a request Netty cannot parse: 400 and close.</li>
 * </ul>
 * The query string is not part of the stored path; it carries test knobs for GET and HEAD:
 * {@code bytes=N} (size of the generated body), {@code status=NNN} (the status to answer with),
 * {@code chunked[=K]} (send the body in K chunks, 2 by default, with a chunk extension and a
 * trailer field) and {@code close} (close after this response).
 *
 * <p>Keep-alive as RFC 9112 §9.3 says: an HTTP/1.1 request without {@code Connection: close},
 * or an HTTP/1.0 one with {@code Connection: keep-alive}, keeps the connection; otherwise the
 * response says {@code Connection: close}, requests pipelined behind it are dropped, and the
 * connection closes once the response is written.
 */
final class HttpConnectionHandler extends ConnectionHandlerBase {
    /** A reply batch larger than this is written before the read batch ends. */
    private static final int EARLY_WRITE_BYTES = 256 * 1024;
    static final int MAX_GENERATED_BYTES = 64 << 20;

    private final HttpStore store;
    private final HttpCounters counters;
    private final int defaultBodyBytes;
    private final int maxBodyBytes;

    private final HttpReplies.Response response = new HttpReplies.Response();
    private HttpCounters.Cell cell;
    private ByteBuf batch;
    private boolean closeRequested;

    /** The request whose body is being read, or null between requests. */
    private HttpRequest current;
    private ByteBuf body;
    private boolean bodyTooLarge;

    HttpConnectionHandler(HttpStore store, HttpCounters counters, ReplyPacer pacer, int defaultBodyBytes, int maxBodyBytes) {
        super("HTTP", pacer);
        this.store = store;
        this.counters = counters;
        this.defaultBodyBytes = defaultBodyBytes;
        this.maxBodyBytes = maxBodyBytes;
    }

    @Override
    protected void opened(ChannelHandlerContext ctx) {
        HttpCounters.Cell c = counters.cellFor(ctx.channel().eventLoop());
        this.cell = c;
        c.increment(Stat.CURR_CONNECTIONS);
        c.increment(Stat.TOTAL_CONNECTIONS);
        ctx.channel().closeFuture().addListener(f -> c.add(Stat.CURR_CONNECTIONS, -1));
    }

    /** Counts the bytes read before the decoder sees them; sits in front of it. */
    static final class ByteCounter extends ChannelInboundHandlerAdapter {
        private final HttpCounters counters;
        private HttpCounters.Cell cell;

        ByteCounter(HttpCounters counters) {
            this.counters = counters;
        }

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            cell = counters.cellFor(ctx.channel().eventLoop());
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof ByteBuf b) {
                cell.add(Stat.BYTES_READ, b.readableBytes());
            }
            ctx.fireChannelRead(msg);
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof HttpObject)) {
            ctx.fireChannelRead(msg);
            return;
        }
        try {
            startBatch();
            if (closing) {
                return; // after a response that closes: what the client pipelined is not answered
            }
            if (msg instanceof HttpRequest request) {
                startRequest(request);
            }
            if (msg instanceof HttpContent content && current != null) {
                if (content.decoderResult().isFailure()) {
                    badRequest();
                    return;
                }
                addBody(content.content());
                if (content instanceof LastHttpContent) {
                    HttpRequest request = current;
                    current = null;
                    answer(request);
                }
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    private void startRequest(HttpRequest request) {
        if (request.decoderResult().isFailure()) {
            current = null;
            badRequest();
            return;
        }
        current = request;
        bodyTooLarge = false;
        if (body != null) {
            body.clear();
        }
        if (HttpUtil.is100ContinueExpected(request)) {
            ByteBuf cont = ctx.alloc().ioBuffer(HttpReplies.CONTINUE.length).writeBytes(HttpReplies.CONTINUE);
            cell.status(100);
            flushBatch(false);
            writeOut(cont, true);
        }
    }

    private void addBody(ByteBuf content) {
        if (!content.isReadable() || bodyTooLarge) {
            return;
        }
        int size = (body == null ? 0 : body.readableBytes()) + content.readableBytes();
        if (size > maxBodyBytes) {
            bodyTooLarge = true;
            return;
        }
        if (body == null) {
            body = ctx.alloc().heapBuffer(Math.max(256, content.readableBytes()));
        }
        body.writeBytes(content);
    }

    private void answer(HttpRequest request) {
        HttpReplies.Response r = response.reset();
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        boolean http10 = request.protocolVersion().equals(HttpVersion.HTTP_1_0);
        String uri = request.uri();
        int q = uri.indexOf('?');
        String path = q < 0 ? uri : uri.substring(0, q);
        HttpMethod method = request.method();
        if (bodyTooLarge) {
            cell.count(method == HttpMethod.POST ? Verb.POST : method == HttpMethod.PUT ? Verb.PUT : Verb.ERROR);
            r.status = 413;
            keepAlive = false;
        } else if (method == HttpMethod.GET || method == HttpMethod.HEAD) {
            cell.count(method == HttpMethod.GET ? Verb.GET : Verb.HEAD);
            byte[] stored = store.get(path);
            if (method == HttpMethod.GET) {
                cell.increment(stored != null ? Stat.GET_HITS : Stat.GET_MISSES);
            }
            r.body = stored;
            r.generatedLength = defaultBodyBytes;
            r.headOnly = method == HttpMethod.HEAD;
            if (q >= 0 && !applyKnobs(uri, q + 1, r, http10)) {
                r.status = 400;
                r.body = null;
                r.generatedLength = 0;
            }
            if (r.close) {
                keepAlive = false;
            }
        } else if (method == HttpMethod.PUT || method == HttpMethod.POST) {
            cell.count(method == HttpMethod.PUT ? Verb.PUT : Verb.POST);
            byte[] value = new byte[body == null ? 0 : body.readableBytes()];
            if (body != null) {
                body.readBytes(value);
            }
            r.status = switch (store.put(path, value)) {
                case CREATED -> 201;
                case REPLACED -> 204;
                case FULL -> 507;
            };
        } else if (method == HttpMethod.DELETE) {
            cell.count(Verb.DELETE);
            r.status = store.delete(path) ? 204 : 404;
        } else {
            cell.count(Verb.ERROR);
            r.status = 405;
            r.allow = true;
        }
        r.close = !keepAlive;
        r.keepAlive = keepAlive && http10;
        respond(r);
    }

    /** Reads the query's test knobs; false when one is malformed. */
    private static boolean applyKnobs(String uri, int from, HttpReplies.Response r, boolean http10) {
        int i = from;
        while (i <= uri.length()) {
            int amp = uri.indexOf('&', i);
            int end = amp < 0 ? uri.length() : amp;
            int eq = uri.indexOf('=', i);
            String name = uri.substring(i, eq >= 0 && eq < end ? eq : end);
            String value = eq >= 0 && eq < end ? uri.substring(eq + 1, end) : null;
            try {
                switch (name) {
                    case "bytes" -> {
                        int n = Integer.parseInt(value);
                        if (n < 0 || n > MAX_GENERATED_BYTES) {
                            return false;
                        }
                        r.generatedLength = n;
                        r.body = null;
                    }
                    case "status" -> {
                        int s = Integer.parseInt(value);
                        if (s < 200 || s > 599) {
                            return false;
                        }
                        r.status = s;
                    }
                    case "chunked" -> {
                        int k = value == null ? 2 : Integer.parseInt(value);
                        if (k < 1 || k > 1_000_000) {
                            return false;
                        }
                        r.chunks = http10 ? 0 : k; // an HTTP/1.0 client cannot read chunks
                    }
                    case "close" -> r.close = true;
                    default -> {
                        // other parameters belong to the client's path: ignored
                    }
                }
            } catch (NumberFormatException e) {
                return false;
            }
            i = end + 1;
        }
        return true;
    }

    private void badRequest() {
        cell.count(Verb.ERROR);
        HttpReplies.Response r = response.reset();
        r.status = 400;
        r.close = true;
        respond(r);
    }

    private void respond(HttpReplies.Response r) {
        if (batch == null) {
            batch = ctx.alloc().ioBuffer(512);
        }
        cell.status(r.status);
        HttpReplies.write(batch, r);
        if (r.close) {
            closing = true;
            current = null;
        } else if (batch.readableBytes() > EARLY_WRITE_BYTES) {
            flushBatch(false);
        }
    }

    private void flushBatch(boolean endOfBatch) {
        if (batch != null) {
            ByteBuf b = batch;
            batch = null;
            writeOut(b, endOfBatch);
        } else if (endOfBatch) {
            writer.flush();
        }
    }

    @Override
    protected void countBytesWritten(int bytes) {
        cell.add(Stat.BYTES_WRITTEN, bytes);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        endBatch();
        flushBatch(true);
        if (closing) {
            if (!closeRequested) {
                closeRequested = true;
                ctx.channel().config().setAutoRead(false);
                closeWhenWritten();
            }
        } else {
            pauseReadsIfBacklogged();
        }
    }

    @Override
    protected void releaseBuffers() {
        if (batch != null) {
            batch.release();
            batch = null;
        }
        if (body != null) {
            body.release();
            body = null;
        }
        closing = true;
    }
}
