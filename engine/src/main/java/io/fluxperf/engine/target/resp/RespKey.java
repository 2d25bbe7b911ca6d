package io.fluxperf.engine.target.resp;

import io.netty.buffer.ByteBuf;
import java.util.Arrays;

/**
 * Binary-safe bytes with a cached hash: a key of the keyspace (with its database number), or a
 * hash field, set member or sorted-set member (database 0).
 *
 * <p>Two kinds share this class so that a look-up allocates nothing: a stored instance owns an
 * exact copy of its bytes and never changes; a probe is a mutable instance per connection that
 * views bytes inside the connection's argument buffer and is re-pointed for each look-up. A probe
 * is only ever passed to {@code get}/{@code remove}/{@code contains}, never stored.
 *
 * <p>Ordered as redis orders sorted-set members of equal score: by unsigned bytes, then length.
 */
final class RespKey implements Comparable<RespKey> {
    private byte[] bytes;
    private int offset;
    private int length;
    private int db;
    private int hash;

    private RespKey() {
    }

    /** A stored copy of {@code src[offset, offset+length)} in database {@code db}. */
    static RespKey copyOf(int db, byte[] src, int offset, int length) {
        RespKey k = new RespKey();
        k.bytes = Arrays.copyOfRange(src, offset, offset + length);
        k.length = length;
        k.db = db;
        k.hash = hash(db, k.bytes, 0, length);
        return k;
    }

    /** This key as a stored key: itself if it is one already, else a copy. */
    RespKey stored(boolean isProbe) {
        return isProbe ? copyOf(db, bytes, offset, length) : this;
    }

    static RespKey probe() {
        return new RespKey();
    }

    /** Points this probe at {@code src[offset, offset+length)} in database {@code db}; nothing is copied. */
    RespKey view(int db, byte[] src, int offset, int length) {
        this.bytes = src;
        this.offset = offset;
        this.length = length;
        this.db = db;
        this.hash = hash(db, src, offset, length);
        return this;
    }

    int db() {
        return db;
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
        if (!(o instanceof RespKey k) || k.hash != hash || k.length != length || k.db != db) {
            return false;
        }
        return Arrays.equals(bytes, offset, offset + length, k.bytes, k.offset, k.offset + length);
    }

    @Override
    public int compareTo(RespKey o) {
        return Arrays.compareUnsigned(bytes, offset, offset + length, o.bytes, o.offset, o.offset + o.length);
    }

    @Override
    public String toString() {
        return new String(bytes, offset, length, java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    private static int hash(int db, byte[] b, int from, int length) {
        int h = 1 + db * 0x3b9aca07;
        for (int i = from, end = from + length; i < end; i++) {
            h = 31 * h + b[i];
        }
        return h;
    }
}
