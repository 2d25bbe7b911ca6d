package io.fluxperf.engine.protocol;

import io.netty.buffer.ByteBuf;

/**
 * Base64 (RFC 4648's standard alphabet, with {@code =} padding) for keys that a text protocol
 * carries as base64 (memcache meta's {@code b} flag), without allocating: encoded straight into a
 * {@link ByteBuf}, decoded into a caller's array.
 *
 * <p>Decoding follows memcached's {@code base64_decode}: bytes outside the alphabet are skipped,
 * and what remains must be a whole number of 4-character groups, else the input is not base64.
 */
public final class Base64Keys {
    private static final byte[] ALPHABET =
            Ascii.bytes("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/");
    /** The 6-bit value of each byte, -1 for bytes outside the alphabet; '=' is 0 (padding). */
    private static final byte[] VALUES = new byte[256];

    static {
        java.util.Arrays.fill(VALUES, (byte) -1);
        for (int i = 0; i < ALPHABET.length; i++) {
            VALUES[ALPHABET[i]] = (byte) i;
        }
        VALUES['='] = 0;
    }

    private Base64Keys() {
    }

    /** The length of {@code n} bytes encoded. */
    public static int encodedLength(int n) {
        return (n + 2) / 3 * 4;
    }

    /** Writes {@code src[offset, offset + length)} base64-encoded. */
    public static void encode(byte[] src, int offset, int length, ByteBuf out) {
        out.ensureWritable(encodedLength(length));
        int end = offset + length;
        int i = offset;
        for (; end - i >= 3; i += 3) {
            int bits = (src[i] & 0xff) << 16 | (src[i + 1] & 0xff) << 8 | (src[i + 2] & 0xff);
            out.writeByte(ALPHABET[bits >>> 18]);
            out.writeByte(ALPHABET[(bits >>> 12) & 0x3f]);
            out.writeByte(ALPHABET[(bits >>> 6) & 0x3f]);
            out.writeByte(ALPHABET[bits & 0x3f]);
        }
        if (end - i == 1) {
            int bits = (src[i] & 0xff) << 16;
            out.writeByte(ALPHABET[bits >>> 18]);
            out.writeByte(ALPHABET[(bits >>> 12) & 0x3f]);
            out.writeByte('=');
            out.writeByte('=');
        } else if (end - i == 2) {
            int bits = (src[i] & 0xff) << 16 | (src[i + 1] & 0xff) << 8;
            out.writeByte(ALPHABET[bits >>> 18]);
            out.writeByte(ALPHABET[(bits >>> 12) & 0x3f]);
            out.writeByte(ALPHABET[(bits >>> 6) & 0x3f]);
            out.writeByte('=');
        }
    }

    /**
     * Decodes {@code src[from, to)} into {@code dst} from {@code dstOffset}, which must have room
     * for {@code (to - from) / 4 * 3} bytes; {@code dst} may be {@code src} with {@code dstOffset <= from}.
     * As memcached does, the first group with padding ends the key (what follows it is ignored),
     * and a group of more than two {@code =} is not base64.
     *
     * @return the decoded length, or -1 when the input is not base64
     */
    public static int decode(byte[] src, int from, int to, byte[] dst, int dstOffset) {
        int significant = 0;
        for (int i = from; i < to; i++) {
            if (VALUES[src[i] & 0xff] >= 0) {
                significant++;
            }
        }
        if (significant == 0 || significant % 4 != 0) {
            return -1;
        }
        int out = dstOffset;
        int group = 0;
        int filled = 0;
        int padding = 0;
        for (int i = from; i < to; i++) {
            byte b = src[i];
            int v = VALUES[b & 0xff];
            if (v < 0) {
                continue;
            }
            if (b == '=') {
                padding++;
            }
            group = group << 6 | v;
            if (++filled < 4) {
                continue;
            }
            if (padding > 2) {
                return -1;
            }
            dst[out++] = (byte) (group >>> 16);
            if (padding < 2) {
                dst[out++] = (byte) (group >>> 8);
            }
            if (padding < 1) {
                dst[out++] = (byte) group;
            }
            if (padding > 0) {
                break;
            }
            group = 0;
            filled = 0;
        }
        return out - dstOffset;
    }
}
