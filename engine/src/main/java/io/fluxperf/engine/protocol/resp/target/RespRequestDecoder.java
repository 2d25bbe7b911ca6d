package io.fluxperf.engine.protocol.resp.target;

import io.fluxperf.engine.protocol.Ascii;
import io.netty.buffer.ByteBuf;

/**
 * Frames redis requests on the server side, as redis' {@code processMultibulkBuffer} and
 * {@code processInlineBuffer} do: a RESP array of bulk strings ({@code *2\r\n$3\r\nGET\r\n$1\r\nk\r\n},
 * what clients send), or an inline command line ({@code GET k\r\n}, what telnet sends), with
 * redis' quoting rules and limits and its protocol error texts.
 *
 * <p>A resumable state machine: {@link #decode} consumes what it can and returns when it needs
 * more, so commands may be pipelined and split at any byte; a bulk string is copied straight
 * from the reads into the command's {@link RespArgs} as its bytes arrive, never accumulated. On a
 * protocol error it tells the sink, which answers, and stops: redis closes such a connection.
 */
final class RespRequestDecoder {
    /** redis' PROTO_INLINE_MAX_SIZE: bound on an inline line and on a count line. */
    static final int MAX_INLINE = 64 << 10;
    /** redis 7's limit on the number of words of one command. */
    static final long MAX_MULTIBULK = Integer.MAX_VALUE;
    /** Before authentication, redis accepts only this many words … */
    static final long MAX_UNAUTHENTICATED_MULTIBULK = 10;
    /** … and bulk strings only this long. */
    static final long MAX_UNAUTHENTICATED_BULK = 16384;
    /** redis' proto-max-bulk-len default. */
    static final long MAX_BULK = 512L << 20;

    /** Bulk strings up to this are allocated whole when announced; larger ones grow as their bytes arrive. */
    private static final int PREALLOCATE_BULK = 64 << 10;

    private static final int COMMAND = 0;
    private static final int BULK_HEADER = 1;
    private static final int BULK = 2;
    private static final int BULK_END = 3;
    private static final int STOPPED = 4;

    /** What the framed commands mean; called on the connection's event loop. */
    interface Sink {
        /** A complete command (at least one word); the sink may call {@link #stop()}. */
        void onCommand(RespArgs args, RespRequestDecoder decoder);

        /** Bytes that are not a request; {@code message} is redis' text, e.g. {@code Protocol error: invalid bulk length}. The decoder stops. */
        void onProtocolError(String message);

        /** Whether the client must still authenticate (then big frames are refused, as redis does). */
        boolean authRequired();
    }

    private final RespArgs args = new RespArgs();
    private int state = COMMAND;
    private long wordsLeft;
    private long bulkLeft;
    private int bulkFilled;
    private int bulkEndLeft;

    void stop() {
        state = STOPPED;
    }

    boolean stopped() {
        return state == STOPPED;
    }

    /** Consumes whole frames (and the readable part of a bulk string) from {@code in}, feeding the sink. */
    void decode(ByteBuf in, Sink sink) {
        while (state != STOPPED && in.isReadable()) {
            switch (state) {
                case COMMAND -> {
                    if (in.getByte(in.readerIndex()) == '*') {
                        if (!multibulkHeader(in, sink)) {
                            return;
                        }
                    } else if (!inline(in, sink)) {
                        return;
                    }
                }
                case BULK_HEADER -> {
                    if (!bulkHeader(in, sink)) {
                        return;
                    }
                }
                case BULK -> {
                    int n = (int) Math.min(bulkLeft, in.readableBytes());
                    args.reserve((long) bulkFilled + n); // grows as the bytes come, not as announced
                    in.readBytes(args.bytes, args.used() + bulkFilled, n);
                    bulkFilled += n;
                    bulkLeft -= n;
                    if (bulkLeft > 0) {
                        return;
                    }
                    args.add(bulkFilled);
                    state = BULK_END;
                    bulkEndLeft = 2;
                }
                case BULK_END -> {
                    // redis skips the two bytes after a bulk string without looking at them
                    int n = Math.min(bulkEndLeft, in.readableBytes());
                    in.skipBytes(n);
                    bulkEndLeft -= n;
                    if (bulkEndLeft > 0) {
                        return;
                    }
                    if (--wordsLeft > 0) {
                        state = BULK_HEADER;
                    } else {
                        commandDone(sink);
                    }
                }
                default -> {
                    return;
                }
            }
        }
    }

    private void commandDone(RespArgs a, Sink sink) {
        state = COMMAND;
        if (a.count() > 0) {
            sink.onCommand(a, this);
        }
        a.clear();
    }

    private void commandDone(Sink sink) {
        commandDone(args, sink);
    }

    private boolean multibulkHeader(ByteBuf in, Sink sink) {
        int start = in.readerIndex();
        int cr = in.indexOf(start, Math.min(in.writerIndex(), start + MAX_INLINE), (byte) '\r');
        if (cr < 0) {
            if (in.readableBytes() > MAX_INLINE) {
                error(sink, "Protocol error: too big mbulk count string");
            }
            return false;
        }
        if (cr + 1 >= in.writerIndex()) {
            return false; // the '\n' has not come yet
        }
        long count = parseCount(in, start + 1, cr);
        if (count == Long.MIN_VALUE || count > MAX_MULTIBULK) {
            error(sink, "Protocol error: invalid multibulk length");
            return false;
        }
        if (count > MAX_UNAUTHENTICATED_MULTIBULK && sink.authRequired()) {
            error(sink, "Protocol error: unauthenticated multibulk length");
            return false;
        }
        in.readerIndex(cr + 2);
        args.clear();
        if (count <= 0) {
            return true; // redis ignores an empty multibulk
        }
        wordsLeft = count;
        state = BULK_HEADER;
        return true;
    }

    private boolean bulkHeader(ByteBuf in, Sink sink) {
        int start = in.readerIndex();
        int cr = in.indexOf(start, Math.min(in.writerIndex(), start + MAX_INLINE), (byte) '\r');
        if (cr < 0) {
            if (in.readableBytes() > MAX_INLINE) {
                error(sink, "Protocol error: too big bulk count string");
            }
            return false;
        }
        if (cr + 1 >= in.writerIndex()) {
            return false;
        }
        byte first = in.getByte(start);
        if (first != '$') {
            error(sink, "Protocol error: expected '$', got '" + (char) (first & 0xff) + "'");
            return false;
        }
        long length = parseCount(in, start + 1, cr);
        if (length < 0 || length > MAX_BULK) {
            error(sink, "Protocol error: invalid bulk length");
            return false;
        }
        if (length > MAX_UNAUTHENTICATED_BULK && sink.authRequired()) {
            error(sink, "Protocol error: unauthenticated bulk length");
            return false;
        }
        in.readerIndex(cr + 2);
        args.reserve(Math.min(length, PREALLOCATE_BULK));
        bulkLeft = length;
        bulkFilled = 0;
        state = BULK;
        if (length == 0) {
            args.add(0);
            state = BULK_END;
            bulkEndLeft = 2;
        }
        return true;
    }

    /** A decimal in {@code in[from, to)} (optionally negative), or Long.MIN_VALUE when it is not one. */
    private static long parseCount(ByteBuf in, int from, int to) {
        if (from >= to || to - from > 19) {
            return Long.MIN_VALUE;
        }
        boolean negative = in.getByte(from) == '-';
        int i = negative ? from + 1 : from;
        if (i == to) {
            return Long.MIN_VALUE;
        }
        long v = 0;
        for (; i < to; i++) {
            int d = in.getByte(i) - '0';
            if (d < 0 || d > 9) {
                return Long.MIN_VALUE;
            }
            v = v * 10 + d;
        }
        return negative ? -v : v;
    }

    /** An inline command: words split as redis' {@code sdssplitargs} splits them. */
    private boolean inline(ByteBuf in, Sink sink) {
        int start = in.readerIndex();
        int lf = in.indexOf(start, Math.min(in.writerIndex(), start + MAX_INLINE + 2), (byte) '\n');
        if (lf < 0) {
            if (in.readableBytes() > MAX_INLINE) {
                error(sink, "Protocol error: too big inline request");
            }
            return false;
        }
        int end = lf > start && in.getByte(lf - 1) == '\r' ? lf - 1 : lf;
        in.readerIndex(lf + 1);
        args.clear();
        if (!split(in, start, end)) {
            error(sink, "Protocol error: unbalanced quotes in request");
            return false;
        }
        commandDone(sink);
        return true;
    }

    /** sdssplitargs into {@link #args}; false on unbalanced quotes. */
    private boolean split(ByteBuf in, int from, int to) {
        args.reserve(to - from);
        int p = from;
        while (true) {
            while (p < to && isSpace(in.getByte(p))) {
                p++;
            }
            if (p >= to) {
                return true;
            }
            byte[] out = args.bytes;
            int w = args.used();
            int wordStart = w;
            boolean inDouble = false;
            boolean inSingle = false;
            boolean done = false;
            while (!done) {
                if (inDouble) {
                    if (p >= to) {
                        return false;
                    }
                    byte c = in.getByte(p);
                    int hi = c == '\\' && p + 3 < to && in.getByte(p + 1) == 'x' ? Ascii.hexDigit(in.getByte(p + 2)) : -1;
                    int lo = hi >= 0 ? Ascii.hexDigit(in.getByte(p + 3)) : -1;
                    if (lo >= 0) {
                        out[w++] = (byte) (hi * 16 + lo);
                        p += 3;
                    } else if (c == '\\' && p + 1 < to) {
                        p++;
                        byte e = in.getByte(p);
                        out[w++] = switch (e) {
                            case 'n' -> '\n';
                            case 'r' -> '\r';
                            case 't' -> '\t';
                            case 'b' -> '\b';
                            case 'a' -> 7;
                            default -> e;
                        };
                    } else if (c == '"') {
                        if (p + 1 < to && !isSpace(in.getByte(p + 1))) {
                            return false; // a closing quote must be followed by a space or the end
                        }
                        done = true;
                    } else {
                        out[w++] = c;
                    }
                } else if (inSingle) {
                    if (p >= to) {
                        return false;
                    }
                    byte c = in.getByte(p);
                    if (c == '\\' && p + 1 < to && in.getByte(p + 1) == '\'') {
                        p++;
                        out[w++] = '\'';
                    } else if (c == '\'') {
                        if (p + 1 < to && !isSpace(in.getByte(p + 1))) {
                            return false;
                        }
                        done = true;
                    } else {
                        out[w++] = c;
                    }
                } else {
                    if (p >= to) {
                        break;
                    }
                    byte c = in.getByte(p);
                    if (isSpace(c)) {
                        done = true;
                    } else if (c == '"') {
                        inDouble = true;
                    } else if (c == '\'') {
                        inSingle = true;
                    } else {
                        out[w++] = c;
                    }
                }
                if (p < to) {
                    p++;
                }
            }
            args.add(w - wordStart);
        }
    }

    private static boolean isSpace(byte c) {
        return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == 0 || c == 0x0b || c == '\f';
    }

    private void error(Sink sink, String message) {
        state = STOPPED;
        args.clear();
        sink.onProtocolError(message);
    }
}
