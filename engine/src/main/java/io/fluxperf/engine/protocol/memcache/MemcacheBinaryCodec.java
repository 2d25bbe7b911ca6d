package io.fluxperf.engine.protocol.memcache;

import io.fluxperf.engine.protocol.ProtocolCodec;
import io.fluxperf.engine.protocol.ProtocolException;
import io.fluxperf.engine.protocol.RequestKeys;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Outcome;
import io.fluxperf.engine.request.Request;
import io.fluxperf.engine.request.ValueCheck;
import io.netty.buffer.ByteBuf;

/**
 * Client side of memcached's binary protocol for one connection.
 *
 * <p>Requests: get/gets of one key is a Get (the reply always carries the cas); of several keys a
 * run of GetKQ (quiet: only hits are answered, each with its key) closed by a Noop, whose reply ends
 * the request; set/add/replace/append/prepend as their opcodes (flags 0, the request's ttl), cas a
 * Set with the request's cas value; incr/decr with the request's delta and exptime 0xffffffff (a
 * missing key is not created, as in the text protocol); touch with the ttl; flush_all as Flush.
 *
 * <p>Outcomes, as the text codec: a get is OK when every key was found, MISS otherwise; status
 * 0 is OK; key not found (1), key exists (2) and item not stored (5) are MISS; any other status is
 * ERROR; a get whose value is not the one the run wrote is an ERROR marked as a mismatch
 * ({@link io.fluxperf.engine.request.Request#valueMismatch()}). Each request carries its own
 * opaque (a per-connection sequence number, every packet of a multi-key get the same one); replies
 * are matched by order and must echo it, the opcode and magic 0x81, or the connection is out of
 * step ({@link ProtocolException}).
 */
final class MemcacheBinaryCodec implements ProtocolCodec {
    static final int HEADER = 24;
    static final byte REQUEST_MAGIC = (byte) 0x80;
    static final byte RESPONSE_MAGIC = (byte) 0x81;

    static final byte OP_GET = 0x00;
    static final byte OP_SET = 0x01;
    static final byte OP_ADD = 0x02;
    static final byte OP_REPLACE = 0x03;
    static final byte OP_DELETE = 0x04;
    static final byte OP_INCREMENT = 0x05;
    static final byte OP_DECREMENT = 0x06;
    static final byte OP_FLUSH = 0x08;
    static final byte OP_NOOP = 0x0a;
    static final byte OP_GETKQ = 0x0d;
    static final byte OP_APPEND = 0x0e;
    static final byte OP_PREPEND = 0x0f;
    static final byte OP_TOUCH = 0x1c;

    static final int STATUS_OK = 0;
    static final int STATUS_KEY_NOT_FOUND = 1;
    static final int STATUS_KEY_EXISTS = 2;
    static final int STATUS_NOT_STORED = 5;

    /** A body longer than this cannot be a reply (the decoder's positions are ints). */
    static final long MAX_BODY = Integer.MAX_VALUE - 1024;

    /** The opaque of the next request encoded, and of the oldest one not yet decoded. */
    private int nextOpaque;
    private int expectedOpaque;
    /** Readable bytes needed before another decode attempt can succeed (avoids rescanning big values). */
    private int needed;

    @Override
    public boolean hasHandshake() {
        return false;
    }

    @Override
    public boolean resetForNewConnection() {
        nextOpaque = 0;
        expectedOpaque = 0;
        needed = 0;
        return true;
    }

    @Override
    public void encode(Request r, ByteBuf out) {
        Command c = r.command();
        int opaque = nextOpaque++;
        switch (c) {
            case GET, GETS -> {
                if (r.keyCount() == 1) {
                    keyOnly(out, OP_GET, r, 0, opaque);
                } else {
                    for (int i = 0; i < r.keyCount(); i++) {
                        keyOnly(out, OP_GETKQ, r, i, opaque);
                    }
                    header(out, OP_NOOP, 0, 0, 0, opaque, 0);
                }
            }
            case SET, ADD, REPLACE, CAS -> {
                int keyLength = r.keyLength(0);
                header(out, storageOpcode(c), keyLength, 8, 8 + keyLength + r.valueLength(), opaque,
                        c == Command.CAS ? r.numeric() : 0);
                out.writeInt(0); // flags
                out.writeInt(r.ttlSeconds());
                writeKey(out, r, 0);
                out.writeBytes(r.value(), r.valueOffset(), r.valueLength());
            }
            case APPEND, PREPEND -> {
                int keyLength = r.keyLength(0);
                header(out, c == Command.APPEND ? OP_APPEND : OP_PREPEND, keyLength, 0,
                        keyLength + r.valueLength(), opaque, 0);
                writeKey(out, r, 0);
                out.writeBytes(r.value(), r.valueOffset(), r.valueLength());
            }
            case DELETE -> keyOnly(out, OP_DELETE, r, 0, opaque);
            case INCR, DECR -> {
                int keyLength = r.keyLength(0);
                header(out, c == Command.INCR ? OP_INCREMENT : OP_DECREMENT, keyLength, 20, 20 + keyLength, opaque, 0);
                out.writeLong(r.numeric()); // delta
                out.writeLong(0); // initial value, unused: the exptime below says not to create
                out.writeInt(-1); // 0xffffffff: a missing key is not found, as in the text protocol
                writeKey(out, r, 0);
            }
            case TOUCH -> {
                int keyLength = r.keyLength(0);
                header(out, OP_TOUCH, keyLength, 4, 4 + keyLength, opaque, 0);
                out.writeInt(r.ttlSeconds());
                writeKey(out, r, 0);
            }
            case FLUSH -> header(out, OP_FLUSH, 0, 0, 0, opaque, 0);
            default -> {
                nextOpaque--;
                throw new IllegalArgumentException("memcache-binary cannot encode " + c);
            }
        }
    }

    private static byte storageOpcode(Command c) {
        return switch (c) {
            case ADD -> OP_ADD;
            case REPLACE -> OP_REPLACE;
            default -> OP_SET; // set and cas
        };
    }

    private static void keyOnly(ByteBuf out, byte opcode, Request r, int key, int opaque) {
        int keyLength = r.keyLength(key);
        header(out, opcode, keyLength, 0, keyLength, opaque, 0);
        writeKey(out, r, key);
    }

    private static void header(ByteBuf out, byte opcode, int keyLength, int extrasLength, int bodyLength,
                               int opaque, long cas) {
        out.ensureWritable(HEADER + bodyLength);
        out.writeByte(REQUEST_MAGIC);
        out.writeByte(opcode);
        out.writeShort(keyLength);
        out.writeByte(extrasLength);
        out.writeByte(0); // data type: raw bytes
        out.writeShort(0); // vbucket
        out.writeInt(bodyLength);
        out.writeInt(opaque);
        out.writeLong(cas);
    }

    private static void writeKey(ByteBuf out, Request r, int i) {
        out.writeBytes(r.keyBytes(), r.keyOffset(i), r.keyLength(i));
    }

    @Override
    public int decode(ByteBuf in, Request r) throws ProtocolException {
        int start = in.readerIndex();
        int limit = in.writerIndex();
        if (limit - start < needed) {
            return NEED_MORE;
        }
        Command c = r.command();
        int result = c.isRead() && r.keyCount() > 1 ? decodeMultiGet(in, start, limit, r) : decodeSingle(in, start, limit, r);
        if (result != NEED_MORE) {
            needed = 0;
            expectedOpaque++;
        }
        return result;
    }

    private int decodeSingle(ByteBuf in, int start, int limit, Request r) throws ProtocolException {
        long end = packetEnd(in, start, limit, r);
        if (end < 0) {
            needed = (int) (-end - start);
            return NEED_MORE;
        }
        Command c = r.command();
        byte expected = opcodeOf(c);
        byte opcode = in.getByte(start + 1);
        if (opcode != expected) {
            throw new ProtocolException("memcache-binary reply with opcode 0x" + hex(opcode) + " to " + r
                    + " (opcode 0x" + hex(expected) + ")");
        }
        int status = in.getUnsignedShort(start + 6);
        Outcome outcome;
        if (status == STATUS_OK) {
            outcome = c.isRead() && !valueMatches(in, start, (int) end, r, 0) ? mismatch(r) : Outcome.OK;
        } else if (status == STATUS_KEY_NOT_FOUND && c != Command.FLUSH) {
            outcome = Outcome.MISS;
        } else if ((status == STATUS_KEY_EXISTS || status == STATUS_NOT_STORED) && c.carriesValue()) {
            outcome = Outcome.MISS;
        } else {
            outcome = Outcome.ERROR;
        }
        in.readerIndex((int) end);
        return outcome.ordinal();
    }

    private int decodeMultiGet(ByteBuf in, int start, int limit, Request r) throws ProtocolException {
        int pos = start;
        int hits = 0;
        int nextKey = 0;
        boolean error = false;
        boolean mismatch = false;
        while (true) {
            long end = packetEnd(in, pos, limit, r);
            if (end < 0) {
                needed = (int) Math.min(Integer.MAX_VALUE, -end - start);
                return NEED_MORE;
            }
            byte opcode = in.getByte(pos + 1);
            int status = in.getUnsignedShort(pos + 6);
            if (opcode == OP_NOOP) {
                in.readerIndex((int) end);
                if (mismatch) {
                    return mismatch(r).ordinal();
                }
                if (error || status != STATUS_OK) {
                    return Outcome.ERROR.ordinal();
                }
                return hits == r.keyCount() ? Outcome.OK.ordinal() : Outcome.MISS.ordinal();
            }
            if (opcode != OP_GETKQ) {
                throw new ProtocolException("memcache-binary reply with opcode 0x" + hex(opcode) + " to " + r
                        + " (GetKQ or Noop expected)");
            }
            if (status == STATUS_OK) {
                int keyStart = pos + HEADER + in.getUnsignedByte(pos + 4);
                int keyLength = in.getUnsignedShort(pos + 2);
                int k = RequestKeys.indexOf(in, keyStart, keyLength, r, nextKey);
                if (k < 0) {
                    throw new ProtocolException("memcache-binary reply GetK for key '" + text(in, keyStart, keyLength)
                            + "' that the request (" + r + ") did not ask for");
                }
                mismatch |= !valueMatches(in, pos, (int) end, r, k);
                hits++;
                nextKey = k + 1;
            } else if (status != STATUS_KEY_NOT_FOUND) {
                error = true; // a quiet get still answers its errors; the Noop ends the request
            }
            pos = (int) end;
        }
    }

    /**
     * Checks the header at {@code pos} and returns where its packet ends, or {@code -(bytes needed
     * from pos's stream start)} (a negative position) when the header or body is incomplete.
     */
    private long packetEnd(ByteBuf in, int pos, int limit, Request r) throws ProtocolException {
        if (limit - pos < HEADER) {
            if (limit > pos && in.getByte(pos) != RESPONSE_MAGIC) {
                throw badMagic(in.getByte(pos), r);
            }
            return -((long) pos + HEADER);
        }
        byte magic = in.getByte(pos);
        if (magic != RESPONSE_MAGIC) {
            throw badMagic(magic, r);
        }
        int keyLength = in.getUnsignedShort(pos + 2);
        int extrasLength = in.getUnsignedByte(pos + 4);
        long bodyLength = in.getUnsignedInt(pos + 8);
        int opaque = in.getInt(pos + 12);
        if (opaque != expectedOpaque) {
            throw new ProtocolException("memcache-binary reply with opaque " + Integer.toUnsignedString(opaque)
                    + " to " + r + " (opaque " + Integer.toUnsignedString(expectedOpaque) + "): out of step");
        }
        if (bodyLength < keyLength + extrasLength || bodyLength > MAX_BODY) {
            throw new ProtocolException("memcache-binary reply body of " + bodyLength + " bytes with a " + keyLength
                    + "-byte key and " + extrasLength + " bytes of extras, to " + r);
        }
        long end = pos + HEADER + bodyLength;
        if (end > limit) {
            return -end;
        }
        return end;
    }

    /** Whether the value of the packet at {@code pos} is the one the run wrote for key {@code key} (true without a check). */
    private static boolean valueMatches(ByteBuf in, int pos, int end, Request r, int key) {
        ValueCheck check = r.valueCheck();
        if (check == null) {
            return true;
        }
        int valueStart = pos + HEADER + in.getUnsignedByte(pos + 4) + in.getUnsignedShort(pos + 2);
        return check.matches(r.keyBytes(), r.keyOffset(key), r.keyLength(key), in, valueStart, end - valueStart);
    }

    /** A read whose value is not the one written: an error counted as a mismatch; the reply was whole, the connection stays. */
    private static Outcome mismatch(Request r) {
        r.valueMismatch();
        return Outcome.ERROR;
    }

    private static byte opcodeOf(Command c) {
        return switch (c) {
            case GET, GETS -> OP_GET;
            case SET, CAS -> OP_SET;
            case ADD -> OP_ADD;
            case REPLACE -> OP_REPLACE;
            case APPEND -> OP_APPEND;
            case PREPEND -> OP_PREPEND;
            case DELETE -> OP_DELETE;
            case INCR -> OP_INCREMENT;
            case DECR -> OP_DECREMENT;
            case TOUCH -> OP_TOUCH;
            case FLUSH -> OP_FLUSH;
            default -> throw new IllegalArgumentException("memcache-binary cannot decode a reply to " + c);
        };
    }

    private static ProtocolException badMagic(byte magic, Request r) {
        return new ProtocolException("memcache-binary reply starts with 0x" + hex(magic) + ", not the response magic 0x81, to " + r);
    }

    private static String hex(byte b) {
        return String.format("%02x", b & 0xff);
    }

    private static String text(ByteBuf in, int from, int length) {
        return io.fluxperf.engine.Printable.bytes(in, from, Math.min(length, 80));
    }
}
