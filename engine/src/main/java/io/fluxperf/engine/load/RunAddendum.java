package io.fluxperf.engine.load;

import io.fluxperf.engine.metrics.WindowResult;

/**
 * Figures a run keeps apart from its load threads' and cuts into windows by time: what a cluster
 * run saw of its cluster's layout ({@code engine.pool}), what subscribers received of the messages
 * published ({@code engine.pubsub}). {@link LoadRun} tells it when the measured windows begin and
 * when the load has ended, and hands it each window as it ends and the whole run, for it to add
 * its own figures to. Called on the run's thread; what it records comes from other threads, so it
 * keeps its own figures safe to read.
 */
public interface RunAddendum {
    /**
     * The requests of {@code source} pass through here before they go out (a publish gets its
     * message's id); the source itself unless an addendum says otherwise.
     */
    default RequestSource source(RequestSource source) {
        return source;
    }

    /** The measured windows begin at {@code startNanos} (System.nanoTime); what came before was the warm-up. */
    default void measuring(long startNanos) {
    }

    /**
     * Every request has ended: wait, until {@code deadlineNanos} at most, for what they still
     * cause (messages on their way to subscribers), so that the last window holds it.
     */
    default void loadEnded(long deadlineNanos) {
    }

    /** {@code w}, which has just ended, with this addendum's figures for its time. */
    WindowResult window(WindowResult w);

    /** The whole run ({@code total}) with this addendum's figures for it. */
    WindowResult run(WindowResult total);
}
