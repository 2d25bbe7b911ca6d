package io.fluxperf.engine.protocol.http.log;

import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.log.ReaderContext;
import io.fluxperf.engine.log.capture.CommandSink;
import io.fluxperf.engine.log.capture.ConnectionReader;
import io.fluxperf.engine.request.Command;
import java.util.Arrays;

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
final class HttpConnectionReader implements ConnectionReader {
    /** The longest request line or header line read. */
    static final int MAX_LINE = 64 << 10;
    /** The most header bytes of one request or response. */
    static final int MAX_HEAD = 1 << 20;
    /** A body larger than this is read past, not held. */
    static final long HOLD_LIMIT = 64L << 20;
    static final String TOO_BIG = "requests larger than 64 MiB (read past, not held)";

    // request states
    private static final int R_SYNC = 0;
    private static final int R_START = 1;
    private static final int R_REQUEST_LINE = 2;
    private static final int R_HEADER = 3;
    private static final int R_BODY = 4;
    private static final int R_CHUNK_SIZE = 5;
    private static final int R_CHUNK_DATA = 6;
    private static final int R_TRAILER = 7;
    private static final int R_DEAD = 8;

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
    private LogEntry e;
    private final LineBuffer line = new LineBuffer();
    private int headBytes;
    private Command command;
    private int verb;
    private String skip;
    private boolean head;
    private boolean chunked;
    private long contentLength;
    private long bodyLeft;
    private int crlfLeft;
    private int bodyAt;
    private int bodyLength;
    private boolean bodyKept;
    private boolean cut;
    private boolean tooBig;
    private boolean tentative;
    private long tentativeBytes;
    private long syncSkipped;
    private int segmentFrom;
    private boolean upgrades;

    // requests waiting for their responses: handle, and whether it was HEAD (a response without a body)
    private long[] waitHandle = new long[16];
    private boolean[] waitHead = new boolean[16];
    private int waitFirst;
    private int waitCount;

    // ---- responses ----
    private int tState;
    private final LineBuffer replyLine = new LineBuffer();
    private int status;
    private boolean replyChunked;
    private long replyLength;
    private long replyLeft;
    private int replyCrlfLeft;
    private int replyHeadBytes;

    HttpConnectionReader(ReaderContext ctx) {
        this.ctx = ctx;
        this.prefix = ctx.keyPrefix;
    }

    @Override
    public void reset(boolean fromStart) {
        rState = fromStart ? R_START : R_SYNC;
        e = null;
        tentative = false;
        tentativeBytes = 0;
        syncSkipped = 0;
        waitFirst = 0;
        waitCount = 0;
        tState = T_START;
        line.clear();
        replyLine.clear();
        upgrades = false;
    }

    // ================= requests =================

    @Override
    public void request(byte[] b, int from, int to, CommandSink out) {
        if (rState == R_DEAD) {
            return;
        }
        if (rState == R_SYNC) {
            if (!HttpCapture.startsRequest(b, from, to)) {
                syncSkipped += to - from;
                return;
            }
            tentative = true;
            tentativeBytes = 0;
            rState = R_START;
        }
        segmentFrom = from;
        int p = from;
        while (p < to && rState != R_DEAD && rState != R_SYNC) {
            p = step(b, p, to, out);
        }
        if (tentative) {
            tentativeBytes += to - from;
        }
    }

    private int step(byte[] b, int p, int to, CommandSink out) {
        switch (rState) {
            case R_START -> {
                if (b[p] == '\r' || b[p] == '\n') {
                    return p + 1; // RFC 9112 2.2: empty lines before a request line are ignored
                }
                e = out.begin();
                cut = false;
                tooBig = false;
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
                if (bodyLeft > 0) {
                    int n = (int) Math.min(bodyLeft, to - p);
                    if (bodyKept && !cut) {
                        System.arraycopy(b, p, e.args, bodyAt, n);
                        bodyAt += n;
                        bodyLength += n;
                    }
                    bodyLeft -= n;
                    p += n;
                    if (bodyLeft == 0 && crlfLeft == 0) {
                        bodyPartDone(out);
                    }
                    return p;
                }
                if (b[p] != (crlfLeft == 2 ? '\r' : '\n')) {
                    return fail(out, b, p, to, "a chunk that does not end where its size says");
                }
                crlfLeft--;
                if (crlfLeft == 0) {
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
                long size = chunkSize(line.bytes(), line.length());
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
        int sp1 = indexOf(l, 0, n, (byte) ' ');
        int sp2 = sp1 < 0 ? -1 : indexOf(l, sp1 + 1, n, (byte) ' ');
        if (sp1 <= 0 || sp2 <= sp1 + 1 || n - sp2 - 1 != 8 || !startsWith(l, sp2 + 1, "HTTP/1.")) {
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
        int scheme = indexOf(l, from, to, (byte) ':');
        if (scheme > from && scheme + 2 < to && l[scheme + 1] == '/' && l[scheme + 2] == '/') {
            int slash = indexOf(l, scheme + 3, to, (byte) '/');
            return slash < 0 ? -1 : slash + 1;
        }
        return -1;
    }

    private String header(byte[] l, int n, CommandSink out) {
        if (n == 0) {
            return headDone(out);
        }
        int colon = indexOf(l, 0, n, (byte) ':');
        if (colon <= 0) {
            return "a header line without a colon";
        }
        if (nameIs(l, colon, "content-length")) {
            long v = decimal(l, colon + 1, n);
            if (v < 0) {
                return "a Content-Length that is not a number";
            }
            contentLength = v;
        } else if (nameIs(l, colon, "transfer-encoding")) {
            chunked = endsWithToken(l, colon + 1, n, "chunked");
        } else if (nameIs(l, colon, "upgrade")) {
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
        bodyLeft = n;
        crlfLeft = crlf;
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
        if (tentative) {
            tentative = false;
            tentativeBytes = 0;
            out.pickedUp(syncSkipped);
        }
        long handle;
        if (cut) {
            handle = out.cut();
        } else if (tooBig) {
            handle = out.skip(TOO_BIG);
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
        waitFor(handle, head);
        if (upgrades) {
            // after CONNECT or an Upgrade the connection may carry another protocol: read no more of it
            rState = R_DEAD;
        }
    }

    private int fail(CommandSink out, byte[] b, int p, int to, String what) {
        if (tentative) {
            syncSkipped += tentativeBytes + (to - segmentFrom);
            tentative = false;
            tentativeBytes = 0;
            rState = R_SYNC;
            e = null;
            out.abandon();
            return to;
        }
        rState = R_DEAD;
        e = null;
        out.requestsLost("bytes that are no HTTP request: " + what);
        return to;
    }

    @Override
    public void requestGap(long n, CommandSink out) {
        switch (rState) {
            case R_DEAD -> {
            }
            case R_SYNC -> syncSkipped += n;
            default -> {
                if (tentative) {
                    syncSkipped += tentativeBytes + n;
                    tentative = false;
                    tentativeBytes = 0;
                    rState = R_SYNC;
                    e = null;
                    out.abandon();
                } else if ((rState == R_BODY || rState == R_CHUNK_DATA) && n <= bodyLeft + crlfLeft) {
                    cut = true;
                    long fromBody = Math.min(n, bodyLeft);
                    bodyLeft -= fromBody;
                    crlfLeft -= (int) (n - fromBody);
                    if (bodyLeft == 0 && crlfLeft == 0) {
                        bodyPartDone(out);
                    }
                } else {
                    rState = R_DEAD;
                    e = null;
                    out.requestsLost(null);
                }
            }
        }
    }

    private void waitFor(long handle, boolean isHead) {
        if (waitCount == waitHandle.length) {
            int n = waitHandle.length * 2;
            long[] h = new long[n];
            boolean[] hd = new boolean[n];
            for (int i = 0; i < waitCount; i++) {
                int slot = (waitFirst + i) & (waitHandle.length - 1);
                h[i] = waitHandle[slot];
                hd[i] = waitHead[slot];
            }
            waitHandle = h;
            waitHead = hd;
            waitFirst = 0;
        }
        int slot = (waitFirst + waitCount) & (waitHandle.length - 1);
        waitHandle[slot] = handle;
        waitHead[slot] = isHead;
        waitCount++;
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
                        status = statusOf(l, n);
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
                    if (replyLeft > 0) {
                        int n = (int) Math.min(replyLeft, to - p);
                        replyLeft -= n;
                        p += n;
                    } else {
                        if (b[p] != (replyCrlfLeft == 2 ? '\r' : '\n')) {
                            lose(out);
                            return;
                        }
                        p++;
                        replyCrlfLeft--;
                    }
                    if (replyLeft == 0 && replyCrlfLeft == 0) {
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
                    long size = chunkSize(replyLine.bytes(), replyLine.length());
                    replyLine.clear();
                    if (size < 0) {
                        lose(out);
                        return;
                    }
                    if (size == 0) {
                        tState = T_TRAILER;
                    } else {
                        replyLeft = size;
                        replyCrlfLeft = 2;
                        tState = T_CHUNK_DATA;
                    }
                }
                default -> throw new IllegalStateException("response state " + tState);
            }
        }
    }

    private void responseHeader(byte[] l, int n) {
        int colon = indexOf(l, 0, n, (byte) ':');
        if (colon <= 0) {
            return;
        }
        if (nameIs(l, colon, "content-length")) {
            replyLength = decimal(l, colon + 1, n);
        } else if (nameIs(l, colon, "transfer-encoding")) {
            replyChunked = endsWithToken(l, colon + 1, n, "chunked");
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
        boolean toHead = waitCount > 0 && waitHead[waitFirst];
        if (toHead || status == 204 || status == 304) {
            responseDone(out);
        } else if (replyChunked) {
            tState = T_CHUNK_SIZE;
        } else if (replyLength >= 0) {
            replyLeft = replyLength;
            replyCrlfLeft = 0;
            tState = T_BODY;
            if (replyLeft == 0) {
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
        if (waitCount == 0) {
            if (rState == R_DEAD) {
                out.unreadCommandAnswered();
            }
            return;
        }
        long handle = waitHandle[waitFirst];
        waitFirst = (waitFirst + 1) & (waitHandle.length - 1);
        waitCount--;
        out.settle(handle, status >= 200 && status < 300 ? LogEntry.REPLY_OK : LogEntry.REPLY_ERROR);
    }

    @Override
    public void replyGap(long n, CommandSink out) {
        if ((tState == T_BODY || tState == T_CHUNK_DATA) && n <= replyLeft + replyCrlfLeft) {
            long fromBody = Math.min(n, replyLeft);
            replyLeft -= fromBody;
            replyCrlfLeft -= (int) (n - fromBody);
            if (replyLeft == 0 && replyCrlfLeft == 0) {
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

    // ---- bytes ----

    /** {@code HTTP/1.x SP 3DIGIT …}: the status code, or -1. */
    private static int statusOf(byte[] l, int n) {
        if (n < 12 || !startsWith(l, 0, "HTTP/1.") || l[8] != ' ') {
            return -1;
        }
        int s = 0;
        for (int i = 9; i < 12; i++) {
            if (l[i] < '0' || l[i] > '9') {
                return -1;
            }
            s = s * 10 + (l[i] - '0');
        }
        return s;
    }

    /** A chunk size line: hex digits, then optional extensions after ';'; -1 when not. */
    static long chunkSize(byte[] l, int n) {
        long v = 0;
        int digits = 0;
        int i = 0;
        for (; i < n; i++) {
            int c = l[i];
            int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
            if (d < 0) {
                break;
            }
            if (++digits > 15) {
                return -1;
            }
            v = v << 4 | d;
        }
        while (i < n && (l[i] == ' ' || l[i] == '\t')) {
            i++;
        }
        return digits == 0 || i < n && l[i] != ';' ? -1 : v;
    }

    private static long decimal(byte[] l, int from, int to) {
        while (from < to && (l[from] == ' ' || l[from] == '\t')) {
            from++;
        }
        while (to > from && (l[to - 1] == ' ' || l[to - 1] == '\t')) {
            to--;
        }
        if (from == to || to - from > 18) {
            return -1;
        }
        long v = 0;
        for (int i = from; i < to; i++) {
            if (l[i] < '0' || l[i] > '9') {
                return -1;
            }
            v = v * 10 + (l[i] - '0');
        }
        return v;
    }

    private static boolean nameIs(byte[] l, int colon, String lower) {
        if (colon != lower.length()) {
            return false;
        }
        for (int i = 0; i < colon; i++) {
            int c = l[i];
            if (c >= 'A' && c <= 'Z') {
                c += 32;
            }
            if (c != lower.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** Whether the comma-separated list {@code l[from, to)} ends with {@code token} (case-insensitive). */
    private static boolean endsWithToken(byte[] l, int from, int to, String token) {
        while (to > from && (l[to - 1] == ' ' || l[to - 1] == '\t')) {
            to--;
        }
        int start = to - token.length();
        if (start < from) {
            return false;
        }
        for (int i = 0; i < token.length(); i++) {
            int c = l[start + i];
            if (c >= 'A' && c <= 'Z') {
                c += 32;
            }
            if (c != token.charAt(i)) {
                return false;
            }
        }
        return start == from || l[start - 1] == ' ' || l[start - 1] == ',' || l[start - 1] == '\t';
    }

    private static int indexOf(byte[] l, int from, int to, byte c) {
        for (int i = from; i < to; i++) {
            if (l[i] == c) {
                return i;
            }
        }
        return -1;
    }

    static boolean startsWith(byte[] l, int at, String s) {
        if (l.length - at < s.length()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (l[at + i] != s.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** One line gathered across segments, without its CRLF (a bare LF ends it too). */
    static final class LineBuffer {
        private byte[] bytes = new byte[256];
        private int length;
        private boolean done;
        private boolean tooLong;

        void clear() {
            length = 0;
            done = false;
            tooLong = false;
        }

        /** Feeds {@code b[p, to)} up to the line's end; returns where it stopped. */
        int feed(byte[] b, int p, int to, int max) {
            int nl = p;
            while (nl < to && b[nl] != '\n') {
                nl++;
            }
            int n = nl - p;
            if (length + n > max) {
                tooLong = true;
                return to;
            }
            if (length + n > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(length + n, bytes.length * 2));
            }
            System.arraycopy(b, p, bytes, length, n);
            length += n;
            if (nl == to) {
                return to;
            }
            if (length > 0 && bytes[length - 1] == '\r') {
                length--;
            }
            done = true;
            return nl + 1;
        }

        boolean done() {
            return done;
        }

        boolean tooLong() {
            return tooLong;
        }

        byte[] bytes() {
            return bytes;
        }

        int length() {
            return length;
        }
    }
}
