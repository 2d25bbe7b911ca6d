package io.fluxperf.engine.connection;

import io.fluxperf.engine.request.Request;

/** The requests sent on one connection and not yet answered, oldest first: a fixed ring. */
final class InFlight {
    private final Request[] ring;
    private int head;
    private int size;

    InFlight(int capacity) {
        ring = new Request[capacity];
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
            throw new IllegalStateException("more requests in flight than the pipeline depth");
        }
        ring[(head + size) % ring.length] = r;
        size++;
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
