package io.fluxperf.engine.workload;

import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.config.WorkloadShape;
import io.fluxperf.engine.request.Request;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * Where one workload's values come from ({@link WorkloadShape#valueKind()},
 * {@link WorkloadShape#compressionRatio()}, {@link WorkloadShape#values()}): a slice of a shared,
 * read-only array chosen per request, so that nothing is allocated per request.
 *
 * <p>Which slice: per key (the default) the key's own, so that reads can check what they get;
 * fixed, the same for every request (rpc-perf 2's {@code regenerate = false}); fresh, one of
 * {@link ValuePattern#OFFSETS} drawn at random for each request (rpc-perf 2's {@code regenerate = true}).
 */
abstract class ValueSource {
    private final WorkloadShape.ValueMode mode;

    ValueSource(WorkloadShape.ValueMode mode) {
        this.mode = mode;
    }

    /** The source of {@code w}'s values: the run's shared pattern unless its shape asks for other values. */
    static ValueSource of(WorkloadConfig w, ValuePattern shared, long seed) {
        WorkloadShape s = w.shape();
        if (s.valueKind() == WorkloadShape.ValueKind.I64) {
            return new Counters(s.values(), CounterValues.shared());
        }
        if (s.compressionRatio() > 1) {
            return new Bytes(s.values(), new CompressibleValues(seed, w.bytes().max(), s.compressionRatio()).array());
        }
        return new Bytes(s.values(), shared.array());
    }

    /** Sets {@code r}'s value for key index {@code key}, of {@code size} bytes where the kind has a size. */
    abstract void fill(Request r, long key, int size, UniformRandomProvider rng);

    /** Which of the {@link ValuePattern#OFFSETS} slices this request takes. */
    final int slice(long key, UniformRandomProvider rng) {
        return switch (mode) {
            case PER_KEY -> (int) Math.floorMod(key, ValuePattern.OFFSETS);
            case FIXED -> 0;
            case FRESH -> rng.nextInt(ValuePattern.OFFSETS);
        };
    }

    /** Bytes from an array of at least the largest value plus {@link ValuePattern#OFFSETS}. */
    private static final class Bytes extends ValueSource {
        private final byte[] array;

        Bytes(WorkloadShape.ValueMode mode, byte[] array) {
            super(mode);
            this.array = array;
        }

        @Override
        void fill(Request r, long key, int size, UniformRandomProvider rng) {
            r.value(array, slice(key, rng), size);
        }
    }

    /** Decimal 64-bit integers, whatever the size: counters that INCR and HINCRBY take. */
    private static final class Counters extends ValueSource {
        private final CounterValues values;

        Counters(WorkloadShape.ValueMode mode, CounterValues values) {
            super(mode);
            this.values = values;
        }

        @Override
        void fill(Request r, long key, int size, UniformRandomProvider rng) {
            int i = slice(key, rng);
            r.value(values.array(), values.offset(i), values.length(i));
        }
    }
}
