package io.fluxperf.engine.target;

import java.util.function.IntFunction;

/**
 * The memory-bounded LRU store of an embedded target, safe for several event loops: keys are
 * spread over lock-striped {@link LruSegment}s, each with an equal share of the bound, so eviction
 * is exact LRU within a segment and approximately LRU overall (one segment, hence exact LRU, when
 * the server runs one event loop). A protocol's store extends it with its commands.
 *
 * @param <S> the protocol's segment
 */
public abstract class StripedStore<S extends LruSegment<?>> {
    /** Segments are made no smaller than this when the limit allows, so that multi-megabyte values fit. */
    private static final long MIN_SEGMENT_BYTES = 4L << 20;
    private static final int MAX_SEGMENTS = 64;

    /** Makes segment {@code index} of {@code 2^indexBits}, with {@code budget} bytes. */
    @FunctionalInterface
    public interface SegmentFactory<S> {
        S create(long budget, int index, int indexBits);
    }

    protected final S[] segments;
    private final int mask;
    private final long limitBytes;

    /**
     * @param segmentCount a power of two; see {@link #segmentsFor}
     * @throws IllegalArgumentException if {@code segmentCount} is not a power of two
     */
    protected StripedStore(long limitBytes, int segmentCount, IntFunction<S[]> newArray, SegmentFactory<S> newSegment) {
        if (Integer.bitCount(segmentCount) != 1) {
            throw new IllegalArgumentException("segment count must be a power of two: " + segmentCount);
        }
        this.limitBytes = limitBytes;
        this.segments = newArray.apply(segmentCount);
        this.mask = segmentCount - 1;
        int bits = Integer.numberOfTrailingZeros(segmentCount);
        for (int i = 0; i < segmentCount; i++) {
            segments[i] = newSegment.create(limitBytes / segmentCount, i, bits);
        }
    }

    /**
     * Segments for a server with {@code threads} event loops: one when there is one loop (nothing
     * to contend with, and exact LRU), else about four per loop, but none below 4 MiB if the limit
     * allows.
     */
    public static int segmentsFor(long limitBytes, int threads) {
        if (threads <= 1) {
            return 1;
        }
        int wanted = Integer.highestOneBit(Math.min(MAX_SEGMENTS, threads * 4 - 1)) << 1;
        long bySize = Math.max(1, limitBytes / MIN_SEGMENT_BYTES);
        int allowed = Integer.highestOneBit((int) Math.min(MAX_SEGMENTS, bySize));
        return Math.max(1, Math.min(Math.min(wanted, MAX_SEGMENTS), allowed));
    }

    public final long limitBytes() {
        return limitBytes;
    }

    /** The largest entry (key, value and overhead) that can be stored: one segment's share of the limit. */
    public final long segmentBudget() {
        return segments[0].budget();
    }

    /** The segment that holds {@code key}. */
    public final S segment(ByteKey key) {
        return segments[key.spreadHash() & mask];
    }
}
