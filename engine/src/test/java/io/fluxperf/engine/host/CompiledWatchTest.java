package io.fluxperf.engine.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The watch that ends a main round of the in-process warm-up (HostTuning.endWhenCompiled) keeps
 * to its bounds whatever the JIT does: never before the round's least length (the second round
 * must profile again what the first one's end threw away), by its most, once, and never after it
 * was closed.
 */
class CompiledWatchTest {
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private final HostTuning policy = HostTuning.ownProcess(true, false);

    @Test
    @Tag("timing")
    void aRoundEndsOnceNoSoonerThanASecondAndByItsMost() throws Exception {
        AtomicInteger ends = new AtomicInteger();
        CountDownLatch ended = new CountDownLatch(1);
        long start = System.nanoTime();
        try (HostTuning.Watch watch = policy.endWhenCompiled(1_500 * MS, () -> {
            ends.incrementAndGet();
            ended.countDown();
        })) {
            assertTrue(ended.await(10, TimeUnit.SECONDS), "the round was ended");
        }
        long took = System.nanoTime() - start;
        assertTrue(took >= 1_000 * MS, "not before its least length: " + took / MS + " ms");
        assertTrue(took < 3_500 * MS, "about at its most (1.5 s) at the latest: " + took / MS + " ms");
        assertEquals(1, ends.get());
    }

    @Test
    void aClosedWatchEndsNothing() throws Exception {
        AtomicInteger ends = new AtomicInteger();
        HostTuning.Watch watch = policy.endWhenCompiled(50 * MS, ends::incrementAndGet);
        watch.close(); // the round ended on its own first
        Thread.sleep(300); // deliberate: what is checked is that nothing happens in the time the watch had
        assertEquals(0, ends.get());
    }
}
