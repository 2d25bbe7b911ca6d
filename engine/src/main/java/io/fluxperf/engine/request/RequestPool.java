package io.fluxperf.engine.request;

/**
 * A stack of reusable {@link Request}s, one per load thread. Its capacity bounds the requests a
 * thread holds: in flight, and waiting for their own connection ({@code ConnectionBacklogs}).
 * Those it is made with are made at once; a capacity raised later ({@link #ensureCapacity}: a
 * replay whose clients' requests wait for their connections) is made as it is first needed, so a
 * replay that needs few never makes the rest. Requests are released on the event loop; a source
 * may acquire on another thread, so the two operations are synchronized — uncontended in the
 * usual case, where both run on the event loop.
 */
public final class RequestPool {
    private Request[] free;
    private int size;
    private int made;
    private int capacity;

    public RequestPool(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("a request pool holds at least one request: " + capacity);
        }
        this.capacity = capacity;
        free = new Request[capacity];
        for (int i = 0; i < capacity; i++) {
            free[i] = new Request();
        }
        size = capacity;
        made = capacity;
    }

    /** A cleared request, or null when all {@link #capacity()} are in use. */
    public synchronized Request acquire() {
        if (size > 0) {
            Request r = free[--size];
            free[size] = null;
            return r.reset();
        }
        if (made < capacity) {
            made++; // the first time this many are in use at once: after that, they are reused
            return new Request();
        }
        return null;
    }

    public synchronized void release(Request request) {
        if (size == made) {
            throw new IllegalStateException("request released twice or not from this pool");
        }
        if (size == free.length) {
            free = java.util.Arrays.copyOf(free, Math.min(capacity, Math.max(size + 1, free.length * 2)));
        }
        free[size++] = request;
    }

    /** Requests that can be acquired now: free ones and ones not made yet. */
    public synchronized int available() {
        return size + capacity - made;
    }

    public synchronized int capacity() {
        return capacity;
    }

    /** Requests made so far: the most that were in use at once. */
    public synchronized int made() {
        return made;
    }

    /** Raises the capacity to at least {@code n}; never lowers it. The new requests are made when first needed. */
    public synchronized void ensureCapacity(int n) {
        capacity = Math.max(capacity, n);
    }
}
