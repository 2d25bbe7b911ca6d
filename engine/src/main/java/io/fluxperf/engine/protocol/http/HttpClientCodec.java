package io.fluxperf.engine.protocol.http;

import io.fluxperf.engine.protocol.Ascii;
import io.fluxperf.engine.protocol.ProtocolCodec;
import io.fluxperf.engine.protocol.ProtocolException;
import io.fluxperf.engine.request.CommandTemplate;
import io.fluxperf.engine.request.Outcome;
import io.fluxperf.engine.request.Request;
import io.netty.buffer.ByteBuf;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * The client side of HTTP/1.1 for one keep-alive connection whose responses come in request
 * order (pipelining is allowed by RFC 9112 §9.3.2 and nginx answers it in order).
 *
 * <p><b>Requests</b> are written from pre-encoded pieces, with nothing allocated per request:
 * the method, the path, then {@link HttpRequestHead} (request-line end, Host, User-Agent, the
 * user's headers), then for POST and PUT {@code Content-Length} and the request's value as the
 * body. The path is the request's template ({@code --path /items/__key__}) expanded while
 * writing, or {@code /} without one (as wrk and dperf ask); key and value bytes that are not
 * allowed in a path are percent-encoded. A replayed request of a packet capture carries its
 * request-target as its first argument, written as it was sent. SET (what {@code --hit} preloads with) is sent as PUT, so a preload stores the
 * values that later GETs read.
 *
 * <p><b>Outcomes</b>: a response whose status class (2 for 2xx, …) is in
 * {@link HttpOptions#okClasses()} ({@code --http-ok}) is OK, any other is ERROR,
 * ("non-2xx counted as errors unless told otherwise"). A GET answered 404 is
 * therefore an ERROR by default, not a MISS: an HTTP server gives no reliable "not found" for a
 * load test to count as a miss (a 404 is as often a wrong path as an absent item), and
 * {@code --http-ok 2xx,4xx} makes it OK when 404s are expected. Bytes that are not a response
 * are a {@link ProtocolException}. HTTP has no MISS.
 *
 * <p><b>Connection end</b>: after a response that closes the connection (see
 * {@link #closesConnection()}) the server sends nothing more; requests already pipelined behind
 * it end as CLOSED when it closes. A response whose body ends by the close itself stays
 * incomplete until then; {@link #decodeAtEnd} completes it when the engine reports the end of
 * the stream (without that hook the request ends as CLOSED).
 *
 * <p>Status classes of all decoded responses are counted ({@link #statusClassCounts()}), and the
 * last one is readable ({@link #replyClass()}) for the engine's per-class report.
 */
final class HttpClientCodec implements ProtocolCodec {
    private static final byte[] GET = Ascii.bytes("GET ");
    private static final byte[] POST = Ascii.bytes("POST ");
    private static final byte[] PUT = Ascii.bytes("PUT ");
    private static final byte[] DELETE = Ascii.bytes("DELETE ");
    private static final byte[] CONTENT_LENGTH = Ascii.bytes("Content-Length: ");
    private static final short CRLF = ('\r' << 8) | '\n';
    private static final int CRLF_CRLF = ('\r' << 24) | ('\n' << 16) | ('\r' << 8) | '\n';
    private static final byte[] HEX = Ascii.bytes("0123456789ABCDEF");
    /** Bytes written as they are in a path: RFC 3986 pchar and '/', less '%' (which we encode). */
    private static final boolean[] PATH_SAFE = new boolean[256];

    static {
        for (char c = 'a'; c <= 'z'; c++) {
            PATH_SAFE[c] = true;
            PATH_SAFE[c - 'a' + 'A'] = true;
        }
        for (char c = '0'; c <= '9'; c++) {
            PATH_SAFE[c] = true;
        }
        for (char c : "-._~!$&'()*+,;=:@/".toCharArray()) {
            PATH_SAFE[c] = true;
        }
    }

    private final byte[] afterPath;
    /** Indexed by status class 0..9. */
    private final boolean[] okClass = new boolean[10];
    private final HttpResponseDecoder decoder = new HttpResponseDecoder();
    /** Responses by status class: index 1 for 1xx (never counted: interim) … 5 for 5xx. */
    private final long[] statusClassCounts = new long[6];
    private int lastStatus;

    HttpClientCodec(HttpRequestHead head, Set<Integer> okClasses) {
        this.afterPath = head.afterPath();
        for (int c : okClasses) {
            if (c >= 0 && c < okClass.length) {
                okClass[c] = true;
            }
        }
    }

    @Override
    public void encode(Request r, ByteBuf out) {
        boolean body;
        switch (r.command()) {
            case GET -> {
                out.writeBytes(GET);
                body = false;
            }
            case DELETE -> {
                out.writeBytes(DELETE);
                body = false;
            }
            case POST -> {
                out.writeBytes(POST);
                body = true;
            }
            case PUT, SET -> {
                out.writeBytes(PUT);
                body = true;
            }
            default -> throw new IllegalArgumentException("http cannot send " + r.command().label());
        }
        writePath(r, out);
        out.writeBytes(afterPath);
        if (body) {
            out.writeBytes(CONTENT_LENGTH);
            Ascii.writeLong(out, r.value() == null ? 0 : r.valueLength());
            out.writeInt(CRLF_CRLF);
            if (r.value() != null) {
                out.writeBytes(r.value(), r.valueOffset(), r.valueLength());
            }
        } else {
            out.writeShort(CRLF);
        }
    }

    private static void writePath(Request r, ByteBuf out) {
        if (r.argCount() > 0) {
            // a replayed request (a packet capture's) carries its request-target, written as it was sent
            out.writeBytes(r.argBytes(), r.argOffset(0), r.argLength(0));
            return;
        }
        CommandTemplate template = r.template();
        if (template == null) {
            out.writeByte('/'); // as wrk and dperf ask: a key is in the path only where the template puts __key__
            return;
        }
        List<CommandTemplate.Part> parts = template.words().get(0);
        for (int i = 0; i < parts.size(); i++) {
            CommandTemplate.Part p = parts.get(i);
            if (p instanceof CommandTemplate.Literal l) {
                out.writeBytes(l.bytes());
            } else if (p instanceof CommandTemplate.Key) {
                if (r.keyCount() > 0) {
                    writeEncoded(out, r.keyBytes(), r.keyOffset(0), r.keyLength(0));
                }
            } else if (p instanceof CommandTemplate.Data) {
                if (r.value() != null) {
                    writeEncoded(out, r.value(), r.valueOffset(), r.valueLength());
                }
            } else {
                Ascii.writeUnsignedLong(out, r.numeric());
            }
        }
    }

    /** Writes bytes into a path, percent-encoding what a path cannot hold; one copy when nothing needs it. */
    private static void writeEncoded(ByteBuf out, byte[] bytes, int offset, int length) {
        int end = offset + length;
        int i = offset;
        while (i < end && PATH_SAFE[bytes[i] & 0xff]) {
            i++;
        }
        out.writeBytes(bytes, offset, i - offset);
        for (; i < end; i++) {
            int b = bytes[i] & 0xff;
            if (PATH_SAFE[b]) {
                out.writeByte(b);
            } else {
                out.writeByte('%');
                out.writeByte(HEX[b >> 4]);
                out.writeByte(HEX[b & 15]);
            }
        }
    }

    @Override
    public int decode(ByteBuf in, Request r) throws ProtocolException {
        return outcome(decoder.decode(in));
    }

    /**
     * The end of the stream: the server closed with {@code in} unread. Completes a response whose
     * body is delimited by the close; returns {@link #NEED_MORE} when the bytes are a response cut
     * short (the request is then CLOSED). For the engine hook proposed with this codec.
     */
    public int decodeAtEnd(ByteBuf in, Request r) throws ProtocolException {
        return outcome(decoder.decodeAtEnd(in));
    }

    private int outcome(int status) {
        if (status == HttpResponseDecoder.NEED_MORE) {
            return NEED_MORE;
        }
        lastStatus = status;
        int statusClass = status / 100;
        statusClassCounts[statusClass]++;
        return okClass[statusClass] ? Outcome.OK.ordinal() : Outcome.ERROR.ordinal();
    }

    @Override
    public boolean hasHandshake() {
        return false;
    }

    @Override
    public boolean resetForNewConnection() {
        decoder.reset();
        lastStatus = 0;
        Arrays.fill(statusClassCounts, 0);
        return true;
    }

    /** The server will close the connection after the last response: send nothing more on it. */
    public boolean closesConnection() {
        return decoder.closesConnection();
    }

    /** The status code of the last response decoded, 0 before the first. */
    public int lastStatus() {
        return lastStatus;
    }

    /**
     * The status class (2 for 2xx, …) of the response just decoded, -1 before the first: what the
     * proposed {@code ProtocolCodec.replyClass()} hook would read after each decode.
     */
    public int replyClass() {
        return lastStatus == 0 ? -1 : lastStatus / 100;
    }

    /** Responses decoded on this connection by status class: index c counts cxx (index 0 unused). */
    public long[] statusClassCounts() {
        return statusClassCounts;
    }
}
