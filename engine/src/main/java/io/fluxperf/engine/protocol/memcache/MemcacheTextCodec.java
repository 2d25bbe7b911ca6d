package io.fluxperf.engine.protocol.memcache;

import io.fluxperf.engine.Printable;
import io.fluxperf.engine.protocol.Ascii;
import io.fluxperf.engine.protocol.ProtocolCodec;
import io.fluxperf.engine.protocol.ProtocolException;
import io.fluxperf.engine.protocol.RequestKeys;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Outcome;
import io.fluxperf.engine.request.Request;
import io.fluxperf.engine.request.ValueCheck;
import io.netty.buffer.ByteBuf;
import static io.fluxperf.engine.protocol.Ascii.bytes;
import static io.fluxperf.engine.protocol.Ascii.startsWith;

/**
 * Client side of memcached's text protocol for one connection.
 *
 * <p>Outcomes: a get is OK when every key was found, MISS otherwise; STORED, DELETED, TOUCHED,
 * OK and a number are OK; NOT_STORED, EXISTS and NOT_FOUND are MISS (the condition of the
 * command did not hold); ERROR, CLIENT_ERROR and SERVER_ERROR are ERROR. A get whose value is not
 * the one the run wrote ({@link ValueCheck}) is an ERROR marked as a mismatch, read whole. Anything
 * else, or a VALUE for a key that was not asked for, is a {@link ProtocolException}: the
 * connection is out of step with its requests.
 */
final class MemcacheTextCodec implements ProtocolCodec {
    /** A reply line longer than this without a line end is garbage, not a partial reply. */
    static final int MAX_LINE = 8192;

    private static final byte[] GET = bytes("get");
    private static final byte[] GETS = bytes("gets");
    private static final byte[] SET = bytes("set ");
    private static final byte[] ADD = bytes("add ");
    private static final byte[] REPLACE = bytes("replace ");
    private static final byte[] APPEND = bytes("append ");
    private static final byte[] PREPEND = bytes("prepend ");
    private static final byte[] CAS = bytes("cas ");
    private static final byte[] DELETE = bytes("delete ");
    private static final byte[] INCR = bytes("incr ");
    private static final byte[] DECR = bytes("decr ");
    private static final byte[] TOUCH = bytes("touch ");
    private static final byte[] FLUSH_ALL = bytes("flush_all\r\n");
    private static final byte[] ZERO_FLAGS = bytes(" 0 ");
    private static final short CRLF = ('\r' << 8) | '\n';

    private static final byte[] VALUE = bytes("VALUE ");
    private static final byte[] END = bytes("END");
    private static final byte[] STORED = bytes("STORED");
    private static final byte[] NOT_STORED = bytes("NOT_STORED");
    private static final byte[] EXISTS = bytes("EXISTS");
    private static final byte[] NOT_FOUND = bytes("NOT_FOUND");
    private static final byte[] DELETED = bytes("DELETED");
    private static final byte[] TOUCHED = bytes("TOUCHED");
    private static final byte[] OK = bytes("OK");
    private static final byte[] ERROR = bytes("ERROR");
    private static final byte[] CLIENT_ERROR = bytes("CLIENT_ERROR ");
    private static final byte[] SERVER_ERROR = bytes("SERVER_ERROR ");

    /** Readable bytes needed before another decode attempt can succeed (avoids rescanning big values). */
    private int needed;

    @Override
    public boolean hasHandshake() {
        return false;
    }

    @Override
    public boolean resetForNewConnection() {
        needed = 0;
        return true;
    }

    @Override
    public void encode(Request r, ByteBuf out) {
        Command c = r.command();
        switch (c) {
            case GET, GETS -> {
                out.writeBytes(c == Command.GET ? GET : GETS);
                for (int i = 0; i < r.keyCount(); i++) {
                    out.writeByte(' ');
                    writeKey(r, i, out);
                }
                out.writeShort(CRLF);
            }
            case SET, ADD, REPLACE, APPEND, PREPEND, CAS -> {
                out.writeBytes(storageVerb(c));
                writeKey(r, 0, out);
                out.writeBytes(ZERO_FLAGS);
                Ascii.writeLong(out, r.ttlSeconds());
                out.writeByte(' ');
                Ascii.writeLong(out, r.valueLength());
                if (c == Command.CAS) {
                    out.writeByte(' ');
                    Ascii.writeUnsignedLong(out, r.numeric());
                }
                out.writeShort(CRLF);
                out.writeBytes(r.value(), r.valueOffset(), r.valueLength());
                out.writeShort(CRLF);
            }
            case DELETE -> {
                out.writeBytes(DELETE);
                writeKey(r, 0, out);
                out.writeShort(CRLF);
            }
            case INCR, DECR -> {
                out.writeBytes(c == Command.INCR ? INCR : DECR);
                writeKey(r, 0, out);
                out.writeByte(' ');
                Ascii.writeUnsignedLong(out, r.numeric());
                out.writeShort(CRLF);
            }
            case TOUCH -> {
                out.writeBytes(TOUCH);
                writeKey(r, 0, out);
                out.writeByte(' ');
                Ascii.writeLong(out, r.ttlSeconds());
                out.writeShort(CRLF);
            }
            case FLUSH -> out.writeBytes(FLUSH_ALL);
            default -> throw new IllegalArgumentException("memcache cannot encode " + c);
        }
    }

    private static byte[] storageVerb(Command c) {
        return switch (c) {
            case SET -> SET;
            case ADD -> ADD;
            case REPLACE -> REPLACE;
            case APPEND -> APPEND;
            case PREPEND -> PREPEND;
            default -> CAS;
        };
    }

    private static void writeKey(Request r, int i, ByteBuf out) {
        out.writeBytes(r.keyBytes(), r.keyOffset(i), r.keyLength(i));
    }

    @Override
    public int decode(ByteBuf in, Request r) throws ProtocolException {
        int start = in.readerIndex();
        int limit = in.writerIndex();
        if (limit - start < needed) {
            return NEED_MORE;
        }
        int result = r.command().isRead() ? decodeRetrieval(in, start, limit, r) : decodeLine(in, start, limit, r);
        if (result != NEED_MORE) {
            needed = 0;
        }
        return result;
    }

    private int decodeRetrieval(ByteBuf in, int start, int limit, Request r) throws ProtocolException {
        int pos = start;
        int hits = 0;
        int nextKey = 0;
        boolean mismatch = false;
        while (true) {
            int lf = lineEnd(in, pos, limit);
            if (lf < 0) {
                needed = limit - start + 1;
                return NEED_MORE;
            }
            int lineEnd = lf - 1; // the '\r'
            if (isExactly(in, pos, lineEnd, END)) {
                in.readerIndex(lf + 1);
                if (mismatch) {
                    r.valueMismatch();
                    return Outcome.ERROR.ordinal();
                }
                return hits == r.keyCount() ? Outcome.OK.ordinal() : Outcome.MISS.ordinal();
            }
            if (startsWith(in, pos, lineEnd, VALUE)) {
                int keyStart = pos + VALUE.length;
                int keyEnd = indexOf(in, keyStart, lineEnd, ' ');
                if (keyEnd < 0) {
                    throw malformed(in, pos, lineEnd, r);
                }
                nextKey = RequestKeys.indexOf(in, keyStart, keyEnd - keyStart, r, nextKey);
                if (nextKey < 0) {
                    throw new ProtocolException("memcache reply VALUE for key '" + text(in, keyStart, keyEnd)
                            + "' that the request (" + r + ") did not ask for");
                }
                int flagsEnd = indexOf(in, keyEnd + 1, lineEnd, ' ');
                if (flagsEnd < 0) {
                    throw malformed(in, pos, lineEnd, r);
                }
                int bytesEnd = indexOf(in, flagsEnd + 1, lineEnd, ' ');
                long dataLength = Ascii.parseNonNegative(in, flagsEnd + 1, bytesEnd < 0 ? lineEnd : bytesEnd);
                if (dataLength < 0 || dataLength > Integer.MAX_VALUE - 64) {
                    throw malformed(in, pos, lineEnd, r);
                }
                long blockEnd = lf + 1L + dataLength + 2; // long: a huge length after a long line overflows an int
                if (blockEnd > limit) {
                    needed = (int) Math.min(Integer.MAX_VALUE, blockEnd - start);
                    return NEED_MORE;
                }
                int dataEnd = (int) blockEnd - 2;
                if (in.getShort(dataEnd) != CRLF) {
                    throw new ProtocolException("memcache reply data block of " + dataLength + " bytes for "
                            + r + " does not end in \\r\\n");
                }
                ValueCheck check = r.valueCheck();
                if (check != null && !check.matches(r.keyBytes(), r.keyOffset(nextKey), r.keyLength(nextKey),
                        in, lf + 1, (int) dataLength)) {
                    mismatch = true; // the rest of the reply is read: the connection stays in step
                }
                hits++;
                nextKey++;
                pos = dataEnd + 2;
                continue;
            }
            if (pos == start && isError(in, pos, lineEnd)) {
                in.readerIndex(lf + 1);
                return Outcome.ERROR.ordinal();
            }
            throw malformed(in, pos, lineEnd, r);
        }
    }

    private int decodeLine(ByteBuf in, int start, int limit, Request r) throws ProtocolException {
        int lf = lineEnd(in, start, limit);
        if (lf < 0) {
            needed = limit - start + 1;
            return NEED_MORE;
        }
        int lineEnd = lf - 1;
        Outcome outcome = lineOutcome(in, start, lineEnd, r.command());
        if (outcome == null) {
            throw malformed(in, start, lineEnd, r);
        }
        in.readerIndex(lf + 1);
        return outcome.ordinal();
    }

    private static Outcome lineOutcome(ByteBuf in, int from, int end, Command c) {
        if (isError(in, from, end)) {
            return Outcome.ERROR;
        }
        switch (c) {
            case SET, ADD, REPLACE, APPEND, PREPEND, CAS -> {
                if (isExactly(in, from, end, STORED)) {
                    return Outcome.OK;
                }
                if (isExactly(in, from, end, NOT_STORED) || isExactly(in, from, end, EXISTS)
                        || isExactly(in, from, end, NOT_FOUND)) {
                    return Outcome.MISS;
                }
            }
            case DELETE -> {
                if (isExactly(in, from, end, DELETED)) {
                    return Outcome.OK;
                }
                if (isExactly(in, from, end, NOT_FOUND)) {
                    return Outcome.MISS;
                }
            }
            case INCR, DECR -> {
                if (isExactly(in, from, end, NOT_FOUND)) {
                    return Outcome.MISS;
                }
                if (end > from && end - from <= 20 && allDigits(in, from, end)) {
                    return Outcome.OK;
                }
            }
            case TOUCH -> {
                if (isExactly(in, from, end, TOUCHED)) {
                    return Outcome.OK;
                }
                if (isExactly(in, from, end, NOT_FOUND)) {
                    return Outcome.MISS;
                }
            }
            case FLUSH -> {
                if (isExactly(in, from, end, OK)) {
                    return Outcome.OK;
                }
            }
            default -> {
                return null;
            }
        }
        return null;
    }

    private static boolean isError(ByteBuf in, int from, int end) {
        return isExactly(in, from, end, ERROR) || startsWith(in, from, end, CLIENT_ERROR)
                || startsWith(in, from, end, SERVER_ERROR);
    }

    private static boolean allDigits(ByteBuf in, int from, int end) {
        for (int i = from; i < end; i++) {
            byte b = in.getByte(i);
            if (b < '0' || b > '9') {
                return false;
            }
        }
        return true;
    }

    /** The index of the '\n' ending the line at {@code from} (which must follow '\r'), or -1 when incomplete. */
    private static int lineEnd(ByteBuf in, int from, int limit) throws ProtocolException {
        int lf = in.indexOf(from, Math.min(limit, from + MAX_LINE), (byte) '\n');
        if (lf < 0) {
            if (limit - from >= MAX_LINE) {
                throw new ProtocolException("memcache reply line longer than " + MAX_LINE + " bytes");
            }
            return -1;
        }
        if (lf == from || in.getByte(lf - 1) != '\r') {
            throw new ProtocolException("memcache reply line not ended by \\r\\n: '" + text(in, from, lf) + "'");
        }
        return lf;
    }

    private static boolean isExactly(ByteBuf in, int from, int end, byte[] word) {
        return end - from == word.length && startsWith(in, from, end, word);
    }

    private static int indexOf(ByteBuf in, int from, int end, char c) {
        return from >= end ? -1 : in.indexOf(from, end, (byte) c);
    }

    private static ProtocolException malformed(ByteBuf in, int from, int end, Request r) {
        return new ProtocolException("unexpected memcache reply '" + text(in, from, end) + "' to " + r);
    }

    private static String text(ByteBuf in, int from, int end) {
        int length = Math.min(end - from, 80);
        return Printable.bytes(in, from, Math.max(0, length)) + (end - from > 80 ? "…" : "");
    }
}
