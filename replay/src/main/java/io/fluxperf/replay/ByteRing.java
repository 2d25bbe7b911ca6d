package io.fluxperf.replay;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * A bounded single-producer single-consumer ring of variable-size records in one byte array,
 * allocation-free. The producer claims room for a record, writes it in place and publishes it;
 * the consumer peeks at the oldest record, reads it in place and releases it.
 *
 * <p>Why bytes rather than references: a command handed from the reader's core to a load thread's
 * core as an object drags several cache lines across (the object, its key, argument and end
 * arrays, the ring's slot) and each reference stored into an old array dirties a card that G1's
 * refinement thread must then scan. Written one after another into one array, a command is about
 * two cache lines that the consumer reads in order, and no reference is stored at all.
 *
 * <h2>Assumptions and guarantees</h2>
 * <ul>
 * <li>One thread produces at a time and one thread consumes at a time.</li>
 * <li>Records are 8-byte aligned and start with their size as an int; a record never wraps: when
 *     it does not fit before the array's end, the producer writes {@link #WRAP} there and starts
 *     the record at 0, and the consumer skips it.</li>
 * <li>The producer's index is published with a volatile write, so a producer that publishes and
 *     then reads a volatile flag cannot miss a consumer that raised the flag and then found the
 *     ring empty (sequentially consistent volatile accesses on both sides). The consumer's index
 *     needs only release order: the producer reuses room only after it has seen it freed.</li>
 * <li>Each side keeps its own index and its last view of the other's on a cache line of its own,
 *     and reads the other side's only when its view says full (or empty).</li>
 * </ul>
 */
final class ByteRing {
    /** A size that says: the rest of the array is unused, the next record starts at 0. */
    static final int WRAP = -1;
    static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final byte[] bytes;
    private final int mask;
    /** Next byte to write, and the producer's view of {@link #head}; written by the producer only. */
    private final Index tail = new Index();
    /** Next byte to read, and the consumer's view of {@link #tail}; written by the consumer only. */
    private final Index head = new Index();
    /** Producer: where the claimed record starts, as a position; its size. */
    private long claimed;
    private int claimedSize;
    /** Consumer: the position and size of the record {@link #peek()} returned. */
    private long peeked;
    private int peekedSize;

    /** @param capacity bytes, a power of two of at least 64 */
    ByteRing(int capacity) {
        if (capacity < 64 || Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("capacity must be a power of two of at least 64: " + capacity);
        }
        this.bytes = new byte[capacity];
        this.mask = capacity - 1;
    }

    /** The largest record a ring of {@code capacity} bytes takes: half of it, so that a wrap always leaves room. */
    static int maxRecord(int capacity) {
        return capacity / 2;
    }

    /** A record of {@code payload} bytes after its size, rounded up to the ring's 8-byte alignment. */
    static int recordSize(int payload) {
        return (payload + 4 + 7) & ~7;
    }

    byte[] bytes() {
        return bytes;
    }

    int capacity() {
        return bytes.length;
    }

    // ---- producer ----

    /**
     * Claims room for a record of {@code size} bytes ({@link #recordSize}, at most
     * {@link #maxRecord}) and returns the offset in {@link #bytes()} to write its payload at (after
     * its size); -1 when the ring has no room for it now.
     */
    int claim(int size) {
        long t = tail.value;
        int at = (int) (t & mask);
        int toEnd = bytes.length - at;
        long need = size <= toEnd ? size : (long) toEnd + size;
        if (t + need - tail.other > bytes.length) {
            tail.other = (long) Index.VALUE.getAcquire(head);
            if (t + need - tail.other > bytes.length) {
                return -1;
            }
        }
        if (size > toEnd) {
            INT.set(bytes, at, WRAP);
            t += toEnd;
            at = 0;
        }
        INT.set(bytes, at, size);
        claimed = t;
        claimedSize = size;
        return at + 4;
    }

    /** Makes the claimed record visible to the consumer. */
    void publish() {
        tail.value = claimed + claimedSize; // volatile: see the class comment
    }

    /** Bytes the producer could still claim, as far as it knows without reading the consumer's index. */
    int freeBytes() {
        return (int) (bytes.length - (tail.value - (long) Index.VALUE.getAcquire(head)));
    }

    // ---- consumer ----

    /**
     * The offset in {@link #bytes()} of the oldest record's payload (after its size), or -1 when
     * the ring is empty. The record stays until {@link #release()}.
     */
    int peek() {
        long h = head.value;
        if (h >= head.other) {
            head.other = tail.value;
            if (h >= head.other) {
                return -1;
            }
        }
        int at = (int) (h & mask);
        int size = (int) INT.get(bytes, at);
        if (size == WRAP) {
            h += bytes.length - at;
            at = 0;
            size = (int) INT.get(bytes, 0);
        }
        peeked = h;
        peekedSize = size;
        return at + 4;
    }

    /** Frees the record {@link #peek()} returned. */
    void release() {
        Index.VALUE.setRelease(head, peeked + peekedSize);
    }

    boolean isEmpty() {
        return (long) Index.VALUE.getAcquire(head) >= tail.value;
    }

    /** Bytes in use (records and skipped ends), as seen from any thread. */
    int usedBytes() {
        return (int) (tail.value - (long) Index.VALUE.getAcquire(head));
    }

    /** Padding before an index, so that it does not share a cache line with what precedes it. */
    @SuppressWarnings("unused")
    private static class Before {
        long p1, p2, p3, p4, p5, p6, p7;
    }

    /** An index and its owner's view of the other side's. */
    private static class Fields extends Before {
        volatile long value;
        long other;
    }

    /** Padding after it. */
    @SuppressWarnings("unused")
    private static final class Index extends Fields {
        static final VarHandle VALUE;

        static {
            try {
                VALUE = MethodHandles.lookup().findVarHandle(Fields.class, "value", long.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        long q1, q2, q3, q4, q5, q6, q7;
    }
}
