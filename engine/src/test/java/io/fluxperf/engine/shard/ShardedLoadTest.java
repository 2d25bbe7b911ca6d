package io.fluxperf.engine.shard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.config.Arrivals;
import io.fluxperf.engine.config.KeyDistribution;
import io.fluxperf.engine.config.KeyspaceConfig;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Request;
import io.fluxperf.engine.request.RequestPool;
import io.fluxperf.engine.workload.GeneratedLoad;
import io.fluxperf.engine.workload.Preload;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What N agents' generators send together: the one-machine schedule, disjoint write slices, different draws. */
class ShardedLoadTest {
    private static final int SHARDS = 4;
    private static final long KEYS = 1_001;

    private static RunConfig whole(KeyDistribution distribution, int threads) {
        KeyspaceConfig keys = KeyspaceConfig.defaults().withCount(KEYS).withDistribution(distribution, 0.99);
        return RunConfig.builder().threads(threads)
                .workload(WorkloadConfig.of(Command.SET).withRate(10_000).withKeyspace(keys))
                .workload(WorkloadConfig.of(Command.GET).withRate(50_000).withKeyspace(keys).withHit(true))
                .build();
    }

    /** Every request of {@code load} on each thread, until {@code perThread} each. */
    private static List<long[]> requests(RunConfig config, int perThread) {
        List<long[]> out = new ArrayList<>(); // {workload, key, intended}
        for (int t = 0; t < config.threads(); t++) {
            RequestPool pool = new RequestPool(4);
            new GeneratedLoad(config).requests(t, config.threads(), pool, 0).take(perThread).doOnNext(r -> {
                out.add(new long[] {r.workload(), Long.parseLong(r.keyString(0)), r.intendedNanos()});
                pool.release(r);
            }).blockLast();
        }
        return out;
    }

    @Test
    void theShardsIntendedTimesTogetherAreTheOneMachineSchedule() {
        for (int threads : new int[] {1, 2}) {
            RunConfig whole = whole(KeyDistribution.UNIFORM, threads);
            Map<Integer, List<Long>> alone = times(requests(whole, 6_000));
            Map<Integer, List<Long>> together = new HashMap<>();
            for (int i = 0; i < SHARDS; i++) {
                RunConfig mine = ShardedConfig.of(whole, new Shard(i, SHARDS));
                assertEquals(2_500, mine.workloads().get(0).rate());
                assertEquals(12_500, mine.workloads().get(1).rate());
                times(requests(mine, 6_000 / SHARDS)).forEach((w, ts) -> together.computeIfAbsent(w, x -> new ArrayList<>()).addAll(ts));
            }
            for (int w = 0; w < 2; w++) {
                List<Long> a = alone.get(w);
                List<Long> b = together.get(w);
                b.sort(null);
                // the one machine's first requests of each workload, at the same times to within rounding
                int n = Math.min(a.size(), b.size()) / 2;
                for (int k = 0; k < n; k++) {
                    assertTrue(Math.abs(a.get(k) - b.get(k)) <= 1, "workload " + w + " request " + k + ": "
                            + a.get(k) + " alone, " + b.get(k) + " sharded (threads " + threads + ")");
                }
            }
        }
    }

    private static Map<Integer, List<Long>> times(List<long[]> requests) {
        Map<Integer, List<Long>> byWorkload = new HashMap<>();
        for (long[] r : requests) {
            byWorkload.computeIfAbsent((int) r[0], w -> new ArrayList<>()).add(r[2]);
        }
        byWorkload.values().forEach(l -> l.sort(null));
        return byWorkload;
    }

    @Test
    void writesStayInTheShardsSliceAndReadsRoamTheWholeSpace() {
        for (KeyDistribution d : KeyDistribution.values()) {
            Set<Long> written = new HashSet<>();
            Set<Long> read = new HashSet<>();
            for (int i = 0; i < SHARDS; i++) {
                Shard s = new Shard(i, SHARDS);
                for (long[] r : requests(ShardedConfig.of(whole(d, 2), s), 8_000)) {
                    if (r[0] == 0) {
                        assertTrue(s.ownsKey(r[1]), d + ": shard " + i + " wrote key " + r[1]);
                        assertTrue(r[1] < KEYS);
                        written.add(r[1]);
                    } else {
                        read.add(r[1]);
                    }
                }
            }
            if (d != KeyDistribution.ZIPF) {
                assertEquals(KEYS, written.size(), d + ": the shards' writes together cover the key space");
                assertEquals(KEYS, read.size(), d + ": reads of every key");
            }
        }
    }

    @Test
    void shardsDoNotRepeatEachOthersDraws() {
        List<long[]> a = requests(ShardedConfig.of(whole(KeyDistribution.UNIFORM, 1), new Shard(1, SHARDS)), 200);
        List<long[]> b = requests(ShardedConfig.of(whole(KeyDistribution.UNIFORM, 1), new Shard(2, SHARDS)), 200);
        int same = 0;
        for (int k = 0; k < a.size(); k++) {
            if (a.get(k)[0] == 1 && a.get(k)[1] == b.get(k)[1]) {
                same++;
            }
        }
        assertTrue(same < 5, same + " of 200 reads drew the same key on two shards");
    }

    /** The preloads of the N agents write every key exactly once. */
    @Test
    void preloadSlicesAreDisjointAndCoverTheKeySpace() {
        Map<Long, Integer> owner = new HashMap<>();
        long sum = 0;
        for (int i = 0; i < SHARDS; i++) {
            RunConfig mine = ShardedConfig.of(whole(KeyDistribution.UNIFORM, 2), new Shard(i, SHARDS));
            Preload preload = new Preload(mine, GeneratedLoad.patternFor(mine));
            sum += preload.keys();
            for (int t = 0; t < 2; t++) {
                RequestPool pool = new RequestPool(4);
                int shard = i;
                preload.requests(t, 2, pool, 0).doOnNext(r -> {
                    Integer before = owner.put(Long.parseLong(r.keyString(0)), shard);
                    assertEquals(null, before, "key " + r.keyString(0) + " preloaded by shards " + before + " and " + shard);
                    pool.release(r);
                }).blockLast();
            }
        }
        assertEquals(KEYS, owner.size());
        assertEquals(KEYS, sum);
    }

    @Test
    void onlyShardZeroFlushesAndSmallKeySpacesAreRefused() {
        RunConfig flushing = RunConfig.builder().workload(WorkloadConfig.of(Command.GET).withRate(100).withFlush(true)).build();
        assertTrue(ShardedConfig.of(flushing, new Shard(0, 2)).needsFlush());
        assertTrue(!ShardedConfig.of(flushing, new Shard(1, 2)).needsFlush());
        RunConfig tiny = RunConfig.builder().workload(WorkloadConfig.of(Command.SET).withRate(100)
                .withKeyspace(KeyspaceConfig.defaults().withCount(3))).build();
        assertEquals("--shard: workload 'set' has 3 keys, fewer than the 4 shards that split its writes",
                assertThrows(UserError.class, () -> ShardedConfig.of(tiny, new Shard(0, 4))).getMessage());
        RunConfig counted = RunConfig.builder().requests(10).workload(WorkloadConfig.of(Command.GET)).build();
        assertEquals("--requests 10 does not split evenly over 4 shards; give a multiple of 4",
                assertThrows(UserError.class, () -> ShardedConfig.of(counted, new Shard(1, 4))).getMessage());
        assertEquals(3, ShardedConfig.of(counted.toBuilder().requests(12).build(), new Shard(1, 4)).requests());
    }

    @Test
    void randomArrivalsKeepTheShardsRateAndPhase() {
        RunConfig whole = whole(KeyDistribution.UNIFORM, 1).toBuilder().arrivals(Arrivals.EXPONENTIAL).build();
        RunConfig mine = ShardedConfig.of(whole, new Shard(3, SHARDS));
        List<long[]> r = requests(mine, 12_800);
        long last = r.stream().filter(x -> x[0] == 1).mapToLong(x -> x[2]).max().orElseThrow();
        long count = r.stream().filter(x -> x[0] == 1).count();
        assertEquals(12_500.0, count / (last / 1e9), 12_500 * 0.02);
    }
}
