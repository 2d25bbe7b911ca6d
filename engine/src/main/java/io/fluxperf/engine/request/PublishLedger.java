package io.fluxperf.engine.request;

/**
 * Where a publish that subscribers measure is told that it ended ok (the server took its message,
 * which every subscriber is then to receive once): the run's account of messages, against which
 * each subscriber's deliveries are reconciled. Called on the publishing thread's event loop, once
 * per publish that ended ok; allocation-free.
 */
public interface PublishLedger {
    /**
     * {@code r} (its message id in {@link Request#numeric()}) ended ok.
     *
     * @param measured it counts in a measured window (not the warm-up)
     */
    void accepted(Request r, boolean measured);
}
