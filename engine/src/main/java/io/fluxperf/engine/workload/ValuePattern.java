package io.fluxperf.engine.workload;

import io.fluxperf.engine.request.ValueCheck;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.util.internal.PlatformDependent;
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
    /** Digits that always fit a long, so they need no overflow check (a check costs a division per digit). */
    private static final int SAFE_DIGITS = 18;
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
        long index = keyIndex(key, keyOffset, keyOffset + keyLength);
        if (index < 0) {
            return true;
        }
        if (length > maxValueLength() || from < 0 || length < 0 || from + length > value.writerIndex()) {
            return false; // longer than any value the run writes, or not all written (as ByteBufUtil.equals says)
        }
        int off = offset(index);
        if (value.hasArray()) {
            int at = value.arrayOffset() + from;
            return Arrays.equals(value.array(), at, at + length, bytes, off, off + length);
        }
        if (value.hasMemoryAddress()) {
            return equalsAt(value.memoryAddress() + from, off, length);
        }
        return ByteBufUtil.equals(value, from, view, off, length);
    }

    /** The key's index, or -1 when it is not a generated key (not all digits, or beyond a long). */
    static long keyIndex(byte[] key, int from, int end) {
        int i = from;
        while (i < end - 1 && key[i] == '0') {
            i++; // a key wider than its index is padded with zeros
        }
        boolean fits = end - i <= SAFE_DIGITS;
        long index = 0;
        for (; i < end; i++) {
            int digit = key[i] - '0';
            if (digit < 0 || digit > 9 || !fits && index > (Long.MAX_VALUE - digit) / 10) {
                return -1;
            }
            index = index * 10 + digit;
        }
        return index;
    }

    /**
     * Compares {@code length} bytes at a direct buffer's address with the pattern's from {@code off},
     * eight at a time. Every read-back value of a --hit run passes here: ByteBufUtil.equals checks
     * the bounds and reference counts of both buffers on each 8-byte read, which cost a 64-byte GET
     * several times its decoding (CodecBench, check=value).
     */
    private boolean equalsAt(long address, int off, int length) {
        int i = 0;
        for (; i + Long.BYTES <= length; i += Long.BYTES) {
            if (PlatformDependent.getLong(address + i) != PlatformDependent.getLong(bytes, off + i)) {
                return false;
            }
        }
        for (; i < length; i++) {
            if (PlatformDependent.getByte(address + i) != bytes[off + i]) {
                return false;
            }
        }
        return true;
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
