package io.fluxperf.replay;

/**
 * A line split at spaces into at most {@code max} words, as offsets into the line's bytes (no
 * copies): the memcache text readers' tokenizer, reused line after line.
 */
final class SpaceTokens {
    final int[] from;
    final int[] to;

    SpaceTokens(int max) {
        from = new int[max];
        to = new int[max];
    }

    /** Splits {@code b[start, end)}; returns the number of words (at most the capacity). */
    int split(byte[] b, int start, int end) {
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
