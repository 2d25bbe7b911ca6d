package io.fluxperf.replay;

import java.util.Arrays;

/**
 * The bytes of values a log gives only the size of: one read-only array of printable characters,
 * shared by every request (a value is its first n bytes). It grows, by replacement, when the
 * reader meets a larger size; requests in flight keep the array they were given.
 */
final class SynthValues {
    private static final byte[] ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
            .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private volatile byte[] bytes = make(4096);

    /** Makes sure values of {@code size} bytes can be served; called by the reader before it publishes the entry. */
    void ensure(int size) {
        if (size > bytes.length) {
            bytes = make(Math.max(size, Math.min(Integer.MAX_VALUE / 2, bytes.length * 2)));
        }
    }

    /** An array of at least {@code size} bytes (after {@link #ensure}). */
    byte[] array() {
        return bytes;
    }

    private static byte[] make(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = ALPHABET[(int) ((i * 2654435761L >>> 7) % ALPHABET.length)];
        }
        return b;
    }

    @Override
    public String toString() {
        return "SynthValues" + Arrays.toString(Arrays.copyOf(bytes, 8));
    }
}
