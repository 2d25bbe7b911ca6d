package io.fluxperf.engine.protocol.memcache.target;

import io.netty.buffer.ByteBuf;
import java.util.Arrays;

/**
 * One request line, copied out of the input and split into tokens the way memcached's
 * {@code tokenize_command} splits it: at spaces only (a tab is part of a token), ending at the
 * first NUL byte. One instance per connection, reused for every line; tokens are offsets into
 * {@link #bytes}, so nothing is allocated per line once the arrays have grown.
 */
final class CommandLine {
    /** memcached's MAX_TOKENS: it counts at most 23 tokens and a terminal one. */
    private static final int MEMCACHED_MAX_TOKENS = 24;
    /** A buffer grown beyond this (by a huge multi-get) is dropped after use rather than kept per connection. */
    private static final int KEEP_BYTES = 16 << 10;

    byte[] bytes = new byte[256];
    private int[] starts = new int[32];
    private int[] ends = new int[32];
    private int count;

    /** Copies {@code in[from, to)} and tokenizes it. */
    void load(ByteBuf in, int from, int to) {
        int length = to - from;
        if (bytes.length < length) {
            bytes = new byte[Math.max(length, bytes.length * 2)];
        }
        in.getBytes(from, bytes, 0, length);
        tokenize(length);
    }

    /** Lets a huge line's buffer go once it has been handled. */
    void trim() {
        if (bytes.length > KEEP_BYTES) {
            bytes = new byte[256];
            starts = new int[32];
            ends = new int[32];
        }
    }

    /** All tokens of the line (get takes every one of them as a key). */
    int count() {
        return count;
    }

    /**
     * memcached's {@code ntokens}: tokens counted up to 23, plus the terminal token. Its
     * argument-count checks (e.g. set takes 6 or 7) use this number.
     */
    int memcachedTokens() {
        return Math.min(count, MEMCACHED_MAX_TOKENS - 1) + 1;
    }

    int start(int token) {
        return starts[token];
    }

    int end(int token) {
        return ends[token];
    }

    int length(int token) {
        return ends[token] - starts[token];
    }

    byte firstByte(int token) {
        return bytes[starts[token]];
    }

    boolean is(int token, byte[] word) {
        return Arrays.equals(bytes, starts[token], ends[token], word, 0, word.length);
    }

    boolean startsWith(int token, byte[] prefix) {
        return length(token) >= prefix.length
                && Arrays.equals(bytes, starts[token], starts[token] + prefix.length, prefix, 0, prefix.length);
    }

    /** memcached's {@code set_noreply_maybe}: the last counted token is exactly "noreply". */
    boolean lastIs(byte[] word) {
        int last = memcachedTokens() - 2;
        return last >= 0 && is(last, word);
    }

    private void tokenize(int length) {
        count = 0;
        int i = 0;
        while (i < length) {
            byte b = bytes[i];
            if (b == 0) {
                break;
            }
            if (b == ' ') {
                i++;
                continue;
            }
            int start = i;
            while (i < length && bytes[i] != ' ' && bytes[i] != 0) {
                i++;
            }
            if (count == starts.length) {
                starts = Arrays.copyOf(starts, count * 2);
                ends = Arrays.copyOf(ends, count * 2);
            }
            starts[count] = start;
            ends[count] = i;
            count++;
            if (i < length && bytes[i] == 0) {
                break;
            }
        }
    }
}
