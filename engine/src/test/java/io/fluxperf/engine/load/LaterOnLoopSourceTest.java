package io.fluxperf.engine.load;

import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Request;
import io.fluxperf.engine.request.RequestPool;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Flux;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A source that has nothing when asked and emits later, from a task it runs on the load loop (as
 * a replay lane does when its reader catches up): each such request is sent at once, not when
 * something else happens to wake the scheduler. On an idle connection nothing else would, and
 * the run stalled.
 */
@ExtendWith(RealServers.class)
class LaterOnLoopSourceTest {
    private static final int REQUESTS = 40;

    @Test
    void requestsEmittedLaterOnTheLoopAreSentAtOnce(MemcachedProcess memcached) {
        ScheduledExecutorService producer = Executors.newSingleThreadScheduledExecutor();
        try {
            RunConfig config = RunConfig.builder().threads(1).connections(1).pipeline(1)
                    .requests(REQUESTS).windows(1).timeout(Duration.ofSeconds(1)).tcpNoDelay(true).seed(3)
                    .workload(WorkloadConfig.of(Command.GET)).build();
            RunResult result = assertTimeoutPreemptively(Duration.ofSeconds(20), () ->
                    new LoadRun(config, new RunListener() { }).execute(
                            new InetSocketAddress("127.0.0.1", memcached.port()), memcached.address(),
                            new LaterSource(producer)));
            assertEquals(REQUESTS, result.total().total().outcomes().requests());
        } finally {
            producer.shutdownNow();
        }
    }

    /**
     * A source that keeps every ask, as Reactive Streams lets it, and later emits as many requests
     * as were asked (a replay lane whose reader caught up). The scheduler asks in batches (issue
     * 49), counting what is still owed: it never asks for more than its queue and the pool have
     * room for, so nothing emitted is lost and the pool never runs dry (when an open ask was
     * repeated, a request was once dropped unsent, until the pool ran dry and the replay failed).
     */
    @Test
    void asksAreBatchedAndNeverExceedTheRoom(MemcachedProcess memcached) {
        int requests = 300;
        ScheduledExecutorService producer = Executors.newSingleThreadScheduledExecutor();
        try {
            RunConfig config = RunConfig.builder().threads(1).connections(1).pipeline(1)
                    .requests(requests).windows(1).timeout(Duration.ofSeconds(1)).tcpNoDelay(true).seed(3)
                    .workload(WorkloadConfig.of(Command.GET)).build();
            long before = memcached.stats().get("cmd_get");
            KeepsEveryAsk source = new KeepsEveryAsk(producer, requests);
            RunResult result = assertTimeoutPreemptively(Duration.ofSeconds(20), () ->
                    new LoadRun(config, new RunListener() { }).execute(
                            new InetSocketAddress("127.0.0.1", memcached.port()), memcached.address(),
                            source));
            assertTrue(source.mostAsked.get() <= SendScheduler.AHEAD, "asks open at once: " + source.mostAsked.get());
            assertTrue(source.mostAsked.get() > 1, "a batch asked for at once");
            assertTrue(source.asks.get() < requests / 4, "asks for " + requests + " requests: " + source.asks.get());
            assertEquals(requests, result.total().total().outcomes().requests());
            assertEquals(requests, memcached.stats().get("cmd_get") - before, "GETs the server saw");
        } finally {
            producer.shutdownNow();
        }
    }

    /**
     * A paced source is asked in batches too (issue 49), and not again before the newest request
     * taken is due: every request is sent, in a few asks, whether its requests are 5 ms or 10 µs
     * apart. (A rate change gives back what was asked ahead: GeneratedLoadTakeBackTest and
     * RateChangeTest.)
     */
    @Test
    void aPacedSourceIsAskedInBatches(MemcachedProcess memcached) {
        Paced slow = new Paced(5_000_000L, 40);
        Paced fast = new Paced(10_000L, 2_000);
        for (Paced source : new Paced[] {slow, fast}) {
            RunConfig config = RunConfig.builder().threads(1).connections(4).pipeline(1)
                    .requests(source.total).windows(1).timeout(Duration.ofSeconds(1)).tcpNoDelay(true).seed(3)
                    .workload(WorkloadConfig.of(Command.GET)).build();
            RunResult result = assertTimeoutPreemptively(Duration.ofSeconds(20), () ->
                    new LoadRun(config, new RunListener() { }).execute(
                            new InetSocketAddress("127.0.0.1", memcached.port()), memcached.address(), source));
            assertEquals(source.total, result.total().total().outcomes().requests());
            assertTrue(source.mostAsked.get() > 1 && source.mostAsked.get() <= SendScheduler.AHEAD,
                    "asked at once of a paced source: " + source.mostAsked.get());
            assertTrue(source.asks.get() <= source.total / 4, source.asks.get() + " asks for " + source.total + " requests");
        }
    }

    /** Requests {@code gapNanos} apart from the start, emitted synchronously on request. */
    private static final class Paced implements RequestSource {
        private final long gapNanos;
        final int total;
        final AtomicInteger mostAsked = new AtomicInteger();
        final AtomicInteger asks = new AtomicInteger();

        Paced(long gapNanos, int total) {
            this.gapNanos = gapNanos;
            this.total = total;
        }

        @Override
        public Flux<Request> requests(int thread, int threads, RequestPool pool, long startNanos) {
            return Flux.<Request, long[]>generate(() -> new long[1], (n, sink) -> {
                long i = n[0]++;
                sink.next(pool.acquire().command(Command.GET, 0).addKey(i, 10).intendedNanos(startNanos + i * gapNanos));
                if (i + 1 == total) {
                    sink.complete();
                }
                return n;
            }).doOnRequest(k -> {
                asks.incrementAndGet();
                mostAsked.accumulateAndGet((int) Math.min(Integer.MAX_VALUE, k), Math::max);
            });
        }
    }

    /** Adds up what it is asked; every 200 µs, on the loop, emits all of it. */
    private static final class KeepsEveryAsk implements RequestSource {
        private final ScheduledExecutorService producer;
        private final int total;
        final AtomicInteger mostAsked = new AtomicInteger();
        final AtomicInteger asks = new AtomicInteger();

        KeepsEveryAsk(ScheduledExecutorService producer, int total) {
            this.producer = producer;
            this.total = total;
        }

        @Override
        public Flux<Request> requests(int thread, int threads, RequestPool pool, long startNanos) {
            throw new AssertionError("the scheduler tells a source its loop");
        }

        @Override
        public Flux<Request> requests(int thread, int threads, RequestPool pool, long startNanos, Executor loop) {
            return new Flux<>() {
                @Override
                public void subscribe(CoreSubscriber<? super Request> actual) {
                    long[] asked = {0};
                    int[] emitted = {0};
                    actual.onSubscribe(new Subscription() {
                        @Override
                        public void request(long n) {
                            asked[0] += n; // always on the loop: the scheduler asks there
                            asks.incrementAndGet();
                            mostAsked.accumulateAndGet((int) asked[0], Math::max);
                        }

                        @Override
                        public void cancel() {
                        }
                    });
                    producer.scheduleAtFixedRate(() -> loop.execute(() -> {
                        while (asked[0] > 0 && emitted[0] < total) {
                            asked[0]--;
                            Request r = pool.acquire();
                            if (r == null) {
                                emitted[0] = total;
                                actual.onError(new IllegalStateException("the request pool ran dry"));
                                return;
                            }
                            actual.onNext(r.command(Command.GET, 0).addKey(++emitted[0], 10));
                            if (emitted[0] == total) {
                                actual.onComplete();
                            }
                        }
                    }), 1, 200, TimeUnit.MICROSECONDS);
                }
            };
        }
    }

    /**
     * Answers every ask empty-handed, then emits what was asked one request at a time, each 2 ms
     * after the one before, from a task on the loop (asks add up, as Reactive Streams has them).
     */
    private static final class LaterSource implements RequestSource {
        private final ScheduledExecutorService producer;

        LaterSource(ScheduledExecutorService producer) {
            this.producer = producer;
        }

        @Override
        public Flux<Request> requests(int thread, int threads, RequestPool pool, long startNanos) {
            throw new AssertionError("the scheduler tells a source its loop");
        }

        @Override
        public Flux<Request> requests(int thread, int threads, RequestPool pool, long startNanos, Executor loop) {
            return new Flux<>() {
                @Override
                public void subscribe(CoreSubscriber<? super Request> actual) {
                    AtomicInteger emitted = new AtomicInteger();
                    actual.onSubscribe(new Subscription() {
                        private long asked; // on the loop only
                        private boolean waiting;

                        @Override
                        public void request(long n) {
                            asked += n;
                            later();
                        }

                        private void later() {
                            if (waiting || asked == 0 || emitted.get() == REQUESTS) {
                                return;
                            }
                            waiting = true;
                            producer.schedule(() -> loop.execute(() -> {
                                waiting = false;
                                asked--;
                                int i = emitted.incrementAndGet(); // before onNext, which may ask again
                                actual.onNext(pool.acquire().command(Command.GET, 0).addKey(i, 10));
                                if (i == REQUESTS) {
                                    actual.onComplete();
                                } else {
                                    later();
                                }
                            }), 2, TimeUnit.MILLISECONDS);
                        }

                        @Override
                        public void cancel() {
                        }
                    });
                }
            };
        }
    }
}
