package io.fluxperf.engine.workload;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * The values of {@code value-kind = "i64"} workloads (rpc-perf 5's {@code vkind = "i64"}):
 * {@link ValuePattern#OFFSETS} decimal integers in one read-only array, so that a request points
 * at one without allocating. They are below 2³¹ and not negative: memcached's incr takes only
 * unsigned numbers, and redis' INCR and HINCRBY then have room to count up for a long time.
 */
final class CounterValues {
    private static final CounterValues SHARED = new CounterValues(0x1364L);

    private final byte[] array;
    private final int[] offsets = new int[ValuePattern.OFFSETS + 1];

    CounterValues(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        StringBuilder all = new StringBuilder();
        for (int i = 0; i < ValuePattern.OFFSETS; i++) {
            offsets[i] = all.length();
            all.append(random.nextInt(Integer.MAX_VALUE));
        }
        offsets[ValuePattern.OFFSETS] = all.length();
        array = all.toString().getBytes(StandardCharsets.US_ASCII);
    }

    static CounterValues shared() {
        return SHARED;
    }

    byte[] array() {
        return array;
    }

    int offset(int i) {
        return offsets[i];
    }

    int length(int i) {
        return offsets[i + 1] - offsets[i];
    }

    /** Integer i as text, for tests and checks (allocates). */
    String text(int i) {
        return new String(array, offset(i), length(i), StandardCharsets.US_ASCII);
    }
}
