package io.fluxperf.engine.target.memcache;

import io.netty.buffer.ByteBuf;
import java.util.Arrays;

/**
 * A memcache key: raw bytes (keys are binary-safe apart from space and control characters) with a
 * cached hash.
 *
 * <p>Two kinds share this class so that a lookup allocates nothing: a stored key owns an exact
 * copy of its bytes and never changes; a probe is one mutable instance per connection that views a
 * key inside the connection's line buffer and is re-pointed for each lookup. A probe is only ever
 * passed to {@code get}/{@code remove}, never stored in a map.
 */
final class Key {
    private byte[] bytes;
    private int offset;
    private int length;
    private int hash;

    private Key() {
    }

    /** A stored key: its own copy of {@code src[offset, offset+length)}. */
    static Key copyOf(byte[] src, int offset, int length) {
        Key k = new Key();
        k.bytes = Arrays.copyOfRange(src, offset, offset + length);
        k.length = length;
        k.hash = hash(k.bytes, 0, length);
        return k;
    }

    /** A probe for one connection; point it at a key with {@link #view}. */
    static Key probe() {
        return new Key();
    }

    /** Points this probe at {@code src[offset, offset+length)} (the bytes are not copied). */
    Key view(byte[] src, int offset, int length) {
        this.bytes = src;
        this.offset = offset;
        this.length = length;
        this.hash = hash(src, offset, length);
        return this;
    }

    int length() {
        return length;
    }

    void writeTo(ByteBuf out) {
        out.writeBytes(bytes, offset, length);
    }

    /** Bits for choosing a store segment, mixed so that keys differing only in their last byte spread. */
    int spreadHash() {
        int h = hash * 0x9E3779B9;
        return h ^ (h >>> 16);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof Key k) || k.hash != hash || k.length != length) {
            return false;
        }
        return Arrays.equals(bytes, offset, offset + length, k.bytes, k.offset, k.offset + length);
    }

    @Override
    public String toString() {
        return new String(bytes, offset, length, java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    private static int hash(byte[] b, int from, int length) {
        int h = 1;
        for (int i = from, end = from + length; i < end; i++) {
            h = 31 * h + b[i];
        }
        return h;
    }
}
