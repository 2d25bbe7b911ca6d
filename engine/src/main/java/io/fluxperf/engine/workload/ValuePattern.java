package io.fluxperf.engine.workload;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The bytes generated values are made of: one read-only array of printable characters, from
 * which the value of key index k with length n is {@code n} bytes starting at {@code k % 251}.
 * Values thus differ from key to key (a reply given to the wrong request shows) and can be
 * recomputed by anyone who knows the seed, without storing them.
 */
public final class ValuePattern {
    /** A prime, so that neighbouring keys start at different offsets. */
    static final int OFFSETS = 251;
    private static final byte[] ALPHABET =
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private final byte[] bytes;

    public ValuePattern(long seed, int maxValueLength) {
        bytes = new byte[maxValueLength + OFFSETS];
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = ALPHABET[random.nextInt(ALPHABET.length)];
        }
    }

    /** The shared array; read-only by contract. */
    public byte[] array() {
        return bytes;
    }

    public int offset(long keyIndex) {
        return (int) (Math.floorMod(keyIndex, OFFSETS));
    }

    /** A copy of the value for a key, for checks. */
    public byte[] expected(long keyIndex, int length) {
        int offset = offset(keyIndex);
        return Arrays.copyOfRange(bytes, offset, offset + length);
    }

    public int maxValueLength() {
        return bytes.length - OFFSETS;
    }
}
