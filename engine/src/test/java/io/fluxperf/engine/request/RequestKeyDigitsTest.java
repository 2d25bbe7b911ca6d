package io.fluxperf.engine.request;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** A generated key is its index in decimal, zero-padded to the key length: the same text as String.format. */
class RequestKeyDigitsTest {

    private static String key(long index, int length) {
        Request r = new Request().command(Command.GET, 0).addKey(index, length);
        return new String(r.keyBytes(), r.keyOffset(0), r.keyLength(0), StandardCharsets.US_ASCII);
    }

    private static List<Long> values() {
        List<Long> v = new ArrayList<>(List.of(0L, 1L, 9L, 10L, 11L, 99L, 100L, 101L, 999L, 1000L,
                (long) Integer.MAX_VALUE - 1, (long) Integer.MAX_VALUE, (long) Integer.MAX_VALUE + 1,
                Long.MAX_VALUE - 1, Long.MAX_VALUE));
        for (long p = 10; p > 0 && p <= Long.MAX_VALUE / 10; p *= 10) {
            v.add(p - 1);
            v.add(p);
            v.add(p + 1);
        }
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 2000; i++) {
            v.add(random.nextLong(Long.MAX_VALUE) >>> random.nextInt(63));
        }
        return v;
    }

    @Test
    void everyIndexReadsAsItsDecimalPaddedToTheLength() {
        for (long index : values()) {
            for (int length : new int[] {1, 4, 16, 24}) {
                assertEquals(String.format("%0" + length + "d", index), key(index, length), "index " + index);
            }
        }
    }

    @Test
    void digitCountMatchesTheDecimalText() {
        for (long index : values()) {
            assertEquals(Long.toString(index).length(), Request.digits(index), "index " + index);
        }
    }

    @Test
    void severalKeysOfOneRequestFollowEachOther() {
        Request r = new Request().command(Command.GET, 0).addKey(42, 4).addKey(123456789012L, 4).addKey(7, 1);
        assertEquals(3, r.keyCount());
        String all = new String(r.keyBytes(), 0, r.keyOffset(2) + r.keyLength(2), StandardCharsets.US_ASCII);
        assertEquals("00421234567890127", all);
    }
}
