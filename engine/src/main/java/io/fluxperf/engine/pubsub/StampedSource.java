package io.fluxperf.engine.pubsub;

import io.fluxperf.engine.load.RequestSource;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Request;
import io.fluxperf.engine.request.RequestPool;
import java.util.concurrent.Executor;
import reactor.core.publisher.Flux;

/**
 * A source whose publishes of one workload carry a message id of the run's {@link MessageLedger},
 * and tell it when they end ok; every other request passes as it came. Each thread's flux stamps
 * with that thread's part of the ledger, on its loop; nothing is allocated per request.
 */
final class StampedSource implements RequestSource {
    private final RequestSource inner;
    private final MessageLedger ledger;
    private final int workload;

    StampedSource(RequestSource inner, MessageLedger ledger, int workload) {
        this.inner = inner;
        this.ledger = ledger;
        this.workload = workload;
    }

    @Override
    public Flux<Request> requests(int thread, int threads, RequestPool pool, long startNanos) {
        return stamped(inner.requests(thread, threads, pool, startNanos), thread);
    }

    @Override
    public Flux<Request> requests(int thread, int threads, RequestPool pool, long startNanos, Executor loop) {
        return stamped(inner.requests(thread, threads, pool, startNanos, loop), thread);
    }

    private Flux<Request> stamped(Flux<Request> requests, int thread) {
        MessageLedger.Thread part = ledger.thread(thread);
        return requests.map(r -> {
            if (r.command() == Command.PUBLISH && r.workload() == workload) {
                r.message(part.nextId(), part);
            }
            return r;
        });
    }

    @Override
    public long size(int thread, int threads) {
        return inner.size(thread, threads);
    }
}
