package io.fluxperf.engine.protocol.memcache.target;

import io.netty.buffer.ByteBuf;

/**
 * Decimal numbers the way memcached 1.6 reads and writes them, so that edge cases answer alike:
 * its {@code safe_strtoull}, {@code safe_strtoul} and {@code safe_strtol} over glibc's
 * {@code strto*} (leading white space and a sign are allowed, the number must end at white space,
 * NUL or the end, out-of-range is an error, a '-' that yields a huge unsigned value is an error,
 * 32-bit results are truncated as C truncates them), and unsigned decimal output.
 *
 * <p>One instance per connection: a successful parse leaves its result in {@link #value}, so that
 * parsing allocates nothing. Not thread-safe.
 */
final class AsciiNumbers {
    private static final long MAX_DIV_10 = Long.divideUnsigned(-1L, 10);
    private static final long MAX_MOD_10 = Long.remainderUnsigned(-1L, 10);

    /** The result of the last successful parse. */
    long value;

    private final byte[] digits = new byte[20];

    /** memcached's {@code safe_strtoull}: an unsigned 64-bit number (cas uniques, incr/decr deltas and values). */
    boolean parseUnsigned64(byte[] b, int from, int to) {
        int i = skipSpace(b, from, to);
        boolean negative = false;
        if (i < to && (b[i] == '+' || b[i] == '-')) {
            negative = b[i] == '-';
            i++;
        }
        int firstDigit = i;
        long v = 0;
        while (i < to && isDigit(b[i])) {
            int d = b[i] - '0';
            if (Long.compareUnsigned(v, MAX_DIV_10) > 0 || (v == MAX_DIV_10 && d > MAX_MOD_10)) {
                return false; // ERANGE
            }
            v = v * 10 + d;
            i++;
        }
        if (i == firstDigit || !endsNumber(b, i, to)) {
            return false;
        }
        if (negative) {
            v = -v;
            if (v < 0) {
                return false; // "-1" would be 2^64-1: memcached refuses a sign that makes it look huge
            }
        }
        value = v;
        return true;
    }

    /**
     * memcached's {@code safe_strtoul} on a 64-bit system (the same checks as
     * {@link #parseUnsigned64}); callers truncate to 32 bits where memcached stores 32.
     */
    boolean parseUnsigned(byte[] b, int from, int to) {
        return parseUnsigned64(b, from, to);
    }

    /** memcached's {@code safe_strtol}: a signed 64-bit parse; callers cast to int as memcached does. */
    boolean parseSigned(byte[] b, int from, int to) {
        int i = skipSpace(b, from, to);
        boolean negative = false;
        if (i < to && (b[i] == '+' || b[i] == '-')) {
            negative = b[i] == '-';
            i++;
        }
        int firstDigit = i;
        long v = 0; // accumulated negatively, so that Long.MIN_VALUE fits
        while (i < to && isDigit(b[i])) {
            int d = b[i] - '0';
            if (v < (Long.MIN_VALUE + d) / 10) {
                return false; // ERANGE
            }
            v = v * 10 - d;
            i++;
        }
        if (i == firstDigit || !endsNumber(b, i, to)) {
            return false;
        }
        if (!negative) {
            if (v == Long.MIN_VALUE) {
                return false;
            }
            v = -v;
        }
        value = v;
        return true;
    }

    /** Writes {@code v} as an unsigned decimal. */
    void writeUnsigned(ByteBuf out, long v) {
        int pos = digits.length;
        if (v < 0) {
            long q = (v >>> 1) / 5;
            digits[--pos] = (byte) ('0' + (v - q * 10));
            v = q;
        }
        do {
            digits[--pos] = (byte) ('0' + v % 10);
            v /= 10;
        } while (v != 0);
        out.writeBytes(digits, pos, digits.length - pos);
    }

    /**
     * The unsigned decimal of {@code v} as a new value of at least {@code minLength} bytes, padded
     * with spaces: memcached rewrites a shorter incr/decr result in place and pads it, so that
     * {@code decr} of "100" by 95 reads back as "5  ".
     */
    static byte[] unsignedValue(long v, int minLength) {
        int n = 1;
        for (long q = Long.divideUnsigned(v, 10); q != 0; q /= 10) {
            n++;
        }
        byte[] out = new byte[Math.max(n, minLength)];
        java.util.Arrays.fill(out, n, out.length, (byte) ' ');
        int pos = n;
        if (v < 0) {
            long q = (v >>> 1) / 5;
            out[--pos] = (byte) ('0' + (v - q * 10));
            v = q;
        }
        do {
            out[--pos] = (byte) ('0' + v % 10);
            v /= 10;
        } while (v != 0);
        return out;
    }

    private static int skipSpace(byte[] b, int i, int to) {
        while (i < to && isSpace(b[i])) {
            i++;
        }
        return i;
    }

    /** After the digits C's parsers stop; memcached accepts the stop only at white space or the string's end (NUL). */
    private static boolean endsNumber(byte[] b, int i, int to) {
        return i == to || isSpace(b[i]) || b[i] == 0;
    }

    private static boolean isDigit(byte c) {
        return c >= '0' && c <= '9';
    }

    /** C's {@code isspace} in the C locale. */
    static boolean isSpace(byte c) {
        return c == ' ' || (c >= '\t' && c <= '\r');
    }
}
