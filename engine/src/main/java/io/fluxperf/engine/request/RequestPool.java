package io.fluxperf.engine.request;

/**
 * A fixed-capacity stack of reusable {@link Request}s owned by one event-loop thread
 * (single-threaded: no synchronization). Its capacity bounds the requests in flight.
 */
public final class RequestPool {
    private final Request[] free;
    private int size;

    public RequestPool(int capacity) {
        free = new Request[capacity];
        for (int i = 0; i < capacity; i++) {
            free[i] = new Request();
        }
        size = capacity;
    }

    /** A cleared request, or null when all are in use. */
    public Request acquire() {
        if (size == 0) {
            return null;
        }
        Request r = free[--size];
        free[size] = null;
        return r.reset();
    }

    public void release(Request request) {
        if (size == free.length) {
            throw new IllegalStateException("request released twice or not from this pool");
        }
        free[size++] = request;
    }

    public int available() {
        return size;
    }

    public int capacity() {
        return free.length;
    }
}
