package io.fluxperf.engine.protocol.memcache.target;

import io.fluxperf.engine.target.ByteKey;
import io.fluxperf.engine.target.TargetOptions;
import io.fluxperf.engine.target.TargetStats;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The memory bound: least recently used items go first (a get counts as a use), evictions are
 * counted, and stored bytes never exceed the limit.
 */
class MemcacheEvictionTest {
    private static final int LIMIT = 1 << 20;
    private static final int VALUE_LENGTH = 1000;

    private MemcacheTargetServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void evictsTheLeastRecentlyUsedKeysUnderTheMemoryLimit() {
        // one event loop: one store segment, so LRU order is exact
        server = MemcacheTargetServer.start(TargetOptions.builder().memoryLimitBytes(LIMIT).build());
        int itemSize = key(0).length() + VALUE_LENGTH + MemcacheStore.ITEM_OVERHEAD;
        int capacity = LIMIT / itemSize;
        try (TextSession s = new TextSession(server.address())) {
            setAll(s, 0, 600);
            StringBuilder touch = new StringBuilder();
            for (int i = 0; i < 100; i++) {
                touch.append("get ").append(key(i)).append("\r\n");
            }
            s.send(touch.toString());
            for (int i = 0; i < 100; i++) {
                assertEquals(List.of("VALUE " + key(i) + " 0 " + VALUE_LENGTH, value(i), "END"), s.readReply());
            }
            for (int from = 600; from < 1200; from += 100) {
                setAll(s, from, from + 100);
                Map<String, String> stats = stats(s);
                long bytes = Long.parseLong(stats.get("bytes"));
                assertTrue(bytes <= LIMIT, "stored " + bytes + " bytes, limit " + LIMIT);
                assertEquals(Long.toString(LIMIT), stats.get("limit_maxbytes"));
            }
            int evicted = 1200 - capacity;
            // LRU order now: 100..599 (set, never read), 0..99 (read), 600..1199 (set last)
            for (int i = 0; i < 1200; i++) {
                boolean shouldBeGone = i >= 100 && i < 100 + evicted;
                List<String> reply = s.call("get " + key(i) + "\r\n");
                if (shouldBeGone) {
                    assertEquals(List.of("END"), reply, key(i) + " should have been evicted");
                } else {
                    assertEquals(List.of("VALUE " + key(i) + " 0 " + VALUE_LENGTH, value(i), "END"), reply, key(i));
                }
            }
            Map<String, String> stats = stats(s);
            assertEquals(Integer.toString(evicted), stats.get("evictions"));
            assertEquals(Integer.toString(capacity), stats.get("curr_items"));
            assertEquals(Long.toString((long) capacity * itemSize), stats.get("bytes"));
            TargetStats target = server.stats();
            assertEquals(evicted, target.evictions());
            assertEquals(capacity, target.items());
            assertTrue(target.bytesStored() <= LIMIT);
        }
    }

    @Test
    void aStripedStoreStaysWithinTheLimitAndKeepsRecentlyUsedKeys() {
        MemcacheStore store = new MemcacheStore(LIMIT, 8);
        byte[] value = new byte[VALUE_LENGTH];
        long now = System.currentTimeMillis();
        Map<Integer, ByteKey> keys = new HashMap<>();
        for (int i = 0; i < 5000; i++) {
            byte[] k = key(i).getBytes(StandardCharsets.US_ASCII);
            ByteKey key = ByteKey.copyOf(k, 0, k.length);
            keys.put(i, key);
            assertEquals(MemcacheStore.STORED, store.store(MemcacheStore.SET, key, 0, Item.NEVER, value, 0, now));
            if (i >= 100 && i % 50 == 0) {
                for (int hot = 0; hot < 10; hot++) {
                    assertNotNull(store.get(keys.get(hot), now), "hot key " + hot + " evicted at " + i);
                }
            }
            MemcacheStore.Totals t = store.totals();
            assertTrue(t.bytes <= LIMIT, "bytes " + t.bytes + " after " + i + " sets");
        }
        MemcacheStore.Totals t = store.totals();
        assertEquals(5000, t.items + t.evictions, "every set item is either stored or counted as evicted");
        assertTrue(t.bytes > LIMIT * 9L / 10, "the store should be nearly full, holds " + t.bytes);
        for (int recent = 4900; recent < 5000; recent++) {
            assertNotNull(store.get(keys.get(recent), now), "recent key " + recent);
        }
        assertNull(store.get(keys.get(200), now), "an old, unused key should be gone");
    }

    @Test
    void anItemLargerThanTheLimitIsRefusedAndItsDataSkipped() {
        server = MemcacheTargetServer.start(TargetOptions.builder().memoryLimitBytes(LIMIT).build());
        try (TextSession s = new TextSession(server.address())) {
            String big = "x".repeat(LIMIT);
            assertEquals(List.of("SERVER_ERROR object too large for cache"), s.call("set big 0 0 " + big.length() + "\r\n" + big + "\r\n"));
            assertEquals(List.of("END"), s.call("get big\r\n"));
            assertEquals("1", stats(s).get("store_too_large"));
        }
    }

    private static void setAll(TextSession s, int from, int to) {
        StringBuilder batch = new StringBuilder();
        for (int i = from; i < to; i++) {
            batch.append("set ").append(key(i)).append(" 0 0 ").append(VALUE_LENGTH).append("\r\n").append(value(i)).append("\r\n");
        }
        s.send(batch.toString());
        for (int i = from; i < to; i++) {
            assertEquals(List.of("STORED"), s.readReply(), "set " + key(i));
        }
    }

    private static Map<String, String> stats(TextSession s) {
        Map<String, String> stats = new HashMap<>();
        for (String line : s.call("stats\r\n")) {
            String[] parts = line.split(" ");
            if (parts.length == 3) {
                stats.put(parts[1], parts[2]);
            }
        }
        return stats;
    }

    private static String key(int i) {
        return String.format("key:%04d", i);
    }

    private static String value(int i) {
        String seed = key(i) + "|";
        return seed.repeat(VALUE_LENGTH / seed.length() + 1).substring(0, VALUE_LENGTH);
    }
}
