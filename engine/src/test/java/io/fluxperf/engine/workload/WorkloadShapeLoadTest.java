package io.fluxperf.engine.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.engine.config.KeyspaceConfig;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.ValueSize;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.config.WorkloadShape;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Request;
import io.fluxperf.engine.request.RequestPool;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.zip.Deflater;
import org.junit.jupiter.api.Test;

/** What the generator puts in each request of a workload's shape: keys, members, values, scripts. */
class WorkloadShapeLoadTest {
    private static final int N = 2_000;

    /** Takes {@link #N} requests of {@code w} (the run's only workload) and hands each to {@code check}. */
    private static void each(WorkloadConfig w, Consumer<Request> check) {
        RunConfig config = RunConfig.builder().workload(w).seed(3).build();
        RequestPool pool = new RequestPool(4);
        new GeneratedLoad(config).requests(0, 1, pool, 0).take(N).doOnNext(r -> {
            check.accept(r);
            pool.release(r);
        }).blockLast();
    }

    private static WorkloadConfig workload(Command c, long keys, int keyLength, WorkloadShape shape) {
        return WorkloadConfig.of(c).withKeyspace(KeyspaceConfig.defaults().withCount(keys).withKeyLength(keyLength))
                .withShape(shape);
    }

    private static String value(Request r) {
        return new String(r.value(), r.valueOffset(), r.valueLength(), StandardCharsets.ISO_8859_1);
    }

    private static String member(Request r, int i) {
        return new String(r.memberBytes(), r.memberOffset(i), r.memberLength(i), StandardCharsets.ISO_8859_1);
    }

    @Test
    void keyOffsetMovesTheKeysPastAnotherKeyspace() {
        Set<Long> keys = new HashSet<>();
        each(workload(Command.GET, 100, 6, WorkloadShape.DEFAULT.withKeyOffset(1000)), r -> {
            assertEquals(6, r.keyLength(0));
            keys.add(Long.parseLong(r.keyString(0)));
        });
        assertEquals(100, keys.size());
        assertTrue(keys.stream().allMatch(k -> k >= 1000 && k < 1100), keys.toString());
    }

    @Test
    void cardinalityNamesThatManyDifferentInnerKeys() {
        Set<String> seen = new HashSet<>();
        each(workload(Command.HSET, 10, 4, WorkloadShape.DEFAULT.withCardinality(5).withInnerKeys(50, 3)), r -> {
            assertEquals(5, r.memberCount());
            Set<String> mine = new HashSet<>();
            for (int i = 0; i < 5; i++) {
                String m = member(r, i);
                assertEquals(3, m.length(), m);
                assertTrue(Integer.parseInt(m) < 50, m);
                mine.add(m);
            }
            assertEquals(5, mine.size(), "five different fields: " + mine);
            seen.addAll(mine);
        });
        assertEquals(50, seen.size(), "every inner key is drawn in time");
    }

    @Test
    void withoutInnerKeysTheKeyIsTheFirstMemberAndOtherKeysFollow() {
        each(workload(Command.SADD, 20, 4, WorkloadShape.DEFAULT.withCardinality(3).withKeyOffset(100)), r -> {
            assertEquals(3, r.memberCount());
            assertEquals(r.keyString(0), member(r, 0));
            Set<String> mine = new HashSet<>(List.of(member(r, 0), member(r, 1), member(r, 2)));
            assertEquals(3, mine.size());
            for (String m : mine) {
                assertTrue(Long.parseLong(m) >= 100 && Long.parseLong(m) < 120, m);
            }
        });
        each(workload(Command.HINCRBY, 20, 4, WorkloadShape.DEFAULT.withInnerKeys(7, 2)), r -> {
            assertEquals(1, r.memberCount());
            assertEquals(1, r.numeric(), "hincrby counts up by one");
            assertTrue(Integer.parseInt(member(r, 0)) < 7);
        });
        each(workload(Command.RPUSH, 20, 4, WorkloadShape.DEFAULT.withCardinality(4)), r ->
                assertEquals(4, r.memberCount(), "four elements pushed"));
    }

    @Test
    void i64ValuesAreDecimalCountersWhateverTheSize() {
        Set<String> values = new HashSet<>();
        each(workload(Command.SET, 1000, 4, WorkloadShape.DEFAULT.withValueKind(WorkloadShape.ValueKind.I64)), r -> {
            String v = value(r);
            long n = Long.parseLong(v);
            assertTrue(n >= 0 && n < Integer.MAX_VALUE, v);
            values.add(v);
        });
        assertTrue(values.size() > 200, "values differ from key to key: " + values.size());
    }

    @Test
    void fixedValuesAreOneValueAndFreshOnesChange() {
        Set<String> fixed = new HashSet<>();
        each(workload(Command.SET, 1000, 4, WorkloadShape.DEFAULT.withValues(WorkloadShape.ValueMode.FIXED))
                .withBytes(ValueSize.fixed(32)), r -> fixed.add(value(r)));
        assertEquals(1, fixed.size(), "rpc-perf 2's regenerate = false: one value for every key");
        List<String> fresh = new ArrayList<>();
        each(workload(Command.SET, 1, 4, WorkloadShape.DEFAULT.withValues(WorkloadShape.ValueMode.FRESH))
                .withBytes(ValueSize.fixed(32)), r -> fresh.add(value(r)));
        assertTrue(new HashSet<>(fresh).size() > 200, "a new value each request, even for one key");
        Set<String> perKey = new HashSet<>();
        each(workload(Command.SET, 1, 4, WorkloadShape.DEFAULT).withBytes(ValueSize.fixed(32)), r -> perKey.add(value(r)));
        assertEquals(1, perKey.size(), "by default a key's value is the same every time");
    }

    @Test
    void compressibleValuesCompressToAboutTheRatio() {
        for (double ratio : new double[] {2, 4, 10}) {
            double[] sum = new double[2];
            each(workload(Command.SET, 1000, 4, WorkloadShape.DEFAULT.withCompressionRatio(ratio))
                    .withBytes(ValueSize.fixed(4096)), r -> {
                Deflater d = new Deflater();
                d.setInput(r.value(), r.valueOffset(), r.valueLength());
                d.finish();
                byte[] out = new byte[8192];
                int n = 0;
                while (!d.finished()) {
                    n += d.deflate(out);
                }
                d.end();
                sum[0] += r.valueLength();
                sum[1] += n;
            });
            double achieved = sum[0] / sum[1];
            assertEquals(ratio, achieved, ratio * 0.2, "deflate's ratio for compression ratio " + ratio);
        }
        double[] plain = new double[2];
        each(workload(Command.SET, 1000, 4, WorkloadShape.DEFAULT).withBytes(ValueSize.fixed(4096)), r -> {
            Deflater d = new Deflater();
            d.setInput(r.value(), r.valueOffset(), r.valueLength());
            d.finish();
            byte[] out = new byte[8192];
            plain[1] += d.deflate(out);
            d.end();
            plain[0] += r.valueLength();
        });
        assertTrue(plain[0] / plain[1] < 1.4, "default values stay hard to compress: " + plain[0] / plain[1]);
    }

    @Test
    void scriptsGoWithEveryRequestOfTheirWorkload() {
        String body = "return redis.call('get', KEYS[1])";
        byte[][] first = new byte[1][];
        WorkloadConfig evalsha = new WorkloadConfig(null, Command.EVALSHA, 0, 1, ValueSize.fixed(8),
                KeyspaceConfig.defaults().withCount(10), false, false, 1, 0, null, WorkloadShape.DEFAULT.withScript(body));
        each(evalsha, r -> {
            assertEquals(body, new String(r.script(), StandardCharsets.UTF_8));
            if (first[0] == null) {
                first[0] = r.script();
            }
            assertTrue(first[0] == r.script(), "the same bytes every time: the codec knows a loaded script by them");
            assertEquals(8, r.valueLength(), "ARGV[1]");
        });
    }
}
