package io.fluxperf.engine.protocol.resp;

import io.fluxperf.engine.protocol.Ascii;
import io.fluxperf.engine.request.Request;
import io.netty.buffer.ByteBuf;
import static io.fluxperf.engine.protocol.resp.RespCommands.bytes;

/**
 * RESP's pieces of a request as the client writes them, in place and allocation-free: an array
 * header ({@code *n}), a bulk string ({@code $len} and the bytes), a number as a bulk string,
 * and a request's key or value as one. Every part of the client that writes a command (the
 * handshake, the request encoder, the commands sent before or after a request) uses these.
 */
final class RespEncoding {
    static final short CRLF = ('\r' << 8) | '\n';
    private static final byte[][] ARRAY_HEADER = new byte[16][];
    private static final byte[] EMPTY_BULK = bytes("$0\r\n\r\n");

    static {
        for (int n = 0; n < ARRAY_HEADER.length; n++) {
            ARRAY_HEADER[n] = bytes("*" + n + "\r\n");
        }
    }

    private RespEncoding() {
    }

    /** {@code *n\r\n}: an array of n elements follows. */
    static void arrayHeader(ByteBuf out, int n) {
        if (n < ARRAY_HEADER.length) {
            out.writeBytes(ARRAY_HEADER[n]);
        } else {
            out.writeByte('*');
            Ascii.writeLong(out, n);
            out.writeShort(CRLF);
        }
    }

    /** The request's key i as a bulk string; an empty one when it has no such key. */
    static void key(Request r, int i, ByteBuf out) {
        if (i >= r.keyCount()) {
            out.writeBytes(EMPTY_BULK);
        } else {
            bulk(out, r.keyBytes(), r.keyOffset(i), r.keyLength(i));
        }
    }

    /** The request's value as a bulk string; an empty one when it has none. */
    static void value(Request r, ByteBuf out) {
        if (r.value() == null) {
            out.writeBytes(EMPTY_BULK);
        } else {
            bulk(out, r.value(), r.valueOffset(), r.valueLength());
        }
    }

    static void bulk(ByteBuf out, byte[] b) {
        bulk(out, b, 0, b.length);
    }

    static void bulk(ByteBuf out, byte[] b, int offset, int length) {
        out.writeByte('$');
        Ascii.writeLong(out, length);
        out.writeShort(CRLF);
        out.writeBytes(b, offset, length);
        out.writeShort(CRLF);
    }

    /** A number as a bulk string: {@code $2\r\n42\r\n}. */
    static void bulkLong(ByteBuf out, long v) {
        out.writeByte('$');
        Ascii.writeLong(out, decimalLength(v));
        out.writeShort(CRLF);
        Ascii.writeLong(out, v);
        out.writeShort(CRLF);
    }

    /** How many characters {@code v} takes in decimal, its sign included. */
    static int decimalLength(long v) {
        if (v == Long.MIN_VALUE) {
            return 20;
        }
        int n = v < 0 ? 2 : 1;
        for (long x = Math.abs(v); x >= 10; x /= 10) {
            n++;
        }
        return n;
    }
}
