package io.fluxperf.engine.shard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.engine.UserError;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which shard a process is, from flags and the environment, and how a shard splits keys and clients. */
class ShardTest {
    @Test
    void flagWinsAndNamesItsShare() {
        Shard s = Shard.resolve("2/4", null, Map.of(Shard.INDEX_ENV, "0", Shard.COUNT_ENV, "4"));
        assertEquals(new Shard(2, 4), s);
        assertEquals("2/4", s.toString());
        assertEquals(2500.0, s.rate(10_000));
        assertEquals(0.5, s.phase());
    }

    @Test
    void indexFromTheJobAndCountFromFlagOrEnvironment() {
        assertEquals(new Shard(3, 4), Shard.resolve(null, null, Map.of(Shard.INDEX_ENV, "3", Shard.COUNT_ENV, "4")));
        assertEquals(new Shard(1, 8), Shard.resolve(null, 8, Map.of(Shard.INDEX_ENV, "1", Shard.COUNT_ENV, "4")));
        assertNull(Shard.resolve(null, null, Map.of()), "no index anywhere: not sharded");
    }

    @Test
    void badValuesAreOneSentenceNamingTheirPlace() {
        assertMessage("--shard: expected INDEX/COUNT such as 0/4, not '3'", () -> Shard.resolve("3", null, Map.of()));
        assertMessage("--shard: the index must be between 0 and 3 for 4 shards, not 4", () -> Shard.resolve("4/4", null, Map.of()));
        assertMessage("--shard: expected a whole number, not 'x'", () -> Shard.resolve("x/4", null, Map.of()));
        assertMessage("--shard: the shard count must be between 1 and 10000, not 0", () -> Shard.resolve("0/0", null, Map.of()));
        assertMessage("--shards 3 contradicts --shard 1/4; give one of them", () -> Shard.resolve("1/4", 3, Map.of()));
        assertMessage("--shards 4 needs this agent's index: give --shard I/4 or set JOB_COMPLETION_INDEX",
                () -> Shard.resolve(null, 4, Map.of()));
        assertMessage("JOB_COMPLETION_INDEX is set (2) but the shard count is not: give --shards N or set FLUXPERF_SHARDS",
                () -> Shard.resolve(null, null, Map.of(Shard.INDEX_ENV, "2")));
        assertMessage("JOB_COMPLETION_INDEX: the shard index must be between 0 and 3 for 4 shards, not 7",
                () -> Shard.resolve(null, null, Map.of(Shard.INDEX_ENV, "7", Shard.COUNT_ENV, "4")));
        assertMessage("FLUXPERF_SHARDS: expected a whole number, not 'four'",
                () -> Shard.resolve(null, null, Map.of(Shard.INDEX_ENV, "1", Shard.COUNT_ENV, "four")));
        assertMessage("--shards: the shard count must be between 1 and 10000, not -2",
                () -> Shard.resolve(null, -2, Map.of(Shard.INDEX_ENV, "1")));
    }

    /** The union of the write slices is the key space and no key is in two, for counts that do and do not divide. */
    @Test
    void slicesPartitionTheKeySpace() {
        for (long keys : new long[] {1, 3, 4, 10, 1_001, 10_000}) {
            for (int n : new int[] {1, 2, 3, 4, 7}) {
                int[] owner = new int[(int) keys];
                java.util.Arrays.fill(owner, -1);
                for (int i = 0; i < n; i++) {
                    Shard s = new Shard(i, n);
                    for (long j = 0; j < s.sliceSize(keys); j++) {
                        long k = s.sliceKey(j);
                        assertTrue(k < keys, "key " + k + " of " + keys);
                        assertEquals(-1, owner[(int) k], "key " + k + " in shards " + owner[(int) k] + " and " + i);
                        assertTrue(s.ownsKey(k));
                        owner[(int) k] = i;
                    }
                }
                for (int k = 0; k < keys; k++) {
                    assertTrue(owner[k] >= 0, "key " + k + " of " + keys + " in no slice of " + n);
                }
            }
        }
    }

    @Test
    void everyClientHasExactlyOneShardAndTheyShareOutEvenly() {
        int n = 3;
        int[] per = new int[n];
        for (int c = 0; c < 3_000; c++) {
            int owners = 0;
            for (int i = 0; i < n; i++) {
                if (new Shard(i, n).ownsClient(c)) {
                    owners++;
                    per[i]++;
                }
            }
            assertEquals(1, owners, "client " + c);
        }
        for (int p : per) {
            assertTrue(p > 900 && p < 1100, java.util.Arrays.toString(per));
        }
    }

    @Test
    void requestLimitsAndSeedsSplit() {
        assertEquals(3, new Shard(3, 4).requests(12));
        assertEquals(42, new Shard(0, 4).seed(42), "shard 0 draws as the unsharded run");
        assertFalse(new Shard(1, 4).seed(42) == new Shard(2, 4).seed(42));
    }

    @Test
    void startAtTakesRfc3339AndEpochSeconds() {
        assertEquals(Instant.parse("2026-12-06T03:00:00Z"), StartAt.parse("2026-12-06T03:00:00Z"));
        assertEquals(Instant.parse("2026-12-06T03:00:00Z"), StartAt.parse("2026-12-06T04:00:00+01:00"));
        assertEquals(Instant.parse("2026-12-06T03:00:00.250Z"), StartAt.parse("2026-12-06T03:00:00.25Z"));
        assertEquals(Instant.ofEpochSecond(1796526000), StartAt.parse("1796526000"));
        assertEquals(Instant.ofEpochSecond(1796526000, 500_000_000), StartAt.parse("1796526000.5"));
        assertMessage("--start-at: expected an RFC 3339 time such as 2026-12-06T03:00:00Z or epoch seconds, not 'soon'",
                () -> StartAt.parse("soon"));
        assertMessage("--start-at: '1.2.3' is not a number of epoch seconds", () -> StartAt.parse("1.2.3"));
        assertMessage("--start-at: 1796526000000 epoch seconds is past the year 5000; give seconds, not milliseconds",
                () -> StartAt.parse("1796526000000"));
    }

    @Test
    void aStartAlreadyPastIsRefusedButOneThatPassedAsTheJvmStartedIsLate() {
        Instant now = Instant.parse("2026-12-07T12:00:00Z");
        assertMessage("--start-at: 2020-01-01T00:00:00Z was 6.9 years ago; give a time still to come",
                () -> StartAt.requireToCome(Instant.parse("2020-01-01T00:00:00Z"), now));
        assertMessage("--start-at: 2026-12-07T11:59:36Z was 24 s ago; give a time still to come",
                () -> StartAt.requireToCome(now.minusSeconds(24), now));
        assertMessage("--start-at: 2026-12-07T09:55:00Z was 2 h 5 min ago; give a time still to come",
                () -> StartAt.requireToCome(now.minusSeconds(7500), now));
        StartAt.requireToCome(now.minus(StartAt.STARTUP), now); // passed while the JVM started: a late start
        StartAt.requireToCome(now.minusSeconds(1), now);
        StartAt.requireToCome(now.plusSeconds(30), now);
    }

    @Test
    void nanoTimeOfAStartFollowsTheWallClock() {
        long expected = System.nanoTime() + 2_000_000_000L;
        long at = StartAt.nanoTimeOf(Instant.now().plusSeconds(2));
        assertTrue(Math.abs(at - expected) < 50_000_000L, (at - expected) + " ns apart");
    }

    private static void assertMessage(String expected, org.junit.jupiter.api.function.Executable e) {
        assertEquals(expected, assertThrows(UserError.class, e).getMessage());
    }
}
