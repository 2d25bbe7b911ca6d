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

    /**
     * Issue 49: the scheduler asks a paced source for a batch. A batch timed by a low rate goes back
     * whole when the rate rises, newest first (only in that order), and the batch asked again is
     * timed by the high rate. Before, only the latest could go back, so a paced source was asked
     * for one request at a time.
     */
    @ParameterizedTest
    @EnumSource(Arrivals.class)
    void aBatchTimedByALowRateGoesBackWhole(Arrivals arrivals) {
        RunConfig config = config(arrivals, 5000, 0);
        RateControl rates = new RateControl(config);
        GeneratedLoad load = new GeneratedLoad(config).rateControl(rates);
        RequestPool pool = new RequestPool(40);
        OneAtATime sub = new OneAtATime();
        load.requests(0, 1, pool, 0).subscribe(sub);
        for (int i = 0; i < 120; i++) { // near a block's end of random gaps
            pool.release(sub.next());
        }
        rates.set(0, 0.5, 1_000_000_000L, "test"); // at 1 s: one request every 2 s on average
        sub.request(32);
        assertEquals(32, sub.got.size());
        Request due = sub.got.pollFirst(); // the first, due at the change: it stays
        assertEquals(1_000_000_000L, due.intendedNanos(), arrivals + ": the low rate's first request at the change");
        assertFalse(load.takeBack(sub.got.peekFirst(), 0), "not the newest: not taken back");

        rates.set(0, 5000, 1_300_000_000L, "test"); // at 1.3 s, while 31 wait, the last about a minute away
        while (!sub.got.isEmpty()) {
            Request r = sub.got.pollLast();
            assertTrue(load.takeBack(r, 0), "taken back, newest first: " + r.intendedNanos());
            pool.release(r);
        }
        sub.request(32);
        long previous = 1_300_000_000L;
        for (Request r : sub.got) {
            assertTrue(r.intendedNanos() >= previous && r.intendedNanos() < 1_300_000_000L + 32 * 1_000_000L,
                    arrivals + ": timed by the high rate from the change: " + r.intendedNanos());
            previous = r.intendedNanos();
        }
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
