package io.fluxperf.engine.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.request.Command;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Issue 46: what PUT /ratelimit refuses, in one sentence, and that every change is told at once. */
class RateControlTest {
    private static final RunConfig TWO = RunConfig.builder().duration(Duration.ofSeconds(10))
            .workload(WorkloadConfig.of(Command.GET).withRate(3000))
            .workload(WorkloadConfig.of(Command.SET).withRate(1000)).build();

    @Test
    void aRateOutsideItsBoundsIsRefusedInOneSentence() {
        RateControl rates = new RateControl(TWO);
        assertNull(rates.refusal(0, 0.1, "'0.1'"), "one request per 10 s window");
        assertNull(rates.refusal(-1, 1e9, "'1e9'"));
        assertEquals("The rate must be a number of requests per second above 0, not '0'.", rates.refusal(-1, 0, "'0'"));
        assertEquals("The rate must be at most 1,000,000,000 requests/s (one a nanosecond), not '1e12'.",
                rates.refusal(0, 1e12, "'1e12'"));
        assertEquals("The rate '1e-9' requests/s is less than one request per 10s window; give at least 0.1 requests/s.",
                rates.refusal(1, 1e-9, "'1e-9'"));
        // the total is shared 3:1, so set's share of 0.2 would be 0.05/s
        assertEquals("That total gives workload set 0.05 requests/s, less than one request per 10s window; give a total of"
                + " at least 0.4 requests/s.", rates.refusal(-1, 0.2, "'0.2'"));
        assertNull(rates.refusal(-1, 0.4, "'0.4'"));
    }

    @Test
    void everyChangeIsToldToItsFollowersUntilTheyStop() {
        RateControl rates = new RateControl(TWO);
        AtomicInteger told = new AtomicInteger();
        Runnable stop = rates.follow(told::incrementAndGet);
        rates.set(0, 5000, System.nanoTime(), "test");
        rates.setTotal(8000, System.nanoTime(), "test");
        assertEquals(2, told.get());
        assertEquals(6000, rates.rate(0));
        assertEquals(2000, rates.rate(1));
        stop.run();
        rates.set(1, 100, System.nanoTime(), "test");
        assertEquals(2, told.get(), "not after it stopped");
    }
}
