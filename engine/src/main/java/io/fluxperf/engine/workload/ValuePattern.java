package io.fluxperf.engine.workload;

import io.fluxperf.engine.request.ValueCheck;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The bytes generated values are made of: one read-only array of printable characters, from
 * which the value of key index k with length n is {@code n} bytes starting at {@code k % 251}.
 * Values thus differ from key to key (a reply given to the wrong request shows) and can be
 * recomputed by anyone who knows the seed, without storing them.
 */
public final class ValuePattern implements ValueCheck {
    /** A prime, so that neighbouring keys start at different offsets. */
    static final int OFFSETS = 251;
    private static final byte[] ALPHABET =
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private final byte[] bytes;
    /** The same bytes for comparisons with replies (absolute reads only: shared by every event loop). */
    private final ByteBuf view;

    public ValuePattern(long seed, int maxValueLength) {
        bytes = new byte[maxValueLength + OFFSETS];
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = ALPHABET[random.nextInt(ALPHABET.length)];
        }
        view = Unpooled.wrappedBuffer(bytes);
    }

    /**
     * True when {@code value} is this pattern's value for the generated key (its index in
     * decimal) at that length; a key that is not a generated one cannot be checked and matches.
     */
    @Override
    public boolean matches(byte[] key, int keyOffset, int keyLength, ByteBuf value, int from, int length) {
        long index = 0;
        for (int i = keyOffset; i < keyOffset + keyLength; i++) {
            int digit = key[i] - '0';
            if (digit < 0 || digit > 9 || index > (Long.MAX_VALUE - digit) / 10) {
                return true;
            }
            index = index * 10 + digit;
        }
        return length <= maxValueLength() && ByteBufUtil.equals(value, from, view, offset(index), length);
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
