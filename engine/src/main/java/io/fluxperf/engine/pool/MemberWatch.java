package io.fluxperf.engine.pool;

/**
 * Told by a load thread's {@link ServerQueues} when the thread loses its last open connection to a
 * member (or its first connect to it fails), and when it has one again: a cluster learns so that a
 * master was lost ({@link ClusterRouting}). Called on the thread's event loop, rarely (a
 * connection's loss, not a request): an implementation may lock, but must not block for long.
 */
public interface MemberWatch {
    /** The thread has no open connection to {@code member} since {@code nanos} (System.nanoTime). */
    void down(int member, long nanos);

    /** The thread has an open connection to {@code member} again, since {@code nanos}. */
    void up(int member, long nanos);
}
