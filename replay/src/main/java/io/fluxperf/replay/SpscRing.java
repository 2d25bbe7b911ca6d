package io.fluxperf.replay;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A bounded single-producer single-consumer ring of references, allocation-free.
 *
 * <h2>Assumptions and guarantees</h2>
 * One thread offers at a time and one thread polls at a time (each role may move between threads
 * when the hand-over itself is ordered, e.g. by an atomic work-in-progress counter). The producer's
 * index is published with a volatile write, so a producer that offers and then reads a volatile
 * demand counter cannot miss a consumer that raised the demand and then found the ring empty
 * (both sides see each other's write: volatile accesses are sequentially consistent). The
 * consumer's index needs only release order (the producer reuses a slot only after seeing it).
 *
 * <p>Each side keeps its own index and its last view of the other's on a cache line of their own,
 * and reads the other side's index only when that view says full (or empty): otherwise every
 * offer and every poll would pull the other thread's cache line across.
 */
final class SpscRing<T> {
    private final AtomicReferenceArray<T> slots;
    private final int mask;
    private final int capacity;
    /** Next slot to write, and the producer's view of {@link #head}; written by the producer only. */
    private final Index tail = new Index();
    /** Next slot to read, and the consumer's view of {@link #tail}; written by the consumer only. */
    private final Index head = new Index();

    SpscRing(int capacity) {
        int size = Integer.highestOneBit(Math.max(2, capacity - 1)) << 1;
        this.slots = new AtomicReferenceArray<>(size);
        this.mask = size - 1;
        this.capacity = capacity;
    }

    /** False when full. */
    boolean offer(T value) {
        long t = tail.value;
        if (t - tail.other >= capacity) {
            tail.other = head.value;
            if (t - tail.other >= capacity) {
                return false;
            }
        }
        slots.lazySet((int) (t & mask), value);
        tail.value = t + 1;
        return true;
    }

    /** The oldest element, or null when empty. */
    T poll() {
        long h = head.value;
        if (h >= head.other) {
            head.other = tail.value;
            if (h >= head.other) {
                return null;
            }
        }
        int i = (int) (h & mask);
        T value = slots.get(i);
        slots.lazySet(i, null);
        Index.VALUE.setRelease(head, h + 1);
        return value;
    }

    int size() {
        return (int) (tail.value - head.value);
    }

    boolean isEmpty() {
        return head.value >= tail.value;
    }

    int capacity() {
        return capacity;
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
