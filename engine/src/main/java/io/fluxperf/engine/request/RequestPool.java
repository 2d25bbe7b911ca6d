package io.fluxperf.engine.request;

/**
 * A fixed-capacity stack of reusable {@link Request}s, one per load thread. Its capacity bounds
 * the requests in flight. Requests are released on the event loop; a source may acquire on
 * another thread (a replay reader thread), so the two operations are synchronized — uncontended
 * in the usual case, where both run on the event loop.
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
    public synchronized Request acquire() {
        if (size == 0) {
            return null;
        }
        Request r = free[--size];
        free[size] = null;
        return r.reset();
    }

    public synchronized void release(Request request) {
        if (size == free.length) {
            throw new IllegalStateException("request released twice or not from this pool");
        }
        free[size++] = request;
    }

    public synchronized int available() {
        return size;
    }

    public int capacity() {
        return free.length;
    }
}
