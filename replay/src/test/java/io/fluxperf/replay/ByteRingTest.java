package io.fluxperf.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The lanes' ring of records: its bound, its wrap, its order, and a million records between two threads. */
class ByteRingTest {
    /** Writes record {@code n}: its number, then {@code n % 50} bytes of (n + i). */
    private static int write(ByteRing ring, long n) {
        int length = (int) (n % 50);
        int at = ring.claim(ByteRing.recordSize(8 + length));
        if (at < 0) {
            return -1;
        }
        ByteRing.LONG.set(ring.bytes(), at, n);
        for (int i = 0; i < length; i++) {
            ring.bytes()[at + 8 + i] = (byte) (n + i);
        }
        ring.publish();
        return length;
    }

    /** Reads the oldest record; null when there is none; a message when it is not record {@code n}. */
    private static String read(ByteRing ring, long n, boolean[] got) {
        int at = ring.peek();
        if (at < 0) {
            got[0] = false;
            return null;
        }
        got[0] = true;
        long number = (long) ByteRing.LONG.get(ring.bytes(), at);
        if (number != n) {
            return "record " + n + " came as " + number;
        }
        for (int i = 0; i < n % 50; i++) {
            if (ring.bytes()[at + 8 + i] != (byte) (n + i)) {
                return "record " + n + " byte " + i;
            }
        }
        ring.release();
        return null;
    }

    @Test
    void recordsComeOutInOrderAcrossTheWrapAndTheRingFillsToItsBytes() {
        ByteRing ring = new ByteRing(256);
        boolean[] got = new boolean[1];
        long written = 0;
        long read = 0;
        SplittableRandom random = new SplittableRandom(5);
        for (int round = 0; round < 10_000; round++) {
            int burst = random.nextInt(1, 12);
            for (int k = 0; k < burst && write(ring, written) >= 0; k++) {
                written++;
            }
            assertTrue(ring.usedBytes() <= 256, "never more than its bytes in use");
            int take = random.nextInt(1, 12);
            for (int k = 0; k < take; k++) {
                assertNull(read(ring, read, got));
                if (!got[0]) {
                    break;
                }
                read++;
            }
        }
        while (true) {
            assertNull(read(ring, read, got));
            if (!got[0]) {
                break;
            }
            read++;
        }
        assertEquals(written, read);
        assertTrue(written > 20_000, "wrapped many times: " + written);
        assertTrue(ring.isEmpty());
    }

    @Test
    void aFullRingRefusesUntilTheConsumerFreesRoom() {
        ByteRing ring = new ByteRing(64);
        int big = ByteRing.maxRecord(64); // 32 bytes: two fit
        assertTrue(ring.claim(big) >= 0);
        ring.publish();
        assertTrue(ring.claim(big) >= 0);
        ring.publish();
        assertEquals(-1, ring.claim(8), "full");
        assertTrue(ring.peek() >= 0);
        ring.release();
        assertTrue(ring.claim(big) >= 0, "room again after a release");
        assertThrows(IllegalArgumentException.class, () -> new ByteRing(100));
    }

    @Test
    void aProducerAndAConsumerThreadHandOverEveryRecordOnceInOrder() throws Exception {
        ByteRing ring = new ByteRing(4096);
        long n = 1_000_000;
        AtomicReference<String> wrong = new AtomicReference<>();
        Thread consumer = new Thread(() -> {
            boolean[] got = new boolean[1];
            long expected = 0;
            while (expected < n) {
                String problem = read(ring, expected, got);
                if (problem != null) {
                    wrong.set(problem);
                    return;
                }
                if (got[0]) {
                    expected++;
                } else {
                    Thread.onSpinWait();
                }
            }
        });
        consumer.start();
        for (long i = 0; i < n; i++) {
            while (write(ring, i) < 0) {
                Thread.onSpinWait();
            }
        }
        consumer.join(60_000);
        assertNull(wrong.get());
        assertTrue(ring.isEmpty());
    }
}
