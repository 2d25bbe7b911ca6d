package io.fluxperf.engine.protocol.http;

import io.fluxperf.engine.protocol.Ascii;
import io.fluxperf.engine.protocol.ProtocolException;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Finds where one HTTP/1.x response ends (RFC 9112 §6.3) and reads its status: a resumable state
 * machine over a buffer that it does not consume until a whole response is there.
 *
 * <h2>Assumptions and guarantees</h2>
 * <ul>
 *   <li>Between two calls that returned {@link #NEED_MORE}, nobody consumes from the buffer; its
 *       reader index may move (Netty's cumulator discards read bytes), so every position kept here
 *       is relative to the reader index. Bytes once scanned are not scanned again: a response
 *       that arrives a byte at a time costs O(size), and a large body costs O(1) per call. Heads
 *       are parsed from a per-connection copy (typically one bulk copy per response), not byte by
 *       byte through the buffer's access checks; the copy stays valid because nothing is
 *       consumed between calls.</li>
 *   <li>{@link #decode} either returns {@link #NEED_MORE} without consuming anything, or consumes
 *       exactly one final response (with the 1xx interim responses before it) and returns its
 *       status code. Partial input never throws; bytes that cannot be a response throw
 *       {@link ProtocolException} and nothing else (no parse of a number can overflow).</li>
 *   <li>Framing: 1xx, 204 and 304 have no body; {@code Transfer-Encoding} whose last coding is
 *       {@code chunked} is read chunk by chunk up to the trailers; another transfer coding, or no
 *       {@code Content-Length}, means the body ends when the server closes (see
 *       {@link #decodeAtEnd}); otherwise {@code Content-Length} bytes. We never send HEAD, so a
 *       response never omits a body it announces.</li>
 *   <li>Connection end: a response with {@code Connection: close}, an HTTP/1.0 response without
 *       {@code Connection: keep-alive} and a close-delimited one end the connection:
 *       {@link #closesConnection()} turns true and any later byte is a protocol error.</li>
 *   <li>Bounded: a line longer than {@value #MAX_LINE} bytes, a head (or trailer section) longer
 *       than {@value #MAX_HEAD} bytes, or a response longer than {@link #MAX_RESPONSE} bytes is a
 *       protocol error, because the whole response is held in memory until it is complete.</li>
 * </ul>
 * Lines may end in CRLF or a bare LF (RFC 9112 §2.2). Not thread-safe: one per connection.
 */
final class HttpResponseDecoder {
    static final int NEED_MORE = -1;
    static final int MAX_LINE = 8192;
    static final int MAX_HEAD = 64 * 1024;
    static final int MAX_RESPONSE = 64 << 20;

    private static final int STATUS_LINE = 0;
    private static final int HEADERS = 1;
    private static final int FIXED_BODY = 2;
    private static final int CHUNK_SIZE = 3;
    private static final int CHUNK_DATA = 4;
    private static final int TRAILERS = 5;
    private static final int UNTIL_CLOSE = 6;

    private static final byte[] HTTP_1 = "HTTP/1.".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CONTENT_LENGTH = lower("content-length");
    private static final byte[] TRANSFER_ENCODING = lower("transfer-encoding");
    private static final byte[] CONNECTION = lower("connection");
    private static final byte[] CHUNKED = lower("chunked");
    private static final byte[] CLOSE = lower("close");
    private static final byte[] KEEP_ALIVE = lower("keep-alive");

    /**
     * A copy of the buffer's bytes [{@link #windowStart}, {@link #windowEnd}) (relative offsets):
     * lines are found and parsed in this array, with one bulk copy per response or so, rather
     * than byte by byte through the buffer's checks. It stays valid between calls because nothing
     * is consumed between them; it grows up to {@link #MAX_LINE} (connections may be many).
     */
    private byte[] window = new byte[512];
    private int windowStart;
    private int windowEnd;
    /** The current line's content (without CR LF) is window[lineStart, lineEnd). */
    private int lineStart;
    private int lineEnd;

    private int state = STATUS_LINE;
    /** Start of the next element (line, chunk, body), relative to the reader index. */
    private int pos;
    /** How far a line end has been searched for, relative; never below {@link #pos} when used. */
    private int scanned;
    /** Readable bytes below which no progress is possible; lets a waiting body cost O(1). */
    private int wanted;
    /** Start of the current head or trailer section, relative, for the size bound. */
    private int sectionStart;
    /** End of a fixed body or of the current chunk's data, relative. */
    private int dataEnd;

    private int status;
    private boolean http10;
    private long contentLength;
    private boolean transferEncoding;
    private boolean chunked;
    private boolean connectionClose;
    private boolean keepAlive;

    /** The last response ended the connection: nothing more may come on it. */
    private boolean closing;

    /** Back to the state of a new decoder, for a new connection; the window (grown or not) is kept. */
    void reset() {
        windowStart = 0;
        windowEnd = 0;
        lineStart = 0;
        lineEnd = 0;
        state = STATUS_LINE;
        pos = 0;
        scanned = 0;
        wanted = 0;
        sectionStart = 0;
        dataEnd = 0;
        status = 0;
        http10 = false;
        contentLength = 0;
        transferEncoding = false;
        chunked = false;
        connectionClose = false;
        keepAlive = false;
        closing = false;
    }

    /**
     * Decodes one response from the start of {@code in}.
     *
     * @return its status code, having consumed it; or {@link #NEED_MORE}, having consumed nothing
     * @throws ProtocolException when the bytes cannot be an HTTP/1.x response
     */
    int decode(ByteBuf in) throws ProtocolException {
        int avail = in.readableBytes();
        if (closing) {
            if (avail > 0) {
                throw new ProtocolException("the server sent " + avail + " bytes after a response that closed the connection");
            }
            return NEED_MORE;
        }
        if (avail < wanted) {
            return NEED_MORE;
        }
        int base = in.readerIndex();
        while (true) {
            switch (state) {
                case STATUS_LINE -> {
                    if (readLine(in, base, avail) < 0) {
                        return NEED_MORE;
                    }
                    statusLine();
                    state = HEADERS;
                }
                case HEADERS -> {
                    if (readLine(in, base, avail) < 0) {
                        if (avail - sectionStart > MAX_HEAD) {
                            throw new ProtocolException("HTTP response head longer than " + MAX_HEAD + " bytes");
                        }
                        return NEED_MORE;
                    }
                    if (pos - sectionStart > MAX_HEAD) {
                        throw new ProtocolException("HTTP response head longer than " + MAX_HEAD + " bytes");
                    }
                    if (lineEnd > lineStart) {
                        header();
                    } else if (endOfHead()) {
                        return finish(in, base, pos);
                    }
                }
                case FIXED_BODY -> {
                    if (avail < dataEnd) {
                        wanted = dataEnd;
                        return NEED_MORE;
                    }
                    return finish(in, base, dataEnd);
                }
                case CHUNK_SIZE -> {
                    if (readLine(in, base, avail) < 0) {
                        return NEED_MORE;
                    }
                    long size = chunkSize();
                    if (size == 0) {
                        state = TRAILERS;
                        sectionStart = pos;
                    } else {
                        if (pos + size > MAX_RESPONSE) {
                            throw tooLarge();
                        }
                        dataEnd = pos + (int) size;
                        state = CHUNK_DATA;
                    }
                }
                case CHUNK_DATA -> {
                    // the data, then CRLF (or a bare LF)
                    if (avail <= dataEnd) {
                        wanted = dataEnd + 1;
                        return NEED_MORE;
                    }
                    byte b = in.getByte(base + dataEnd);
                    if (b == '\r') {
                        if (avail <= dataEnd + 1) {
                            wanted = dataEnd + 2;
                            return NEED_MORE;
                        }
                        b = in.getByte(base + dataEnd + 1);
                        if (b != '\n') {
                            throw new ProtocolException("HTTP chunk data not followed by CRLF");
                        }
                        pos = dataEnd + 2;
                    } else if (b == '\n') {
                        pos = dataEnd + 1;
                    } else {
                        throw new ProtocolException("HTTP chunk data not followed by CRLF");
                    }
                    state = CHUNK_SIZE;
                }
                case TRAILERS -> {
                    if (readLine(in, base, avail) < 0) {
                        if (avail - sectionStart > MAX_HEAD) {
                            throw new ProtocolException("HTTP trailer section longer than " + MAX_HEAD + " bytes");
                        }
                        return NEED_MORE;
                    }
                    if (pos - sectionStart > MAX_HEAD) {
                        throw new ProtocolException("HTTP trailer section longer than " + MAX_HEAD + " bytes");
                    }
                    if (lineEnd == lineStart) {
                        return finish(in, base, pos);
                    }
                    byte first = window[lineStart];
                    if (first != ' ' && first != '\t' && indexOf(window, lineStart, lineEnd, (byte) ':') < 0) {
                        throw malformed("trailer field");
                    }
                }
                case UNTIL_CLOSE -> {
                    if (avail > MAX_RESPONSE) {
                        throw tooLarge();
                    }
                    wanted = avail + 1;
                    return NEED_MORE;
                }
                default -> throw new IllegalStateException("state " + state);
            }
        }
    }

    /**
     * The server closed the connection with {@code in} still unread: a response whose body ends
     * by the close is complete now.
     *
     * @return its status, having consumed everything; or {@link #NEED_MORE} when the bytes are a
     *         response cut short (the request then ended as closed)
     */
    int decodeAtEnd(ByteBuf in) throws ProtocolException {
        int result = decode(in);
        if (result != NEED_MORE || state != UNTIL_CLOSE) {
            return result;
        }
        return finish(in, in.readerIndex(), in.readableBytes());
    }

    /** The last decoded response ends the connection (Connection: close, HTTP/1.0, or a body ended by close). */
    boolean closesConnection() {
        return closing;
    }

    /** Whether a response was begun but not finished (for tests). */
    boolean inResponse() {
        return state != STATUS_LINE || pos > 0;
    }

    // ---- lines ----

    /**
     * Finds the line at {@link #pos} in the window (copying more of the buffer into it as needed),
     * sets {@link #lineStart} and {@link #lineEnd}, moves {@link #pos} past it and returns its
     * relative LF index. Returns -1, having noted how far it searched and how many bytes it wants,
     * when the line is incomplete.
     */
    private int readLine(ByteBuf in, int base, int avail) throws ProtocolException {
        while (true) {
            if (pos < windowStart || pos > windowEnd) {
                windowStart = pos;
                windowEnd = pos;
            }
            int from = Math.max(scanned, pos);
            int searchEnd = Math.min(windowEnd, pos + MAX_LINE);
            int lf = indexOf(window, from - windowStart, searchEnd - windowStart, (byte) '\n');
            if (lf >= 0) {
                int start = pos - windowStart;
                int end = lf > start && window[lf - 1] == '\r' ? lf - 1 : lf;
                lineStart = start;
                lineEnd = end;
                lf += windowStart;
                pos = lf + 1;
                scanned = pos;
                return lf;
            }
            scanned = Math.max(from, searchEnd);
            if (searchEnd - pos >= MAX_LINE) {
                throw new ProtocolException("HTTP response line longer than " + MAX_LINE + " bytes");
            }
            if (windowEnd >= avail) {
                wanted = avail + 1;
                return -1;
            }
            refill(in, base, avail);
        }
    }

    /** Moves the window to start at {@link #pos} and fills it from the buffer, growing it when one line fills it. */
    private void refill(ByteBuf in, int base, int avail) {
        int keep = windowEnd - pos;
        if (keep == window.length) {
            window = Arrays.copyOf(window, Math.min(MAX_LINE, window.length * 2));
        } else if (pos > windowStart && keep > 0) {
            System.arraycopy(window, pos - windowStart, window, 0, keep);
        }
        windowStart = pos;
        int n = Math.min(avail - windowEnd, window.length - keep);
        in.getBytes(base + windowEnd, window, keep, n);
        windowEnd += n;
    }

    private int lineLength() {
        return lineEnd - lineStart;
    }

    // ---- head ----

    private void statusLine() throws ProtocolException {
        // HTTP/1.x SP 3DIGIT [SP reason]
        byte[] l = window;
        int s = lineStart;
        int n = lineEnd - s;
        if (n < 12 || !startsWith(l, s, HTTP_1) || l[s + 8] != ' ') {
            throw malformed("status line");
        }
        byte minor = l[s + 7];
        int d0 = l[s + 9] - '0';
        int d1 = l[s + 10] - '0';
        int d2 = l[s + 11] - '0';
        if (minor < '0' || minor > '9' || d0 < 1 || d0 > 5 || d1 < 0 || d1 > 9 || d2 < 0 || d2 > 9
                || (n > 12 && l[s + 12] != ' ')) {
            throw malformed("status line");
        }
        status = d0 * 100 + d1 * 10 + d2;
        http10 = minor == '0';
        contentLength = -1;
        transferEncoding = false;
        chunked = false;
        connectionClose = false;
        keepAlive = false;
    }

    private void header() throws ProtocolException {
        byte[] l = window;
        int start = lineStart;
        int end = lineEnd;
        byte first = l[start];
        if (first == ' ' || first == '\t') {
            return; // obsolete line folding: a continuation of a field we do not read (RFC 9112 §5.2)
        }
        int colon = indexOf(l, start, end, (byte) ':');
        if (colon <= start) {
            throw malformed("header field");
        }
        // only three names matter; their lengths differ, so the length picks the candidate
        int nameLength = colon - start;
        byte[] name = nameLength == CONTENT_LENGTH.length ? CONTENT_LENGTH
                : nameLength == TRANSFER_ENCODING.length ? TRANSFER_ENCODING
                : nameLength == CONNECTION.length ? CONNECTION : null;
        if (name == null || !nameIs(l, start, name)) {
            return;
        }
        int valueStart = skipSpace(l, colon + 1, end);
        int valueEnd = trimSpace(l, valueStart, end);
        if (name == CONTENT_LENGTH) {
            contentLength(valueStart, valueEnd);
        } else if (name == TRANSFER_ENCODING) {
            transferEncoding = true;
            // the last coding decides: chunked there means chunked framing (RFC 9112 §6.3)
            int comma = valueEnd - 1;
            while (comma >= valueStart && l[comma] != ',') {
                comma--;
            }
            int tokenStart = skipSpace(l, comma + 1, valueEnd);
            chunked = tokenIs(l, tokenStart, valueEnd, CHUNKED);
        } else {
            int tokenStart = valueStart;
            while (tokenStart < valueEnd) {
                int comma = indexOf(l, tokenStart, valueEnd, (byte) ',');
                int tokenEnd = comma < 0 ? valueEnd : comma;
                int s = skipSpace(l, tokenStart, tokenEnd);
                int e = trimSpace(l, s, tokenEnd);
                if (tokenIs(l, s, e, CLOSE)) {
                    connectionClose = true;
                } else if (tokenIs(l, s, e, KEEP_ALIVE)) {
                    keepAlive = true;
                }
                tokenStart = tokenEnd + 1;
            }
        }
    }

    private void contentLength(int start, int end) throws ProtocolException {
        // "5" or the list form "5, 5" that some intermediaries send; every member must agree
        byte[] l = window;
        long length = -1;
        int s = start;
        while (s < end) {
            int comma = indexOf(l, s, end, (byte) ',');
            int e = comma < 0 ? end : comma;
            int ts = skipSpace(l, s, e);
            long v = parseDecimal(l, ts, trimSpace(l, ts, e));
            if (v < 0 || (length >= 0 && v != length)) {
                throw malformed("Content-Length");
            }
            length = v;
            s = e + 1;
        }
        if (length < 0 || (contentLength >= 0 && contentLength != length)) {
            throw malformed("Content-Length");
        }
        if (length > MAX_RESPONSE) {
            throw tooLarge();
        }
        contentLength = length;
    }

    /** The head ended: returns true when the response is complete without a body, else sets up the body. */
    private boolean endOfHead() throws ProtocolException {
        if (status < 200) {
            if (status == 101) {
                throw new ProtocolException("HTTP 101 Switching Protocols, which fluxperf did not ask for");
            }
            // an interim response (100 Continue, 103 Early Hints): the final one follows
            state = STATUS_LINE;
            sectionStart = pos;
            return false;
        }
        if (status == 204 || status == 304) {
            return true;
        }
        if (transferEncoding) {
            state = chunked ? CHUNK_SIZE : UNTIL_CLOSE;
            return false;
        }
        if (contentLength >= 0) {
            if (pos + contentLength > MAX_RESPONSE) {
                throw tooLarge();
            }
            dataEnd = pos + (int) contentLength;
            state = FIXED_BODY;
            return false;
        }
        state = UNTIL_CLOSE;
        return false;
    }

    private long chunkSize() throws ProtocolException {
        byte[] l = window;
        int start = lineStart;
        int end = lineEnd;
        long size = 0;
        int i = start;
        for (; i < end; i++) {
            int d = Ascii.hexDigit(l[i]);
            if (d < 0) {
                break;
            }
            size = size * 16 + d;
            if (size > MAX_RESPONSE) {
                throw tooLarge();
            }
        }
        if (i == start) {
            throw malformed("chunk size");
        }
        i = skipSpace(l, i, end);
        if (i < end && l[i] != ';') {
            throw malformed("chunk size");
        }
        return size; // chunk extensions after ';' are ignored
    }

    private int finish(ByteBuf in, int base, int end) {
        in.readerIndex(base + end);
        closing = state == UNTIL_CLOSE || connectionClose || (http10 && !keepAlive);
        int result = status;
        state = STATUS_LINE;
        pos = 0;
        scanned = 0;
        wanted = 0;
        sectionStart = 0;
        dataEnd = 0;
        // what the window holds of the next response stays: offsets are now relative to the new reader index
        windowStart -= end;
        windowEnd -= end;
        if (windowEnd <= 0) {
            windowStart = 0;
            windowEnd = 0;
        }
        return result;
    }

    // ---- bytes ----

    /** A non-negative decimal of at most 18 digits in [start, end), or -1. */
    private static long parseDecimal(byte[] l, int start, int end) {
        if (start >= end || end - start > 18) {
            return -1;
        }
        long v = 0;
        for (int i = start; i < end; i++) {
            int d = l[i] - '0';
            if (d < 0 || d > 9) {
                return -1;
            }
            v = v * 10 + d;
        }
        return v;
    }

    private static int indexOf(byte[] l, int from, int end, byte b) {
        for (int i = from; i < end; i++) {
            if (l[i] == b) {
                return i;
            }
        }
        return -1;
    }

    private static int skipSpace(byte[] l, int from, int end) {
        while (from < end && (l[from] == ' ' || l[from] == '\t')) {
            from++;
        }
        return from;
    }

    private static int trimSpace(byte[] l, int start, int end) {
        while (end > start && (l[end - 1] == ' ' || l[end - 1] == '\t')) {
            end--;
        }
        return end;
    }

    private static boolean startsWith(byte[] l, int start, byte[] prefix) {
        for (int i = 0; i < prefix.length; i++) {
            if (l[start + i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    /** Case-insensitive match of a field name against {@code lower} (lower-case ASCII). */
    private static boolean nameIs(byte[] l, int start, byte[] lower) {
        for (int i = 0; i < lower.length; i++) {
            byte b = l[start + i];
            byte c = lower[i];
            if (b != c && !(c >= 'a' && c <= 'z' && (b | 0x20) == c)) {
                return false;
            }
        }
        return true;
    }

    private static boolean tokenIs(byte[] l, int start, int end, byte[] lower) {
        return end - start == lower.length && nameIs(l, start, lower);
    }

    private static byte[] lower(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static ProtocolException tooLarge() {
        return new ProtocolException("HTTP response larger than " + (MAX_RESPONSE >> 20)
                + " MiB (fluxperf holds a response in memory until it is complete)");
    }

    private ProtocolException malformed(String what) {
        int length = Math.min(lineLength(), 80);
        String text = io.fluxperf.engine.Printable.bytes(window, lineStart, length);
        return new ProtocolException("malformed HTTP " + what + " '" + text + (lineLength() > 80 ? "…" : "") + "'");
    }
}
