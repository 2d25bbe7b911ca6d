package io.fluxperf.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The reader-to-loop ring: its bound, its order, and a million hand-overs between two threads. */
class SpscRingTest {
    @Test
    void holdsExactlyItsCapacityInOrder() {
        SpscRing<Integer> ring = new SpscRing<>(5); // not a power of two: the bound is still 5
        for (int i = 0; i < 5; i++) {
            assertTrue(ring.offer(i));
        }
        assertFalse(ring.offer(5), "full at its capacity");
        assertEquals(5, ring.size());
        assertEquals(0, ring.poll());
        assertTrue(ring.offer(5), "a poll makes room for one");
        for (int i = 1; i <= 5; i++) {
            assertEquals(i, ring.poll());
        }
        assertNull(ring.poll());
        assertTrue(ring.isEmpty());
    }

    @Test
    void aProducerAndAConsumerThreadHandOverEveryElementOnceInOrder() throws Exception {
        SpscRing<Long> ring = new SpscRing<>(64);
        long n = 1_000_000;
        Long[] boxes = new Long[1024]; // boxed once: the ring, not the test, is under watch
        for (int i = 0; i < boxes.length; i++) {
            boxes[i] = (long) i;
        }
        AtomicReference<String> wrong = new AtomicReference<>();
        Thread consumer = new Thread(() -> {
            long expected = 0;
            while (expected < n) {
                Long v = ring.poll();
                if (v == null) {
                    Thread.onSpinWait();
                    continue;
                }
                if (v != expected % boxes.length) {
                    wrong.set("element " + expected + " was " + v);
                    return;
                }
                expected++;
            }
        });
        consumer.start();
        produce:
        for (long i = 0; i < n; i++) {
            while (!ring.offer(boxes[(int) (i % boxes.length)])) {
                if (!consumer.isAlive()) {
                    break produce; // it stopped at a wrong element
                }
                Thread.onSpinWait();
            }
        }
        consumer.join(60_000);
        assertFalse(consumer.isAlive(), "the consumer took all " + n);
        assertNull(wrong.get());
        assertTrue(ring.isEmpty());
    }
}
