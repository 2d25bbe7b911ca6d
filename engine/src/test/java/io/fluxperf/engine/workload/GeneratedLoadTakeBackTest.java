package io.fluxperf.engine.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.engine.config.Arrivals;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Request;
import io.fluxperf.engine.request.RequestPool;
import java.util.ArrayDeque;
import java.util.Deque;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.reactivestreams.Subscription;
import reactor.core.publisher.BaseSubscriber;

/**
 * Issue 46: a request taken at a low rate and waiting for its time is taken back when the rate
 * changes, and the one made in its place is timed by the new rate (the scheduler's side is
 * RateChangeTest's). Without it, PUT /ratelimit/0.5 and then 5000 kept the next request 2 s away.
 */
class GeneratedLoadTakeBackTest {
    /** Asks a thread's flux for one request at a time, as the scheduler does. */
    private static final class OneAtATime extends BaseSubscriber<Request> {
        final Deque<Request> got = new ArrayDeque<>();
        boolean done;

        @Override
        protected void hookOnSubscribe(Subscription s) {
            // nothing until asked
        }

        @Override
        protected void hookOnNext(Request r) {
            got.add(r);
        }

        @Override
        protected void hookOnComplete() {
            done = true;
        }

        Request next() {
            request(1);
            return got.pollLast();
        }
    }

    private static RunConfig config(Arrivals arrivals, double rate, long requests) {
        return RunConfig.builder().threads(1).arrivals(arrivals).requests(requests)
                .workload(WorkloadConfig.of(Command.GET).withRate(rate)).build();
    }

    @ParameterizedTest
    @EnumSource(Arrivals.class)
    void aRequestTakenBackIsMadeAgainAtTheSameTime(Arrivals arrivals) {
        GeneratedLoad load = new GeneratedLoad(config(arrivals, 5000, 0));
        RequestPool pool = new RequestPool(2);
        OneAtATime sub = new OneAtATime();
        load.requests(0, 1, pool, 0).subscribe(sub);
        for (int i = 0; i < 300; i++) { // past a block of random gaps
            pool.release(sub.next());
        }
        Request r = sub.next();
        long at = r.intendedNanos();
        assertTrue(load.takeBack(r, 0));
        pool.release(r);
        Request again = sub.next();
        assertEquals(at, again.intendedNanos(), "the same time again");
        pool.release(again);
        long after = sub.next().intendedNanos();
        assertTrue(after > at, "and the schedule goes on from there: " + at + ", " + after);
    }

    @Test
    void aRateSetLowThenHighTimesTheWaitingRequestByTheHighOne() {
        RunConfig config = config(Arrivals.SMOOTH, 5000, 0);
        RateControl rates = new RateControl(config);
        GeneratedLoad load = new GeneratedLoad(config).rateControl(rates);
        RequestPool pool = new RequestPool(2);
        OneAtATime sub = new OneAtATime();
        load.requests(0, 1, pool, 0).subscribe(sub);
        pool.release(sub.next());
        rates.set(0, 0.5, 1_000_000_000L, "test"); // at 1 s: one request every 2 s
        Request first = sub.next();
        assertEquals(1_000_000_000L, first.intendedNanos(), "the low rate's first request at the change");
        pool.release(first);
        Request waiting = sub.next();
        assertEquals(3_000_000_000L, waiting.intendedNanos(), "the next one 2 s later, and it waits");

        rates.set(0, 5000, 1_300_000_000L, "test"); // at 1.3 s, while it waits
        assertTrue(load.takeBack(waiting, 0), "taken back");
        pool.release(waiting);
        Request now = sub.next();
        assertEquals(1_300_000_000L, now.intendedNanos(), "made again at the high rate's first slot, the change");
        pool.release(now);
        assertEquals(1_300_200_000L, sub.next().intendedNanos(), "then every 0.2 ms");
    }

    @Test
    void theLastRequestOfALimitedRunIsNotTakenBack() {
        GeneratedLoad load = new GeneratedLoad(config(Arrivals.SMOOTH, 5000, 3));
        RequestPool pool = new RequestPool(2);
        OneAtATime sub = new OneAtATime();
        load.requests(0, 1, pool, 0).subscribe(sub);
        pool.release(sub.next());
        pool.release(sub.next());
        Request last = sub.next();
        assertTrue(sub.done, "the flux ended with its last request");
        assertFalse(load.takeBack(last, 0), "an ended flux makes no other: the last keeps its time");
    }
}
