package io.fluxperf.replay;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A bounded single-producer single-consumer ring of references, allocation-free.
 *
 * <h2>Assumptions and guarantees</h2>
 * One thread offers at a time and one thread polls at a time (each role may move between threads
 * when the hand-over itself is ordered, e.g. by an atomic work-in-progress counter). The producer's
 * index is published with a volatile write, so a producer that offers and then reads a volatile
 * demand counter cannot miss a consumer that raised the demand and then found the ring empty
 * (both sides see each other's write: volatile accesses are sequentially consistent).
 */
final class SpscRing<T> {
    private final AtomicReferenceArray<T> slots;
    private final int mask;
    private final int capacity;
    /** Next slot to write; written by the producer only. */
    private final AtomicLong tail = new AtomicLong();
    /** Next slot to read; written by the consumer only. */
    private final AtomicLong head = new AtomicLong();

    SpscRing(int capacity) {
        int size = Integer.highestOneBit(Math.max(2, capacity - 1)) << 1;
        this.slots = new AtomicReferenceArray<>(size);
        this.mask = size - 1;
        this.capacity = capacity;
    }

    /** False when full. */
    boolean offer(T value) {
        long t = tail.get();
        if (t - head.get() >= capacity) {
            return false;
        }
        slots.lazySet((int) (t & mask), value);
        tail.set(t + 1);
        return true;
    }

    /** The oldest element, or null when empty. */
    T poll() {
        long h = head.get();
        if (h >= tail.get()) {
            return null;
        }
        int i = (int) (h & mask);
        T value = slots.get(i);
        slots.lazySet(i, null);
        head.set(h + 1);
        return value;
    }

    int size() {
        return (int) (tail.get() - head.get());
    }

    boolean isEmpty() {
        return head.get() >= tail.get();
    }

    int capacity() {
        return capacity;
    }
}
