package io.fluxperf.engine.pool;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * libmemcached's key hashes over a key's bytes: ketama's MD5 (the digest's first four bytes,
 * little-endian) and modula's default, Bob Jenkins' one-at-a-time. One per load thread: the MD5
 * digest and its output buffer are reused, so hashing a key allocates nothing.
 */
final class KeyHasher {
    private final MessageDigest md5 = md5();
    private final byte[] digest = new byte[16];

    static MessageDigest md5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no MD5, which every Java SE platform must have", e);
        }
    }

    /** libmemcached's hashkit_md5 of {@code key[offset, offset + length)}. */
    int md5(byte[] key, int offset, int length) {
        md5.update(key, offset, length);
        try {
            md5.digest(digest, 0, 16);
        } catch (java.security.DigestException e) {
            throw new IllegalStateException(e);
        }
        return (int) littleEndian(digest, 0);
    }

    /**
     * libmemcached's hashkit_one_at_a_time: each byte is added as C's {@code (uint32_t) *ptr} of a
     * {@code char} does, sign-extended.
     */
    static int oneAtATime(byte[] key, int offset, int length) {
        int value = 0;
        for (int i = offset; i < offset + length; i++) {
            value += key[i];
            value += value << 10;
            value ^= value >>> 6;
        }
        value += value << 3;
        value ^= value >>> 11;
        value += value << 15;
        return value;
    }

    /** Bytes {@code b[at..at+3]} as an unsigned little-endian number. */
    static long littleEndian(byte[] b, int at) {
        return (b[at] & 0xFFL) | (b[at + 1] & 0xFFL) << 8 | (b[at + 2] & 0xFFL) << 16 | (b[at + 3] & 0xFFL) << 24;
    }
}
