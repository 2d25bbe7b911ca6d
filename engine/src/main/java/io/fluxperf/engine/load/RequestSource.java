package io.fluxperf.engine.load;

import io.fluxperf.engine.request.Request;
import io.fluxperf.engine.request.RequestPool;
import java.util.concurrent.Executor;
import reactor.core.publisher.Flux;

/**
 * Where requests come from: generated workloads, a replayed command log, a trace. Each thread
 * of a run subscribes to its own flux on its event loop and asks for requests in batches, never
 * more than the thread's {@code pool} has free when it asks, so the flux must take its requests
 * from that pool. It emits them on the thread's event loop: synchronously on request
 * ({@link Flux#generate}), or later from a task it runs on the loop (a replay lane whose reader
 * caught up); a request emitted on another thread fails the phase. Demand adds up, as Reactive
 * Streams has it: a source that cannot give all it was asked for now gives the rest later.
 * Requests with an intended send time must come in intended-time order.
 */
public interface RequestSource {
    /**
     * @param thread     this thread's index, 0-based
     * @param threads    number of threads sharing the load
     * @param pool       the thread's request pool
     * @param startNanos the run's time zero, {@link System#nanoTime()}
     */
    Flux<Request> requests(int thread, int threads, RequestPool pool, long startNanos);

    /**
     * The same, told the thread's event loop: a source whose requests become available on another
     * thread (a replay's reader) wakes the loop with a task, so that it still emits every request
     * on the loop and the loop never waits.
     */
    default Flux<Request> requests(int thread, int threads, RequestPool pool, long startNanos, Executor loop) {
        return requests(thread, threads, pool, startNanos);
    }

    /**
     * Takes back {@code request}, the last one thread {@code thread}'s flux emitted (and not taken
     * back), which was not sent and waits for its intended time, as if it had never been emitted:
     * the next one asked for is made again under what holds now (a rate just changed). The
     * scheduler gives back what it took ahead newest first, one call each, until a call says no.
     * On the thread's event loop.
     *
     * @return whether it was taken back; if so the caller releases the request to its pool unsent,
     *         else it keeps it (a source that cannot, or whose flux has ended)
     */
    default boolean takeBack(Request request, int thread) {
        return false;
    }

    /**
     * How many requests thread {@code thread}'s flux will emit, or -1 when that is not known in
     * advance (a replayed log, a run that ends by time). A connection per request then opens
     * exactly that many connections, and no spare one.
     */
    default long size(int thread, int threads) {
        return -1;
    }

    /**
     * Thread {@code thread} took {@code r} from its flux but drops it unsent: the run stopped while
     * it waited for its time or for a connection with room. It is no request (it has no outcome);
     * a source that counts what it gave out (a replay's "replayed") takes it back. Called on the
     * thread's event loop, before {@code r} goes back to its pool.
     */
    default void unsent(int thread, Request r) {
    }

    /**
     * How many bytes of the heap ({@link Request#retainedBytes()}) thread {@code thread} may give to
     * requests that are due but wait for their own connection ({@link Request#affinity()}) while
     * it sends the others; 0 (the default): none, such a request waits at the head and the thread
     * with it. A replay gives each thread a share of its read-ahead budget, so that one busy client
     * never keeps the others from sending.
     */
    default long backlogBytes(int thread, int threads) {
        return 0;
    }

    /**
     * Thread {@code thread}'s requests waiting for their own connection reached a new peak this
     * phase: {@code bytes} of the heap in {@code requests} requests. On the thread's event loop.
     */
    default void backlogPeak(int thread, long bytes, int requests) {
    }
}
