package io.fluxperf.engine.protocol.resp.log;

/** A RESP decimal number ended by CRLF (an array's count, a bulk string's length), read a byte at a time across segments. */
final class NumberLine {
    long value;
    boolean negative;
    boolean bad;
    boolean done;
    private int digits;
    private boolean cr;

    void clear() {
        value = 0;
        negative = false;
        bad = false;
        done = false;
        digits = 0;
        cr = false;
    }

    /** Feeds bytes from {@code p}; returns where it stopped ({@link #done} once the line ended). */
    int feed(byte[] b, int p, int to) {
        while (p < to) {
            byte c = b[p++];
            if (cr) {
                bad |= c != '\n' || digits == 0;
                done = true;
                return p;
            }
            if (c == '\r') {
                cr = true;
            } else if (c >= '0' && c <= '9' && digits < 18) {
                value = value * 10 + (c - '0');
                digits++;
            } else if (c == '-' && digits == 0 && !negative) {
                negative = true;
            } else {
                bad = true;
                done = true;
                return p;
            }
        }
        return p;
    }
}
