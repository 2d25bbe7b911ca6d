package io.fluxperf.engine.protocol.resp.target;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The words of one command as the {@link RespRequestDecoder} collected them: copied into one
 * reusable byte array per connection, word i at {@code [start(i), end(i))}. Reused for every
 * command of the connection; valid only while that command runs.
 */
final class RespArgs {
    /** The arena is given back after a command this large, so one huge value does not pin memory. */
    private static final int KEEP_BYTES = 1 << 20;
    private static final int INITIAL_BYTES = 4096;

    byte[] bytes = new byte[INITIAL_BYTES];
    private int[] starts = new int[16];
    private int[] ends = new int[16];
    private int count;
    /** Result of the last successful {@link #parseLong}. */
    long longValue;

    void clear() {
        count = 0;
        if (bytes.length > KEEP_BYTES) {
            bytes = new byte[INITIAL_BYTES];
        }
    }

    int count() {
        return count;
    }

    int start(int i) {
        return starts[i];
    }

    int end(int i) {
        return ends[i];
    }

    int length(int i) {
        return ends[i] - starts[i];
    }

    /** Where the next word's bytes begin. */
    int used() {
        return count == 0 ? 0 : ends[count - 1];
    }

    /** Makes room for {@code length} more bytes after {@link #used()}. */
    void reserve(long length) {
        long needed = used() + length;
        if (needed > bytes.length) {
            bytes = Arrays.copyOf(bytes, (int) Math.min(Integer.MAX_VALUE - 8, Math.max(needed, bytes.length * 2L)));
        }
    }

    /** Ends a word of {@code length} bytes already written at {@link #used()}. */
    void add(int length) {
        if (count == starts.length) {
            starts = Arrays.copyOf(starts, count * 2);
            ends = Arrays.copyOf(ends, count * 2);
        }
        int start = used();
        starts[count] = start;
        ends[count] = start + length;
        count++;
    }

    /** Whether word i equals {@code upper} (upper-case ASCII) in any case. */
    boolean is(int i, byte[] upper) {
        int start = starts[i];
        if (ends[i] - start != upper.length) {
            return false;
        }
        for (int j = 0; j < upper.length; j++) {
            int c = bytes[start + j];
            if (c >= 'a' && c <= 'z') {
                c -= 'a' - 'A';
            }
            if (c != upper[j]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Parses word i as redis' {@code string2ll} does (no spaces, no '+', no leading zeros, fits a
     * long) into {@link #longValue}; false when it is not such a number.
     */
    boolean parseLong(int i) {
        return parseLong(bytes, starts[i], ends[i]);
    }

    boolean parseLong(byte[] b, int from, int to) {
        int n = to - from;
        if (n == 0 || n > 20) {
            return false;
        }
        if (n == 1 && b[from] == '0') {
            longValue = 0;
            return true;
        }
        int i = from;
        boolean negative = false;
        if (b[i] == '-') {
            negative = true;
            i++;
            if (i == to) {
                return false;
            }
        }
        if (b[i] < '1' || b[i] > '9') {
            return false;
        }
        long v = 0;
        for (; i < to; i++) {
            int d = b[i] - '0';
            if (d < 0 || d > 9) {
                return false;
            }
            if (v < (Long.MIN_VALUE + d) / 10) {
                return false;
            }
            v = v * 10 - d;
        }
        if (!negative) {
            if (v == Long.MIN_VALUE) {
                return false;
            }
            v = -v;
        }
        longValue = v;
        return true;
    }

    String text(int i) {
        return new String(bytes, starts[i], length(i), StandardCharsets.ISO_8859_1);
    }

    String text(int i, int maxLength) {
        return new String(bytes, starts[i], Math.min(maxLength, length(i)), StandardCharsets.ISO_8859_1);
    }
}
