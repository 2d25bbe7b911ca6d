package io.fluxperf.engine.admin;

import io.fluxperf.engine.admin.AdminRoutes.Attached;
import io.fluxperf.engine.admin.AdminRoutes.Reply;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import java.util.function.Supplier;

/**
 * HTTP/1.x framing of the admin endpoint, after Netty's decoder: a head that did not decode, a
 * version other than HTTP/1.0 and 1.1, and a request with a body each get their status and one
 * sentence and the connection is closed; every other request is answered by {@link AdminRoutes}
 * and, when the client keeps it alive, the connection waits for the next one.
 *
 * <p>Nothing here logs or throws: a connection that fails (reset by the client) is closed quietly,
 * so that no abuse of the endpoint reaches the run's output.
 */
final class AdminHttpHandler extends SimpleChannelInboundHandler<HttpObject> {
    static final int MAX_LINE = 4096;
    static final int MAX_HEADERS = 8192;

    private final AdminRoutes routes;
    private final Supplier<Attached> run;
    /** A request was answered and closes: what follows on the connection is ignored. */
    private boolean closing;

    AdminHttpHandler(AdminRoutes routes, Supplier<Attached> run) {
        this.routes = routes;
        this.run = run;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) {
        if (closing) {
            return;
        }
        DecoderResult decoded = msg.decoderResult();
        if (decoded.isFailure()) {
            fail(ctx, decoded.cause());
            return;
        }
        if (!(msg instanceof HttpRequest req)) {
            return; // the (empty) content of a request already answered
        }
        AdminConnections.requestStarted(ctx.channel());
        HttpVersion v = req.protocolVersion();
        if (!v.protocolName().equals("HTTP")) {
            answer(ctx, Reply.text(400, "The request line must end in HTTP/1.1 or HTTP/1.0."), true, false);
            return;
        }
        if (v.majorVersion() != 1 || v.minorVersion() > 1) {
            answer(ctx, Reply.text(505, "Only HTTP/1.1 and HTTP/1.0 are served here."), true, false);
            return;
        }
        if (HttpUtil.isTransferEncodingChunked(req) || HttpUtil.getContentLength(req, 0L) > 0) {
            answer(ctx, Reply.text(413, "The admin endpoint takes no request body."), true, false);
            return;
        }
        String method = req.method().name();
        Reply reply;
        try {
            reply = routes.answer(method, req.uri(), run.get());
        } catch (RuntimeException e) { // a fault of ours: the client hears of it, the run goes on
            reply = Reply.text(500, "The admin endpoint failed to answer: " + AdminRoutes.quoted(String.valueOf(e.getMessage())) + ".");
        }
        answer(ctx, reply, !HttpUtil.isKeepAlive(req), method.equals("HEAD"));
    }

    /** A head that did not decode: Netty's decoder has given up on the connection, so it closes. */
    private void fail(ChannelHandlerContext ctx, Throwable cause) {
        Reply reply;
        if (cause instanceof TooLongHttpLineException) {
            reply = Reply.text(414, "The request line is longer than " + MAX_LINE + " bytes.");
        } else if (cause instanceof TooLongHttpHeaderException || cause instanceof TooLongFrameException) {
            reply = Reply.text(431, "The request's headers are longer than " + MAX_HEADERS + " bytes.");
        } else {
            reply = Reply.text(400, "The request is not well-formed HTTP: its request line or a header is malformed.");
        }
        answer(ctx, reply, true, false);
    }

    private void answer(ChannelHandlerContext ctx, Reply reply, boolean close, boolean head) {
        FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(reply.status()),
                head ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(reply.body()));
        res.headers().set(HttpHeaderNames.CONTENT_TYPE, reply.type())
                .setInt(HttpHeaderNames.CONTENT_LENGTH, reply.body().length)
                .set(HttpHeaderNames.CACHE_CONTROL, "no-store");
        if (reply.allow() != null) {
            res.headers().set(HttpHeaderNames.ALLOW, reply.allow());
        }
        if (close) {
            closing = true;
            res.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            ctx.writeAndFlush(res).addListener(ChannelFutureListener.CLOSE);
        } else {
            ctx.writeAndFlush(res).addListener(f -> {
                if (f.isSuccess()) {
                    AdminConnections.answered(ctx.channel());
                } else {
                    ctx.close();
                }
            });
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close(); // a reset, a broken pipe: the client has gone, and nothing is said about it
    }
}
