package io.fluxperf.engine.protocol.http.log;

import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.log.ReaderContext;
import io.fluxperf.engine.log.capture.CommandSink;
import io.fluxperf.engine.log.capture.AbstractConnectionReader;
import io.fluxperf.engine.log.capture.LineBuffer;
import io.fluxperf.engine.log.capture.StatedLength;
import io.fluxperf.engine.request.Command;

/**
 * Reads one captured HTTP/1.1 connection (RFC 9112): the client's requests, keep-alive and
 * pipelined, with bodies of a Content-Length or chunked, into log entries (the method, the
 * request-target as the first argument and the key, the body, de-chunked, as the value), and the
 * server's responses into each request's original outcome by status class (2xx OK, as the client
 * codec counts by default; any other status an error; 1xx interim responses are passed over).
 *
 * <p>What a replay sends of a request: its method, its request-target byte for byte, and its body;
 * the headers are the replay's own ({@code --header}, Host). GET, POST, PUT and DELETE are
 * replayed; other methods are counted as skipped. {@code --key-prefix} goes at the start of the
 * path (after its first '/').
 *
 * <p>Gaps: inside a body of a stated length or a chunk, the request is cut and the stream goes on;
 * anywhere else it cannot be read on. A connection picked up mid-stream starts at the first segment
 * that begins with a request line.
 */
final class HttpConnectionReader extends AbstractConnectionReader {
    /** The longest request line or header line read. */
    static final int MAX_LINE = 64 << 10;
    /** The most header bytes of one request or response. */
    static final int MAX_HEAD = 1 << 20;
    static final String TOO_BIG = "requests larger than 64 MiB (read past, not held)";

    // request states
    private static final int R_START = 1;
    private static final int R_REQUEST_LINE = 2;
    private static final int R_HEADER = 3;
    private static final int R_BODY = 4;
    private static final int R_CHUNK_SIZE = 5;
    private static final int R_CHUNK_DATA = 6;
    private static final int R_TRAILER = 7;

    // response states
    private static final int T_START = 0;
    private static final int T_STATUS = 1;
    private static final int T_HEADER = 2;
    private static final int T_BODY = 3;
    private static final int T_CHUNK_SIZE = 4;
    private static final int T_CHUNK_DATA = 5;
    private static final int T_TRAILER = 6;
    private static final int T_DEAD = 7;

    private final ReaderContext ctx;
    private final byte[] prefix;

    // ---- requests ----
    private int rState;
    private final LineBuffer line = new LineBuffer();
    private int headBytes;
    private Command command;
    private int verb;
    private String skip;
    private boolean head;
    private boolean chunked;
    private long contentLength;
    private final StatedLength body = new StatedLength();
    private int bodyAt;
    private int bodyLength;
    private boolean bodyKept;
    private boolean upgrades;
    // what waits with a request for its response: 1 for HEAD (a response without a body), else 0

    // ---- responses ----
    private int tState;
    private final LineBuffer replyLine = new LineBuffer();
    private int status;
    private boolean replyChunked;
    private long replyLength;
    private final StatedLength replyBody = new StatedLength();
    private int replyHeadBytes;

    HttpConnectionReader(ReaderContext ctx) {
        super(TOO_BIG);
        this.ctx = ctx;
        this.prefix = ctx.keyPrefix;
    }

    @Override
    public void reset(boolean fromStart) {
        super.reset(fromStart);
        rState = R_START;
        tState = T_START;
        line.clear();
        replyLine.clear();
        upgrades = false;
    }

    // ================= requests =================

    @Override
    protected boolean mayStartCommand(byte[] b, int from, int to) {
        return HttpCapture.startsRequest(b, from, to);
    }

    @Override
    protected void atCommandStart() {
        rState = R_START;
    }

    @Override
    protected int step(byte[] b, int p, int to, CommandSink out) {
        switch (rState) {
            case R_START -> {
                if (b[p] == '\r' || b[p] == '\n') {
                    return p + 1; // RFC 9112 2.2: empty lines before a request line are ignored
                }
                begin(out);
                headBytes = 0;
                chunked = false;
                contentLength = -1;
                line.clear();
                rState = R_REQUEST_LINE;
                return p;
            }
            case R_REQUEST_LINE, R_HEADER, R_TRAILER -> {
                int q = line.feed(b, p, to, MAX_LINE);
                headBytes += q - p;
                if (line.tooLong() || headBytes > MAX_HEAD) {
                    return fail(out, b, p, to, "a request head longer than its limit");
                }
                if (!line.done()) {
                    return q;
                }
                String bad = switch (rState) {
                    case R_REQUEST_LINE -> requestLine(line.bytes(), line.length());
                    case R_HEADER -> header(line.bytes(), line.length(), out);
                    default -> trailer(line.length(), out);
                };
                line.clear();
                if (bad != null) {
                    return fail(out, b, q, to, bad);
                }
                return q;
            }
            case R_BODY, R_CHUNK_DATA -> {
                if (body.inData()) {
                    int n = body.take(to - p);
                    if (bodyKept && !cut) {
                        System.arraycopy(b, p, e.args, bodyAt, n);
                        bodyAt += n;
                        bodyLength += n;
                    }
                    if (body.done()) {
                        bodyPartDone(out);
                    }
                    return p + n;
                }
                if (!body.takeLineEnd(b[p])) {
                    return fail(out, b, p, to, "a chunk that does not end where its size says");
                }
                if (body.done()) {
                    bodyPartDone(out);
                }
                return p + 1;
            }
            case R_CHUNK_SIZE -> {
                int q = line.feed(b, p, to, MAX_LINE);
                if (line.tooLong()) {
                    return fail(out, b, p, to, "a chunk size line longer than its limit");
                }
                if (!line.done()) {
                    return q;
                }
                long size = HttpBytes.chunkSize(line.bytes(), line.length());
                line.clear();
                if (size < 0) {
                    return fail(out, b, q, to, "a chunk size that is not hexadecimal");
                }
                if (size == 0) {
                    rState = R_TRAILER;
                    return q;
                }
                startBody(size, 2);
                rState = R_CHUNK_DATA;
                return q;
            }
            default -> throw new IllegalStateException("request state " + rState);
        }
    }

    /** {@code METHOD SP request-target SP HTTP-version}. */
    private String requestLine(byte[] l, int n) {
        int sp1 = HttpBytes.indexOf(l, 0, n, (byte) ' ');
        int sp2 = sp1 < 0 ? -1 : HttpBytes.indexOf(l, sp1 + 1, n, (byte) ' ');
        if (sp1 <= 0 || sp2 <= sp1 + 1 || n - sp2 - 1 != 8 || !HttpBytes.startsWith(l, sp2 + 1, "HTTP/1.")) {
            return "not a request line";
        }
        for (int i = 0; i < sp1; i++) {
            if (l[i] < 'A' || l[i] > 'Z') {
                return "not a request line";
            }
        }
        verb = ctx.verbs.id(l, 0, sp1);
        String method = ctx.verbs.name(verb);
        command = switch (method) {
            case "get" -> Command.GET;
            case "post" -> Command.POST;
            case "put" -> Command.PUT;
            case "delete" -> Command.DELETE;
            default -> null;
        };
        head = method.equals("head");
        skip = command == null ? "HTTP " + method.toUpperCase(java.util.Locale.ROOT)
                + " requests (the http protocol sends GET, POST, PUT and DELETE)" : null;
        upgrades = method.equals("connect");
        // the request-target, with the key prefix at the start of its path
        int targetFrom = sp1 + 1;
        int targetLength = sp2 - targetFrom;
        int at = prefix == null ? -1 : pathStart(l, targetFrom, sp2);
        int start = e.beginArg(targetLength + (at >= 0 ? prefix.length : 0));
        int w = start;
        if (at >= 0) {
            System.arraycopy(l, targetFrom, e.args, w, at - targetFrom);
            w += at - targetFrom;
            System.arraycopy(prefix, 0, e.args, w, prefix.length);
            w += prefix.length;
            System.arraycopy(l, at, e.args, w, sp2 - at);
            w += sp2 - at;
        } else {
            System.arraycopy(l, targetFrom, e.args, w, targetLength);
            w += targetLength;
        }
        e.endArg(w);
        rState = R_HEADER;
        return null;
    }

    /** Where a prefix goes in a request-target {@code l[from, to)}: after its path's first '/'; -1 for none. */
    private static int pathStart(byte[] l, int from, int to) {
        if (from < to && l[from] == '/') {
            return from + 1;
        }
        int scheme = HttpBytes.indexOf(l, from, to, (byte) ':');
        if (scheme > from && scheme + 2 < to && l[scheme + 1] == '/' && l[scheme + 2] == '/') {
            int slash = HttpBytes.indexOf(l, scheme + 3, to, (byte) '/');
            return slash < 0 ? -1 : slash + 1;
        }
        return -1;
    }

    private String header(byte[] l, int n, CommandSink out) {
        if (n == 0) {
            return headDone(out);
        }
        int colon = HttpBytes.indexOf(l, 0, n, (byte) ':');
        if (colon <= 0) {
            return "a header line without a colon";
        }
        if (HttpBytes.nameIs(l, colon, "content-length")) {
            long v = HttpBytes.decimal(l, colon + 1, n);
            if (v < 0) {
                return "a Content-Length that is not a number";
            }
            contentLength = v;
        } else if (HttpBytes.nameIs(l, colon, "transfer-encoding")) {
            chunked = HttpBytes.endsWithToken(l, colon + 1, n, "chunked");
        } else if (HttpBytes.nameIs(l, colon, "upgrade")) {
            upgrades = true;
        }
        return null;
    }

    /** The head is whole: the body follows, or the request is whole. */
    private String headDone(CommandSink out) {
        bodyKept = skip == null;
        tooBig = false;
        bodyLength = 0;
        if (chunked) {
            rState = R_CHUNK_SIZE;
            if (command != null) {
                ctx.stats.adjust("chunked bodies sent with a Content-Length");
            }
        } else if (contentLength > 0) {
            startBody(contentLength, 0);
            rState = R_BODY;
        } else {
            finish(out);
        }
        return null;
    }

    /** The next {@code n} body bytes (then {@code crlf} bytes of CRLF, after a chunk) are read into the body argument. */
    private void startBody(long n, int crlf) {
        body.start(n, crlf);
        if (bodyKept && !cut) {
            if (bodyLength + n > HOLD_LIMIT) {
                bodyKept = false;
                tooBig = true;
            } else {
                bodyAt = e.beginArg((int) (bodyLength + n)) + bodyLength; // keeps the body read so far
            }
        }
    }

    private void bodyPartDone(CommandSink out) {
        if (rState == R_BODY) {
            finish(out);
        } else {
            rState = R_CHUNK_SIZE;
        }
    }

    private String trailer(int n, CommandSink out) {
        if (n == 0) {
            finish(out);
        }
        return null;
    }

    private void finish(CommandSink out) {
        rState = R_START;
        pickedUp(out);
        long handle;
        if (dropped()) {
            handle = drop(out);
        } else if (skip != null) {
            handle = out.skip(skip);
        } else {
            e.verb = verb;
            e.command(command);
            e.addKey(null, e.args, e.argStart(0), e.argLength(0));
            if (bodyLength > 0 || command == Command.POST || command == Command.PUT) {
                e.beginArg(bodyLength);
                e.endArg(e.argStart(1) + bodyLength);
                e.valueArg = 1;
            }
            handle = out.complete();
        }
        e = null;
        waiting.add(handle, head ? 1 : 0, 0);
        if (upgrades) {
            // after CONNECT or an Upgrade the connection may carry another protocol: read no more of it
            stopRequests();
        }
    }

    @Override
    protected String notACommand(byte[] b, int p, int to, String what) {
        return "bytes that are no HTTP request: " + what;
    }

    @Override
    protected boolean skipInCommand(long n, CommandSink out) {
        if ((rState != R_BODY && rState != R_CHUNK_DATA) || !body.skip(n)) {
            return false;
        }
        cut = true;
        if (body.done()) {
            bodyPartDone(out);
        }
        return true;
    }

    // ================= responses =================

    @Override
    public void reply(byte[] b, int from, int to, CommandSink out) {
        int p = from;
        while (p < to && tState != T_DEAD) {
            switch (tState) {
                case T_START -> {
                    replyLine.clear();
                    replyHeadBytes = 0;
                    replyChunked = false;
                    replyLength = -1;
                    tState = T_STATUS;
                }
                case T_STATUS, T_HEADER, T_TRAILER -> {
                    int q = replyLine.feed(b, p, to, MAX_LINE);
                    replyHeadBytes += q - p;
                    p = q;
                    if (replyLine.tooLong() || replyHeadBytes > MAX_HEAD) {
                        lose(out);
                        return;
                    }
                    if (!replyLine.done()) {
                        break;
                    }
                    byte[] l = replyLine.bytes();
                    int n = replyLine.length();
                    replyLine.clear();
                    if (tState == T_STATUS) {
                        if (n == 0) {
                            break; // a stray line end between responses
                        }
                        status = HttpBytes.statusOf(l, n);
                        if (status < 0) {
                            lose(out);
                            return;
                        }
                        tState = T_HEADER;
                    } else if (tState == T_HEADER) {
                        if (n > 0) {
                            responseHeader(l, n);
                        } else {
                            responseHeadDone(out);
                        }
                    } else if (n == 0) {
                        responseDone(out);
                    }
                }
                case T_BODY, T_CHUNK_DATA -> {
                    if (replyBody.inData()) {
                        p += replyBody.take(to - p);
                    } else if (replyBody.takeLineEnd(b[p])) {
                        p++;
                    } else {
                        lose(out);
                        return;
                    }
                    if (replyBody.done()) {
                        if (tState == T_BODY) {
                            responseDone(out);
                        } else {
                            tState = T_CHUNK_SIZE;
                        }
                    }
                }
                case T_CHUNK_SIZE -> {
                    int q = replyLine.feed(b, p, to, MAX_LINE);
                    p = q;
                    if (replyLine.tooLong()) {
                        lose(out);
                        return;
                    }
                    if (!replyLine.done()) {
                        break;
                    }
                    long size = HttpBytes.chunkSize(replyLine.bytes(), replyLine.length());
                    replyLine.clear();
                    if (size < 0) {
                        lose(out);
                        return;
                    }
                    if (size == 0) {
                        tState = T_TRAILER;
                    } else {
                        replyBody.start(size, 2);
                        tState = T_CHUNK_DATA;
                    }
                }
                default -> throw new IllegalStateException("response state " + tState);
            }
        }
    }

    private void responseHeader(byte[] l, int n) {
        int colon = HttpBytes.indexOf(l, 0, n, (byte) ':');
        if (colon <= 0) {
            return;
        }
        if (HttpBytes.nameIs(l, colon, "content-length")) {
            replyLength = HttpBytes.decimal(l, colon + 1, n);
        } else if (HttpBytes.nameIs(l, colon, "transfer-encoding")) {
            replyChunked = HttpBytes.endsWithToken(l, colon + 1, n, "chunked");
        }
    }

    private void responseHeadDone(CommandSink out) {
        if (status >= 100 && status < 200) {
            if (status == 101) {
                settleFirst(out);
                lose(out); // switched protocols: the rest is not HTTP
                return;
            }
            tState = T_START; // an interim response: the final one follows
            return;
        }
        boolean toHead = !waiting.isEmpty() && waiting.kind() == 1;
        if (toHead || status == 204 || status == 304) {
            responseDone(out);
        } else if (replyChunked) {
            tState = T_CHUNK_SIZE;
        } else if (replyLength >= 0) {
            replyBody.start(replyLength, 0);
            tState = T_BODY;
            if (replyLength == 0) {
                responseDone(out);
            }
        } else {
            // a body that ends with the connection: nothing after it can be framed
            settleFirst(out);
            lose(out);
        }
    }

    private void responseDone(CommandSink out) {
        tState = T_START;
        settleFirst(out);
    }

    private void settleFirst(CommandSink out) {
        waiting.settleNext(out, status >= 200 && status < 300 ? LogEntry.REPLY_OK : LogEntry.REPLY_ERROR);
    }

    @Override
    public void replyGap(long n, CommandSink out) {
        if ((tState == T_BODY || tState == T_CHUNK_DATA) && replyBody.skip(n)) {
            if (replyBody.done()) {
                if (tState == T_BODY) {
                    responseDone(out);
                } else {
                    tState = T_CHUNK_SIZE;
                }
            }
        } else if (tState != T_DEAD) {
            lose(out);
        }
    }

    private void lose(CommandSink out) {
        tState = T_DEAD;
        out.repliesLost();
    }
}
