package io.fluxperf.engine.workload;

import io.fluxperf.engine.config.KeyspaceConfig;
import io.fluxperf.engine.shard.Shard;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.RejectionInversionZipfSampler;

/** Draws key indexes in [0, count) from a key space. Seeded, single-threaded, allocation-free. */
public interface KeyChooser {
    long next();

    static KeyChooser of(KeyspaceConfig keys, UniformRandomProvider rng, long sequentialStart, long sequentialStride) {
        return switch (keys.distribution()) {
            case UNIFORM -> () -> rng.nextLong(keys.count());
            case ZIPF -> zipf(keys, rng);
            case SEQUENTIAL -> new Sequential(keys.count(), sequentialStart, sequentialStride);
        };
    }

    /**
     * A chooser over a shard's write slice ({@link Shard#sliceKey}): the distribution drawn over the
     * slice's keys, each mapped to its key of the whole space. The slices interleave (key k is
     * agent k mod N's), so each slice spans the whole key range: uniform stays exactly uniform over
     * the union, sequential walks it once, and zipf's popular ranks are shared out between agents.
     */
    static KeyChooser sliced(KeyspaceConfig keys, UniformRandomProvider rng, long thread, long threads, Shard shard) {
        KeyChooser inner = of(keys.withCount(shard.sliceSize(keys.count())), rng, thread, threads);
        return () -> shard.sliceKey(inner.next());
    }

    /**
     * Zipf over ranks 1..n sampled by rejection-inversion (Hörmann and Derflinger, 1996, as
     * implemented by Commons RNG); rank 1 becomes key 0, the most popular.
     */
    private static KeyChooser zipf(KeyspaceConfig keys, UniformRandomProvider rng) {
        if (keys.count() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a zipf key space can have at most " + Integer.MAX_VALUE + " keys");
        }
        org.apache.commons.rng.sampling.distribution.DiscreteSampler sampler = RejectionInversionZipfSampler.of(rng, (int) keys.count(), keys.exponent());
        return () -> sampler.sample() - 1L;
    }

    /** start, start + stride, … modulo count: threads use different starts to cover the key space together. */
    final class Sequential implements KeyChooser {
        private final long count;
        private final long stride;
        private long next;

        Sequential(long count, long start, long stride) {
            this.count = count;
            this.stride = Math.max(1, stride);
            this.next = Math.floorMod(start, count);
        }

        @Override
        public long next() {
            long k = next;
            next = (next + stride) % count;
            return k;
        }
    }
}
