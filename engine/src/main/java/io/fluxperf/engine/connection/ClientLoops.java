package io.fluxperf.engine.connection;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The load threads' event loops, kept across runs: an in-process warm-up and the run it prepares
 * share them, so that the run's loops are the threads the JIT profiled. On a new thread the first
 * calls take branches (thread-local set-ups, a first buffer) that code compiled on another never
 * saw, and each such branch throws the compiled code away in the first measured second.
 */
public final class ClientLoops implements AutoCloseable {
    private final boolean ioUring;
    private final List<ClientLoop> loops = new ArrayList<>();

    /** @param ioUring loops on io_uring ({@code --io-uring}); check {@link IoUringClientLoop#ensureAvailable()} first */
    public ClientLoops(boolean ioUring) {
        this.ioUring = ioUring;
    }

    public boolean ioUring() {
        return ioUring;
    }

    /** The loop of load thread {@code thread}, started on first use. */
    public synchronized ClientLoop get(int thread) {
        while (loops.size() <= thread) {
            loops.add(ClientLoop.create("fluxperf-load-" + loops.size(), ioUring));
        }
        return loops.get(thread);
    }

    /** Stops every loop; their channels are closed by then. */
    @Override
    public synchronized void close() {
        for (ClientLoop l : loops) {
            l.dispose(Duration.ofSeconds(2));
        }
        loops.clear();
    }
}
