package io.fluxperf.engine.pool;

import io.fluxperf.engine.request.Request;

/** A fixed-capacity FIFO of requests: a ring that never grows, so queuing allocates nothing. */
final class RequestRing {
    private Request[] ring;
    private int head;
    private int size;

    RequestRing(int capacity) {
        ring = new Request[Math.max(1, capacity)];
    }

    boolean isFull() {
        return size == ring.length;
    }

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    void add(Request r) {
        if (size == ring.length) {
            throw new IllegalStateException("request ring full");
        }
        ring[(head + size) % ring.length] = r;
        size++;
    }

    /** Adds, doubling the ring when it is full (for a queue bounded elsewhere: rare, and allocates only then). */
    void addGrowing(Request r) {
        if (size == ring.length) {
            Request[] bigger = new Request[ring.length * 2];
            for (int i = 0; i < size; i++) {
                bigger[i] = ring[(head + i) % ring.length];
            }
            ring = bigger;
            head = 0;
        }
        add(r);
    }

    Request peek() {
        return size == 0 ? null : ring[head];
    }

    Request poll() {
        if (size == 0) {
            return null;
        }
        Request r = ring[head];
        ring[head] = null;
        head = (head + 1) % ring.length;
        size--;
        return r;
    }
}
