package io.fluxperf.engine.protocol.http.target;

import io.fluxperf.engine.protocol.Ascii;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * Writes HTTP/1.1 responses into a connection's reply batch from pre-encoded pieces: status lines
 * for every code, fixed headers, a {@code Date} line made once per second, and the generated body
 * pattern. Stateless apart from the shared date cache; safe from any thread.
 */
final class HttpReplies {
    /** The generated body: printable bytes, repeated for bodies longer than the pattern. */
    private static final byte[] PATTERN = pattern(64 * 1024);
    private static final byte[][] STATUS_LINES = new byte[600][];
    private static final byte[] SERVER = Ascii.bytes("Server: fluxperf\r\n");
    private static final byte[] CONTENT_LENGTH = Ascii.bytes("Content-Length: ");
    private static final byte[] CONTENT_TYPE = Ascii.bytes("Content-Type: application/octet-stream\r\n");
    private static final byte[] CHUNKED = Ascii.bytes("Transfer-Encoding: chunked\r\n");
    private static final byte[] CLOSE = Ascii.bytes("Connection: close\r\n");
    private static final byte[] KEEP_ALIVE = Ascii.bytes("Connection: keep-alive\r\n");
    private static final byte[] ALLOW = Ascii.bytes("Allow: GET, HEAD, POST, PUT, DELETE\r\n");
    private static final byte[] LAST_CHUNK = Ascii.bytes("0\r\nX-Fluxperf-Trailer: end\r\n\r\n");
    static final byte[] CONTINUE = Ascii.bytes("HTTP/1.1 100 Continue\r\n\r\n");
    private static final short CRLF = ('\r' << 8) | '\n';
    private static final DateTimeFormatter DATE =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);

    static {
        for (int code = 100; code < 600; code++) {
            STATUS_LINES[code] = Ascii.bytes("HTTP/1.1 " + code + " " + HttpResponseStatus.valueOf(code).reasonPhrase() + "\r\n");
        }
    }

    /** The Date header of the current second: {epoch second, bytes}; replaced, never mutated. */
    private static volatile DateLine date = new DateLine(-1, new byte[0]);

    private record DateLine(long second, byte[] bytes) {
    }

    private HttpReplies() {
    }

    /** What a response carries; one per connection, reused. */
    static final class Response {
        int status;
        /** Stored bytes to send, or null for {@link #generatedLength} bytes of the pattern. */
        byte[] body;
        int generatedLength;
        /** Write the head only (HEAD, or a status that has no body). */
        boolean headOnly;
        /** Send the body in this many chunks (0: with Content-Length). */
        int chunks;
        boolean close;
        /** Say keep-alive explicitly (an HTTP/1.0 client that asked for it). */
        boolean keepAlive;
        boolean allow;

        Response reset() {
            status = 200;
            body = null;
            generatedLength = 0;
            headOnly = false;
            chunks = 0;
            close = false;
            keepAlive = false;
            allow = false;
            return this;
        }

        int bodyLength() {
            return body != null ? body.length : generatedLength;
        }
    }

    /** Writes the whole response; returns the number of bytes written. */
    static int write(ByteBuf out, Response r) {
        int start = out.writerIndex();
        boolean noBody = r.status == 204 || r.status == 304 || r.status < 200;
        out.writeBytes(STATUS_LINES[r.status]);
        out.writeBytes(SERVER);
        out.writeBytes(dateLine());
        if (r.close) {
            out.writeBytes(CLOSE);
        } else if (r.keepAlive) {
            out.writeBytes(KEEP_ALIVE);
        }
        if (r.allow) {
            out.writeBytes(ALLOW);
        }
        int length = r.bodyLength();
        if (!noBody) {
            out.writeBytes(CONTENT_TYPE);
            if (r.chunks > 0) {
                out.writeBytes(CHUNKED);
            } else {
                out.writeBytes(CONTENT_LENGTH);
                Ascii.writeLong(out, length);
                out.writeShort(CRLF);
            }
        }
        out.writeShort(CRLF);
        if (!noBody && !r.headOnly) {
            if (r.chunks > 0) {
                writeChunked(out, r, length);
            } else {
                writeBody(out, r, 0, length);
            }
        }
        return out.writerIndex() - start;
    }

    private static void writeChunked(ByteBuf out, Response r, int length) {
        int chunks = Math.max(1, Math.min(r.chunks, Math.max(1, length)));
        int from = 0;
        for (int c = 0; c < chunks && length > 0; c++) {
            int size = (length - from) / (chunks - c);
            if (size == 0) {
                continue;
            }
            out.writeCharSequence(Integer.toHexString(size), StandardCharsets.US_ASCII);
            if (c == 0) {
                out.writeCharSequence(";fluxperf=1", StandardCharsets.US_ASCII); // a chunk extension, to be ignored
            }
            out.writeShort(CRLF);
            writeBody(out, r, from, size);
            out.writeShort(CRLF);
            from += size;
        }
        out.writeBytes(LAST_CHUNK);
    }

    private static void writeBody(ByteBuf out, Response r, int from, int length) {
        if (r.body != null) {
            out.writeBytes(r.body, from, length);
            return;
        }
        int end = from + length;
        while (from < end) {
            int offset = from % PATTERN.length;
            int n = Math.min(end - from, PATTERN.length - offset);
            out.writeBytes(PATTERN, offset, n);
            from += n;
        }
    }

    /** The generated body of {@code length} bytes, for tests. */
    static byte[] generated(int length) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = PATTERN[i % PATTERN.length];
        }
        return b;
    }

    private static byte[] dateLine() {
        long second = System.currentTimeMillis() / 1000;
        DateLine d = date;
        if (d.second != second) {
            d = new DateLine(second, Ascii.bytes("Date: " + DATE.format(Instant.ofEpochSecond(second)) + "\r\n"));
            date = d;
        }
        return d.bytes;
    }

    private static byte[] pattern(int length) {
        byte[] alphabet = Ascii.bytes("abcdefghijklmnopqrstuvwxyz0123456789");
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = alphabet[i % alphabet.length];
        }
        return b;
    }
}
