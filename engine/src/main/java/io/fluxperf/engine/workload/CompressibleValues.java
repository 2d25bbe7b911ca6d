package io.fluxperf.engine.workload;

import java.util.SplittableRandom;

/**
 * Values that compress to about 1 / ratio of their size (rpc-perf 5's {@code compression_ratio}),
 * for servers and proxies that compress what they store: in every block of {@link #BLOCK} bytes
 * about the first {@code BLOCK / ratio} are random (any byte value: they do not compress) and the
 * rest are zeros (they nearly vanish); measured with deflate, other compressors land near it. Any slice of a few blocks or more keeps the ratio; a value much
 * shorter than a block is mostly random or mostly zeros, as its place in the array falls.
 */
final class CompressibleValues {
    static final int BLOCK = 256;

    private final byte[] array;

    CompressibleValues(long seed, int maxValueLength, double ratio) {
        array = new byte[maxValueLength + ValuePattern.OFFSETS];
        SplittableRandom random = new SplittableRandom(seed ^ Double.doubleToLongBits(ratio));
        // a random byte costs a deflate-like compressor (LZ77 and Huffman codes) about 8.4 bits,
        // and a block's run of zeros a few bytes: the random part is cut by as much
        int randomBytes = Math.max(1, (int) Math.round(BLOCK / ratio / 1.05) - 3);
        for (int i = 0; i < array.length; i++) {
            array[i] = i % BLOCK < randomBytes ? (byte) random.nextInt(256) : 0;
        }
    }

    /** The shared array; read-only by contract. */
    byte[] array() {
        return array;
    }
}
