package io.fluxperf.engine.log;

/**
 * A line split at spaces into at most {@code max} words, as offsets into the line's bytes (no
 * copies): the memcache text readers' tokenizer, reused line after line.
 */
public final class SpaceTokens {
    public final int[] from;
    public final int[] to;

    public SpaceTokens(int max) {
        from = new int[max];
        to = new int[max];
    }

    /** Splits {@code b[start, end)}; returns the number of words (at most the capacity). */
    public int split(byte[] b, int start, int end) {
        int n = 0;
        int p = start;
        while (p < end && n < from.length) {
            while (p < end && b[p] == ' ') {
                p++;
            }
            if (p == end) {
                break;
            }
            int s = p;
            while (p < end && b[p] != ' ') {
                p++;
            }
            from[n] = s;
            to[n] = p;
            n++;
        }
        return n;
    }
}
