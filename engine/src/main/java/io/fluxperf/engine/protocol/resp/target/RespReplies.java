package io.fluxperf.engine.protocol.resp.target;

import io.fluxperf.engine.protocol.Ascii;
import io.fluxperf.engine.target.ByteKey;
import io.netty.buffer.ByteBuf;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;

/**
 * Writes replies in the protocol version of the connection: RESP2, or RESP3 after {@code HELLO 3}
 * (nulls as {@code _}, maps as {@code %}, sets as {@code ~}, doubles as {@code ,}, INFO as a
 * verbatim string). Constant replies are pre-encoded; numbers are written in place.
 */
final class RespReplies {
    static final byte[] OK = bytes("+OK\r\n");
    static final byte[] PONG = bytes("+PONG\r\n");
    static final byte[] ZERO = bytes(":0\r\n");
    static final byte[] ONE = bytes(":1\r\n");
    private static final byte[] NIL2 = bytes("$-1\r\n");
    private static final byte[] NIL_ARRAY2 = bytes("*-1\r\n");
    private static final byte[] NULL3 = bytes("_\r\n");
    private static final byte[] EMPTY_ARRAY = bytes("*0\r\n");
    private static final short CRLF = ('\r' << 8) | '\n';

    static final String WRONGTYPE = "WRONGTYPE Operation against a key holding the wrong kind of value";
    static final String NOT_INTEGER = "ERR value is not an integer or out of range";
    static final String NOT_FLOAT = "ERR value is not a valid float";
    static final String SYNTAX = "ERR syntax error";
    static final String NOAUTH = "NOAUTH Authentication required.";
    static final String WRONGPASS = "WRONGPASS invalid username-password pair or user is disabled.";
    static final String OOM = "OOM command not allowed when used memory > 'maxmemory'.";

    private RespReplies() {
    }

    static void nil(ByteBuf out, boolean resp3) {
        out.writeBytes(resp3 ? NULL3 : NIL2);
    }

    /** The null of a command that answers arrays (LPOP k count on a missing key). */
    static void nilArray(ByteBuf out, boolean resp3) {
        out.writeBytes(resp3 ? NULL3 : NIL_ARRAY2);
    }

    static void integer(ByteBuf out, long v) {
        if (v == 0) {
            out.writeBytes(ZERO);
        } else if (v == 1) {
            out.writeBytes(ONE);
        } else {
            out.writeByte(':');
            Ascii.writeLong(out, v);
            out.writeShort(CRLF);
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

    static void bulk(ByteBuf out, ByteKey k) {
        out.writeByte('$');
        Ascii.writeLong(out, k.length());
        out.writeShort(CRLF);
        k.writeTo(out);
        out.writeShort(CRLF);
    }

    static void bulk(ByteBuf out, String s) {
        bulk(out, s.getBytes(StandardCharsets.UTF_8));
    }

    static void simple(ByteBuf out, String s) {
        out.writeByte('+');
        out.writeCharSequence(s, StandardCharsets.UTF_8);
        out.writeShort(CRLF);
    }

    /** An error reply; {@code message} starts with its code (ERR, WRONGTYPE, …). */
    static void error(ByteBuf out, String message) {
        out.writeByte('-');
        out.writeCharSequence(message, StandardCharsets.UTF_8);
        out.writeShort(CRLF);
    }

    static void array(ByteBuf out, long n) {
        if (n == 0) {
            out.writeBytes(EMPTY_ARRAY);
            return;
        }
        header(out, '*', n);
    }

    /** A map of {@code entries} key-value pairs: {@code %n} in RESP3, a flat array of 2n in RESP2. */
    static void map(ByteBuf out, long entries, boolean resp3) {
        if (resp3) {
            header(out, '%', entries);
        } else {
            array(out, entries * 2);
        }
    }

    static void set(ByteBuf out, long n, boolean resp3) {
        if (resp3) {
            header(out, '~', n);
        } else {
            array(out, n);
        }
    }

    /** A double: {@code ,} in RESP3, a bulk string in RESP2, formatted as redis' {@code %.17g}. */
    static void dbl(ByteBuf out, double d, boolean resp3) {
        String s = formatDouble(d);
        if (resp3) {
            out.writeByte(',');
            out.writeCharSequence(s, StandardCharsets.US_ASCII);
            out.writeShort(CRLF);
        } else {
            bulk(out, s.getBytes(StandardCharsets.US_ASCII));
        }
    }

    /** Text such as INFO's: a verbatim string ({@code =…txt:}) in RESP3, a bulk string in RESP2. */
    static void verbatim(ByteBuf out, String text, boolean resp3) {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        if (resp3) {
            out.writeByte('=');
            Ascii.writeLong(out, b.length + 4);
            out.writeShort(CRLF);
            out.writeBytes(bytes("txt:"));
            out.writeBytes(b);
            out.writeShort(CRLF);
        } else {
            bulk(out, b);
        }
    }

    private static void header(ByteBuf out, char type, long n) {
        out.writeByte(type);
        Ascii.writeLong(out, n);
        out.writeShort(CRLF);
    }

    /** C's {@code %.17g}, as redis formats scores: "1", "1.5", "0.10000000000000001", "inf", "1e+20". */
    static String formatDouble(double d) {
        if (Double.isInfinite(d)) {
            return d > 0 ? "inf" : "-inf";
        }
        if (Double.isNaN(d)) {
            return "nan";
        }
        if (d == Math.rint(d) && Math.abs(d) < 1e17) {
            return (d == 0 && 1 / d < 0) ? "-0" : Long.toString((long) d);
        }
        BigDecimal v = new BigDecimal(d).round(new MathContext(17));
        int exponent = v.precision() - v.scale() - 1;
        if (exponent < -4 || exponent >= 17) {
            BigDecimal mantissa = v.movePointLeft(exponent).stripTrailingZeros();
            String m = mantissa.toPlainString();
            String e = (exponent < 0 ? "-" : "+") + (Math.abs(exponent) < 10 ? "0" : "") + Math.abs(exponent);
            return m + "e" + e;
        }
        return v.stripTrailingZeros().toPlainString();
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
