package io.fluxperf.engine.protocol;

import io.netty.buffer.ByteBuf;

/** Allocation-free ASCII helpers for text protocols. */
public final class Ascii {
    private static final byte[] MIN_LONG = Long.toString(Long.MIN_VALUE).getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private Ascii() {
    }

    /** The value of {@code b} as a hex digit (either case), or -1 if it is not one. */
    public static int hexDigit(byte b) {
        if (b >= '0' && b <= '9') {
            return b - '0';
        }
        int lower = b | 0x20;
        return lower >= 'a' && lower <= 'f' ? lower - 'a' + 10 : -1;
    }

    /** Writes {@code value} in decimal. */
    public static void writeLong(ByteBuf out, long value) {
        if (value == Long.MIN_VALUE) {
            out.writeBytes(MIN_LONG);
            return;
        }
        if (value < 0) {
            out.writeByte('-');
            value = -value;
        }
        int digits = 1;
        for (long v = value; v >= 10; v /= 10) {
            digits++;
        }
        int end = out.writerIndex() + digits;
        out.ensureWritable(digits);
        for (int i = end - 1; i >= out.writerIndex(); i--) {
            out.setByte(i, (int) ('0' + value % 10));
            value /= 10;
        }
        out.writerIndex(end);
    }

    /** Writes an unsigned 64-bit value in decimal. */
    public static void writeUnsignedLong(ByteBuf out, long value) {
        if (value >= 0) {
            writeLong(out, value);
        } else {
            long quotient = (value >>> 1) / 5;
            long remainder = value - quotient * 10;
            writeLong(out, quotient);
            out.writeByte((int) ('0' + remainder));
        }
    }

    /** True when {@code in[from..]} starts with {@code prefix}. */
    public static boolean startsWith(ByteBuf in, int from, int end, byte[] prefix) {
        if (end - from < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (in.getByte(from + i) != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Parses a non-negative decimal number in {@code in[from, end)}, or returns -1 when it is not one.
     */
    public static long parseNonNegative(ByteBuf in, int from, int end) {
        if (from >= end || end - from > 19) {
            return -1;
        }
        long v = 0;
        for (int i = from; i < end; i++) {
            int c = in.getByte(i) - '0';
            if (c < 0 || c > 9) {
                return -1;
            }
            v = v * 10 + c;
        }
        return v;
    }

    public static byte[] bytes(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }
}
