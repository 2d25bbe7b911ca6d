package io.fluxperf.replay.profile;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Distinct keys counted exactly across chunk boundaries, table growth and keys larger than a chunk. */
class KeyCountsTest {
    @Test
    void everyKeyCountedExactly() {
        KeyCounts keys = new KeyCounts();
        int n = 200_000;
        byte[] buf = new byte[64];
        int[] ids = new int[n];
        for (int round = 0; round < 3; round++) {
            for (int i = round; i < n; i++) { // key i is added min(i, 2) + 1 times
                byte[] k = ("key:" + i + ":" + "x".repeat(i % 37)).getBytes(StandardCharsets.US_ASCII);
                System.arraycopy(k, 0, buf, 7, k.length); // keys are read from inside a larger buffer
                int id = keys.add(buf, 7, k.length);
                if (round == 0) {
                    ids[i] = id;
                } else {
                    assertEquals(ids[i], id, "key " + i);
                }
                keys.lastSize(id, i + round);
            }
        }
        assertEquals(n, keys.size());
        for (int i = 0; i < n; i++) {
            assertEquals(Math.min(i, 2) + 1, keys.count(ids[i]), "key " + i);
            assertEquals(("key:" + i + ":").length() + i % 37, keys.length(ids[i]));
            assertEquals(i + Math.min(i, 2), keys.lastSize(ids[i]));
        }
    }

    @Test
    void aKeyLargerThanAChunkAndAnEmptyKey() {
        KeyCounts keys = new KeyCounts();
        byte[] big = new byte[3 << 20];
        Arrays.fill(big, (byte) 'b');
        int a = keys.add(big, 0, big.length);
        int small = keys.add(new byte[] {'s'}, 0, 1);
        int empty = keys.add(new byte[0], 0, 0);
        assertEquals(a, keys.add(big.clone(), 0, big.length));
        big[big.length - 1] = 'c';
        int other = keys.add(big, 0, big.length);
        assertEquals(4, keys.size());
        assertEquals(2, keys.count(a));
        assertEquals(1, keys.count(other));
        assertEquals(small, keys.add(new byte[] {'s'}, 0, 1));
        assertEquals(empty, keys.add(new byte[5], 2, 0));
        assertEquals(-1, keys.lastSize(small));
    }
}
