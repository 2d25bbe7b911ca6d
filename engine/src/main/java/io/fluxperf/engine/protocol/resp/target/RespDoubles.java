package io.fluxperf.engine.protocol.resp.target;

import java.nio.charset.StandardCharsets;

/**
 * Doubles read as redis reads them, with C's {@code strtod} (glibc, C locale): blanks before,
 * a sign, then decimal digits with a point and an exponent, hexadecimal ({@code 0x1.8p1}),
 * {@code inf}, {@code infinity} or {@code nan} in any case; the number ends where such text ends.
 * A score ({@link #score}) is what {@code getDoubleFromObject} accepts, a range's end
 * ({@link #rangeEnd}) what {@code zslParseRange} does. NaN means refused: redis refuses NaN in
 * both.
 */
final class RespDoubles {
    private RespDoubles() {
    }

    /**
     * A ZADD or ZINCRBY score {@code b[from, to)}: the whole word is a number, without blanks
     * before it, and neither overflows nor underflows to 0 (strtod's ERANGE). NaN when refused.
     */
    static double score(byte[] b, int from, int to) {
        if (from == to || isSpace(b[from]) || end(b, from, to) != to) {
            return Double.NaN;
        }
        return value(b, from, to, true);
    }

    /**
     * An end of ZRANGE … BYSCORE, after its {@code (} if any: a number up to the word's end (or a
     * NUL byte, where C's string ends), or nothing at all, which strtod reads as 0. NaN when refused.
     */
    static double rangeEnd(byte[] b, int from, int to) {
        int end = end(b, from, to);
        if (end != to && b[end] != 0) {
            return Double.NaN;
        }
        return end == from ? 0 : value(b, from, end, false);
    }

    /** Where strtod stops reading {@code b[from, to)}: after the longest number; {@code from} when there is none. */
    private static int end(byte[] b, int from, int to) {
        int p = from;
        while (p < to && isSpace(b[p])) {
            p++;
        }
        if (p < to && (b[p] == '+' || b[p] == '-')) {
            p++;
        }
        if (word(b, p, to, "infinity")) {
            return p + 8;
        }
        if (word(b, p, to, "inf") || word(b, p, to, "nan")) {
            return p + 3;
        }
        if (p + 2 < to && b[p] == '0' && (b[p + 1] == 'x' || b[p + 1] == 'X')) {
            int q = digits(b, p + 2, to, true);
            if (q > p + 2) {
                return exponent(b, q, to, 'p');
            }
        }
        int q = digits(b, p, to, false);
        return q == p ? from : exponent(b, q, to, 'e');
    }

    /** After digits with at most one point, at least one digit: where they end; {@code p} when there are none. */
    private static int digits(byte[] b, int p, int to, boolean hex) {
        int q = p;
        int count = 0;
        boolean point = false;
        while (q < to) {
            if (isDigit(b[q], hex)) {
                count++;
            } else if (b[q] == '.' && !point) {
                point = true;
            } else {
                break;
            }
            q++;
        }
        return count > 0 ? q : p;
    }

    /** After a number's digits at {@code p}: past its exponent ({@code e} or {@code p}, a sign, digits) if it has one. */
    private static int exponent(byte[] b, int p, int to, char letter) {
        if (p < to && (b[p] | 0x20) == letter) {
            int q = p + 1;
            if (q < to && (b[q] == '+' || b[q] == '-')) {
                q++;
            }
            int r = q;
            while (r < to && isDigit(b[r], false)) {
                r++;
            }
            if (r > q) {
                return r;
            }
        }
        return p;
    }

    /**
     * The value of the number {@code b[from, end)} (blanks before it allowed); NaN for nan, and
     * when {@code checkRange}, for one that overflows or whose nonzero digits underflow to 0.
     */
    private static double value(byte[] b, int from, int end, boolean checkRange) {
        int p = from;
        while (isSpace(b[p])) {
            p++;
        }
        boolean negative = b[p] == '-';
        int s = b[p] == '+' || negative ? p + 1 : p;
        if (word(b, s, end, "nan")) {
            return Double.NaN;
        }
        if (word(b, s, end, "inf")) {
            return negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        String text = new String(b, p, end - p, StandardCharsets.ISO_8859_1);
        boolean hex = end - s > 1 && (b[s + 1] | 0x20) == 'x';
        if (hex && text.indexOf('p') < 0 && text.indexOf('P') < 0) {
            text += "p0"; // Java wants a hexadecimal float's exponent
        }
        double v = Double.parseDouble(text);
        if (checkRange && (Double.isInfinite(v) || (v == 0 && nonzeroDigit(b, hex ? s + 2 : s, end, hex)))) {
            return Double.NaN;
        }
        return v;
    }

    /** Whether the significand starting at {@code p} has a digit other than 0. */
    private static boolean nonzeroDigit(byte[] b, int p, int end, boolean hex) {
        for (int i = p; i < end && (b[i] == '.' || isDigit(b[i], hex)); i++) {
            if (b[i] != '0' && b[i] != '.') {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code b[p, …)} begins with {@code lower} in any case. */
    private static boolean word(byte[] b, int p, int to, String lower) {
        if (to - p < lower.length()) {
            return false;
        }
        for (int i = 0; i < lower.length(); i++) {
            if ((b[p + i] | 0x20) != lower.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isDigit(byte c, boolean hex) {
        return (c >= '0' && c <= '9') || (hex && ((c | 0x20) >= 'a' && (c | 0x20) <= 'f'));
    }

    /** C's isspace in the C locale. */
    private static boolean isSpace(byte c) {
        return c == ' ' || (c >= '\t' && c <= '\r');
    }
}
