package io.fluxperf.bench;

import io.fluxperf.engine.request.Request;
import org.reactivestreams.Subscription;
import reactor.core.publisher.BaseSubscriber;

/**
 * Pulls a request source one request at a time, as the engine's driver does (its
 * {@code SourceSubscriber}: nothing requested on subscribe, then {@code request(1)} each time a
 * connection has room). The source emits synchronously on the caller's thread.
 */
final class RequestPuller extends BaseSubscriber<Request> {
    private Request next;

    @Override
    protected void hookOnSubscribe(Subscription subscription) {
        // nothing until asked
    }

    /** The next request, or null when the source completed or failed. */
    Request pull() {
        request(1);
        Request r = next;
        next = null;
        return r;
    }

    @Override
    protected void hookOnNext(Request r) {
        next = r;
    }

    @Override
    protected void hookOnError(Throwable error) {
        throw new IllegalStateException("the request source failed", error);
    }
}
