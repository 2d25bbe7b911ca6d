package io.fluxperf.engine.protocol.resp;

import io.fluxperf.engine.protocol.ProtocolException;
import io.netty.buffer.ByteBuf;
import java.util.Arrays;

/**
 * Frames RESP2 and RESP3 replies (redis' {@code RESP3.md}) as a resumable state machine, in the
 * manner of lettuce's {@code RedisStateMachine}: {@link #decode} walks a frame value by value,
 * pushes each complete value into a {@link RespSink}, and returns false when the bytes run out,
 * remembering where it stopped; the next call goes on from there, so a frame split at any byte is
 * read once, and a large bulk string is waited for by its announced length, never rescanned.
 *
 * <p>A frame is one top-level value. An attribute ({@code |}) is metadata that precedes the value
 * it annotates, at any depth, and does not count as a value of its own; a push ({@code >}) at the
 * top level is an out-of-band message, not a reply, so the frame goes on to the reply after it.
 * Both are still shown to the sink, which may skip them.
 *
 * <p>Contract: the reader index of the buffer moves only when a whole frame is complete (to just
 * after it). Between calls that return false the caller must keep the bytes from the reader index
 * on (they may move in memory: positions are kept relative to the reader index). Partial input
 * never throws; bytes that cannot be RESP throw {@link ProtocolException}, after which the decoder
 * must be {@link #reset} (the connection is out of step anyway). Nothing is allocated per frame:
 * the nesting stack grows only when a frame nests deeper than any before.
 *
 * <p>Not supported (redis never sends them as replies to the commands fluxperf sends): RESP3
 * streamed strings and aggregates ({@code $?}, {@code *?}).
 */
public final class RespReplyDecoder {
    /** A line (type byte, length, simple string, error) longer than this is not RESP. */
    public static final int MAX_LINE = 64 << 10;
    /** redis' proto-max-bulk-len default. */
    public static final long MAX_BULK = 512L << 20;
    /** Deeper nesting than this is taken for garbage (redis nests a few levels at most). */
    public static final int MAX_DEPTH = 256;

    private static final byte KIND_INVALID = 0;
    private static final byte KIND_SIMPLE = 1;
    private static final byte KIND_INTEGER = 2;
    private static final byte KIND_DOUBLE = 3;
    private static final byte KIND_BIG = 4;
    private static final byte KIND_BOOLEAN = 5;
    private static final byte KIND_NULL = 6;
    private static final byte KIND_BULK = 7;
    private static final byte KIND_AGGREGATE = 8;

    /** Dispatch table on the type byte. */
    private static final byte[] KIND = new byte[256];

    static {
        KIND['+'] = KIND_SIMPLE;
        KIND['-'] = KIND_SIMPLE;
        KIND[':'] = KIND_INTEGER;
        KIND[','] = KIND_DOUBLE;
        KIND['('] = KIND_BIG;
        KIND['#'] = KIND_BOOLEAN;
        KIND['_'] = KIND_NULL;
        KIND['$'] = KIND_BULK;
        KIND['='] = KIND_BULK;
        KIND['!'] = KIND_BULK;
        KIND['*'] = KIND_AGGREGATE;
        KIND['~'] = KIND_AGGREGATE;
        KIND['%'] = KIND_AGGREGATE;
        KIND['|'] = KIND_AGGREGATE;
        KIND['>'] = KIND_AGGREGATE;
    }

    /** Bytes of the current frame already decoded, from the reader index. */
    private int pos;
    /** Bytes of the current line (from pos) already searched for its LF. */
    private int scanned;
    /** Length of the bulk payload being waited for, or -1 when reading a line. */
    private long bulkLength = -1;
    private byte bulkType;
    private int depth;
    private long[] remaining = new long[8];
    private byte[] types = new byte[8];

    /** Forgets a partly decoded frame. */
    public void reset() {
        pos = 0;
        scanned = 0;
        bulkLength = -1;
        depth = 0;
    }

    /** Whether a frame is partly decoded (some of it has been seen). */
    public boolean inFrame() {
        return pos > 0;
    }

    /**
     * Decodes from where the last call stopped.
     *
     * @return true when a whole frame has been decoded (and consumed); false when more bytes are needed
     * @throws ProtocolException when the bytes are not RESP
     */
    public boolean decode(ByteBuf in, RespSink sink) throws ProtocolException {
        final int base = in.readerIndex();
        final int limit = in.writerIndex();
        while (true) {
            int p = base + pos;
            if (bulkLength >= 0) {
                if (limit - p < bulkLength + 2) {
                    return false;
                }
                int end = p + (int) bulkLength;
                if (in.getByte(end) != '\r' || in.getByte(end + 1) != '\n') {
                    throw new ProtocolException("RESP bulk string of " + bulkLength + " bytes not followed by \\r\\n at byte "
                            + (end - base));
                }
                if (bulkType == '=' && (bulkLength < 4 || in.getByte(p + 3) != ':')) {
                    throw new ProtocolException("RESP verbatim string without its 3-letter format and ':' at byte " + (p - base));
                }
                byte type = bulkType;
                bulkLength = -1;
                pos = end + 2 - base;
                sink.scalar(type, in, p, end);
                if (valueDone((byte) 0, sink)) {
                    return finish(in, base);
                }
                continue;
            }
            if (p >= limit) {
                return false;
            }
            byte type = in.getByte(p);
            if (KIND[type & 0xff] == KIND_INVALID) {
                throw new ProtocolException("not a RESP type byte: " + describe(type) + " at byte " + (p - base));
            }
            int lf = findLineEnd(in, p, limit);
            if (lf < 0) {
                return false;
            }
            int lineEnd = lf - 1; // the '\r'
            int from = p + 1;
            pos = lf + 1 - base;
            scanned = 0;
            byte doneType = 0;
            switch (KIND[type & 0xff]) {
                case KIND_SIMPLE -> sink.scalar(type, in, from, lineEnd);
                case KIND_INTEGER -> {
                    checkInteger(in, from, lineEnd, base);
                    sink.scalar(type, in, from, lineEnd);
                }
                case KIND_DOUBLE -> {
                    checkDouble(in, from, lineEnd, base);
                    sink.scalar(type, in, from, lineEnd);
                }
                case KIND_BIG -> {
                    checkBigNumber(in, from, lineEnd, base);
                    sink.scalar(type, in, from, lineEnd);
                }
                case KIND_BOOLEAN -> {
                    if (lineEnd - from != 1 || (in.getByte(from) != 't' && in.getByte(from) != 'f')) {
                        throw bad("boolean", in, p, lineEnd, base);
                    }
                    sink.scalar(type, in, from, lineEnd);
                }
                case KIND_NULL -> {
                    if (lineEnd != from) {
                        throw bad("null", in, p, lineEnd, base);
                    }
                    sink.scalar(type, in, from, lineEnd);
                }
                case KIND_BULK -> {
                    long length = parseLength(in, from, lineEnd, p, base, type == '$');
                    if (length < 0) {
                        sink.nil(type);
                    } else {
                        if (length > MAX_BULK) {
                            throw new ProtocolException("RESP bulk string of " + length + " bytes is over the "
                                    + MAX_BULK + "-byte limit, at byte " + (p - base));
                        }
                        bulkType = type;
                        bulkLength = length;
                        continue;
                    }
                }
                case KIND_AGGREGATE -> {
                    long count = parseLength(in, from, lineEnd, p, base, type == '*');
                    if (count < 0) {
                        sink.nil(type);
                    } else {
                        sink.aggregateStart(type, count);
                        long values = type == '%' || type == '|' ? count * 2 : count;
                        if (values < 0) {
                            throw bad("aggregate length", in, p, lineEnd, base);
                        }
                        if (values > 0) {
                            push(type, values, base, p);
                            continue;
                        }
                        sink.aggregateEnd(type);
                        doneType = type;
                    }
                }
                default -> throw new ProtocolException("not a RESP type byte: " + describe(type) + " at byte " + (p - base));
            }
            if (valueDone(doneType, sink)) {
                return finish(in, base);
            }
        }
    }

    private boolean finish(ByteBuf in, int base) {
        in.readerIndex(base + pos);
        pos = 0;
        scanned = 0;
        return true;
    }

    private void push(byte type, long values, int base, int p) throws ProtocolException {
        if (depth == MAX_DEPTH) {
            throw new ProtocolException("RESP aggregates nested deeper than " + MAX_DEPTH + " levels at byte " + (p - base));
        }
        if (depth == remaining.length) {
            remaining = Arrays.copyOf(remaining, depth * 2);
            types = Arrays.copyOf(types, depth * 2);
        }
        remaining[depth] = values;
        types[depth] = type;
        depth++;
    }

    /**
     * A value ended ({@code type}: 0 for a scalar or null, else the type of the aggregate that
     * ended): counts it in its parent, closing every aggregate it completes. True when the frame is complete.
     */
    private boolean valueDone(byte type, RespSink sink) {
        while (true) {
            if (type == '|') {
                return false; // an attribute annotates the value that follows it
            }
            if (depth == 0) {
                return type != '>'; // a top-level push is not the reply: read on
            }
            if (--remaining[depth - 1] > 0) {
                return false;
            }
            type = types[--depth];
            sink.aggregateEnd(type);
        }
    }

    /** The index of the LF ending the line at {@code p}, or -1 when it has not all come. */
    private int findLineEnd(ByteBuf in, int p, int limit) throws ProtocolException {
        int searchFrom = p + scanned;
        int searchTo = Math.min(limit, p + MAX_LINE);
        int lf = searchFrom < searchTo ? in.indexOf(searchFrom, searchTo, (byte) '\n') : -1;
        if (lf < 0) {
            if (limit - p >= MAX_LINE) {
                throw new ProtocolException("RESP line longer than " + MAX_LINE + " bytes at byte " + (p - in.readerIndex()));
            }
            scanned = Math.max(0, limit - p);
            return -1;
        }
        if (lf - p < 2 || in.getByte(lf - 1) != '\r') {
            throw new ProtocolException("RESP line not ended by \\r\\n at byte " + (p - in.readerIndex()) + ": "
                    + text(in, p, lf + 1));
        }
        return lf;
    }

    /** A length or count: digits, or -1 when {@code nullable}. */
    private static long parseLength(ByteBuf in, int from, int end, int p, int base, boolean nullable) throws ProtocolException {
        if (nullable && end - from == 2 && in.getByte(from) == '-' && in.getByte(from + 1) == '1') {
            return -1;
        }
        if (end - from == 1 && in.getByte(from) == '?') {
            throw new ProtocolException("RESP3 streamed " + (KIND[in.getByte(p) & 0xff] == KIND_BULK ? "strings" : "aggregates")
                    + " are not supported (byte " + (p - base) + ")");
        }
        if (from == end || end - from > 18) {
            throw bad("length", in, p, end, base);
        }
        long v = 0;
        for (int i = from; i < end; i++) {
            int d = in.getByte(i) - '0';
            if (d < 0 || d > 9) {
                throw bad("length", in, p, end, base);
            }
            v = v * 10 + d;
        }
        return v;
    }

    private static void checkInteger(ByteBuf in, int from, int end, int base) throws ProtocolException {
        int i = from;
        boolean negative = false;
        if (i < end && (in.getByte(i) == '-' || in.getByte(i) == '+')) {
            negative = in.getByte(i) == '-';
            i++;
        }
        if (i == end || end - i > 19) {
            throw bad("integer", in, from - 1, end, base);
        }
        long v = 0;
        for (; i < end; i++) {
            int d = in.getByte(i) - '0';
            if (d < 0 || d > 9) {
                throw bad("integer", in, from - 1, end, base);
            }
            long next = v * 10 - d; // accumulate negatively: Long.MIN_VALUE fits
            if (next > v) {
                throw bad("integer", in, from - 1, end, base);
            }
            v = next;
        }
        if (!negative && v == Long.MIN_VALUE) {
            throw bad("integer", in, from - 1, end, base);
        }
    }

    private static void checkDouble(ByteBuf in, int from, int end, int base) throws ProtocolException {
        if (from == end) {
            throw bad("double", in, from - 1, end, base);
        }
        for (int i = from; i < end; i++) {
            byte b = in.getByte(i);
            boolean ok = (b >= '0' && b <= '9') || b == '-' || b == '+' || b == '.' || b == 'e' || b == 'E'
                    || b == 'i' || b == 'n' || b == 'f' || b == 'a';
            if (!ok) {
                throw bad("double", in, from - 1, end, base);
            }
        }
    }

    private static void checkBigNumber(ByteBuf in, int from, int end, int base) throws ProtocolException {
        int i = from;
        if (i < end && (in.getByte(i) == '-' || in.getByte(i) == '+')) {
            i++;
        }
        if (i == end) {
            throw bad("big number", in, from - 1, end, base);
        }
        for (; i < end; i++) {
            byte b = in.getByte(i);
            if (b < '0' || b > '9') {
                throw bad("big number", in, from - 1, end, base);
            }
        }
    }

    private static ProtocolException bad(String what, ByteBuf in, int p, int end, int base) {
        return new ProtocolException("bad RESP " + what + " at byte " + (p - base) + ": " + text(in, p, end));
    }

    private static String describe(byte b) {
        return b >= 0x20 && b < 0x7f ? "'" + (char) b + "'" : String.format("0x%02x", b & 0xff);
    }

    /** Up to 60 bytes of {@code in[from, end)} quoted as printable text ({@link io.fluxperf.engine.Printable}), for messages. */
    static String text(ByteBuf in, int from, int end) {
        int n = Math.max(0, Math.min(end - from, 60));
        return "'" + io.fluxperf.engine.Printable.bytes(in, from, n) + (end - from > 60 ? "…'" : "'");
    }
}
