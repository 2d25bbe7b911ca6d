package io.fluxperf.engine.target;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Binary-safe key bytes with a cached hash and a database number: a memcache key (always database
 * 0), a redis key (with the database SELECT chose), or a redis hash field, set member or
 * sorted-set member (database 0).
 *
 * <p>Two kinds share this class so that a look-up allocates nothing: a stored key owns an exact
 * copy of its bytes and never changes; a probe is one mutable instance per connection that views
 * a key inside the connection's line or argument buffer and is re-pointed for each look-up. A
 * probe is only ever passed to {@code get}/{@code remove}/{@code contains}, never stored in a map.
 *
 * <p>Equal keys have equal bytes and the same database. Ordered as redis orders sorted-set members
 * of equal score: by unsigned bytes, then length (the database does not take part).
 */
public final class ByteKey implements Comparable<ByteKey> {
    private byte[] bytes;
    private int offset;
    private int length;
    private int db;
    private int hash;

    private ByteKey() {
    }

    /** A stored key of database 0: its own copy of {@code src[offset, offset+length)}. */
    public static ByteKey copyOf(byte[] src, int offset, int length) {
        return copyOf(0, src, offset, length);
    }

    /** A stored key of database {@code db}: its own copy of {@code src[offset, offset+length)}. */
    public static ByteKey copyOf(int db, byte[] src, int offset, int length) {
        ByteKey k = new ByteKey();
        k.bytes = Arrays.copyOfRange(src, offset, offset + length);
        k.length = length;
        k.db = db;
        k.hash = hash(db, k.bytes, 0, length);
        return k;
    }

    /** A probe for one connection; point it at a key with {@link #view}. */
    public static ByteKey probe() {
        return new ByteKey();
    }

    /** This key as a stored key: itself if it is one already, else a copy. */
    public ByteKey stored(boolean isProbe) {
        return isProbe ? copyOf(db, bytes, offset, length) : this;
    }

    /** Points this probe at {@code src[offset, offset+length)} in database 0 (the bytes are not copied). */
    public ByteKey view(byte[] src, int offset, int length) {
        return view(0, src, offset, length);
    }

    /** Points this probe at {@code src[offset, offset+length)} in database {@code db} (the bytes are not copied). */
    public ByteKey view(int db, byte[] src, int offset, int length) {
        this.bytes = src;
        this.offset = offset;
        this.length = length;
        this.db = db;
        this.hash = hash(db, src, offset, length);
        return this;
    }

    public int db() {
        return db;
    }

    public int length() {
        return length;
    }

    public void writeTo(ByteBuf out) {
        out.writeBytes(bytes, offset, length);
    }

    /** Bits for choosing a store segment, mixed so that keys differing only in their last byte spread. */
    public int spreadHash() {
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
        if (!(o instanceof ByteKey k) || k.hash != hash || k.length != length || k.db != db) {
            return false;
        }
        return Arrays.equals(bytes, offset, offset + length, k.bytes, k.offset, k.offset + length);
    }

    @Override
    public int compareTo(ByteKey o) {
        return Arrays.compareUnsigned(bytes, offset, offset + length, o.bytes, o.offset, o.offset + o.length);
    }

    @Override
    public String toString() {
        return new String(bytes, offset, length, StandardCharsets.ISO_8859_1);
    }

    /** Database 0 hashes as {@code Arrays.hashCode} of the bytes would. */
    private static int hash(int db, byte[] b, int from, int length) {
        int h = 1 + db * 0x3b9aca07;
        for (int i = from, end = from + length; i < end; i++) {
            h = 31 * h + b[i];
        }
        return h;
    }
}
