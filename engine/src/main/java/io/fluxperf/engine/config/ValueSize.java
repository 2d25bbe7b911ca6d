package io.fluxperf.engine.config;

import java.util.Arrays;

/** The size of the values a workload writes: fixed, a uniform range, or a weighted list. */
public sealed interface ValueSize {
    int DEFAULT_BYTES = 64;
    /** memcached's default item size limit. */
    int MAX_BYTES = 1024 * 1024;

    /** The largest size this can produce. */
    int max();

    /** The smallest size this can produce. */
    int min();

    /** As the report and the config echo show it. */
    String describe();

    static ValueSize fixed(int bytes) {
        return new Fixed(bytes);
    }

    record Fixed(int bytes) implements ValueSize {
        public Fixed {
            check(bytes);
        }

        @Override
        public int max() {
            return bytes;
        }

        @Override
        public int min() {
            return bytes;
        }

        @Override
        public String describe() {
            return Integer.toString(bytes);
        }
    }

    /** Uniform over [min, max]. */
    record Range(int min, int max) implements ValueSize {
        public Range {
            check(min);
            check(max);
            if (min > max) {
                throw new IllegalArgumentException("value size range min " + min + " is above max " + max);
            }
        }

        @Override
        public String describe() {
            return min + ".." + max;
        }
    }

    /** {@code sizes[i]} with probability {@code weights[i] / sum(weights)}. */
    record Weighted(int[] sizes, int[] weights) implements ValueSize {
        public Weighted {
            if (sizes.length == 0 || sizes.length != weights.length) {
                throw new IllegalArgumentException("a weighted value size needs as many weights as sizes, at least one");
            }
            sizes = sizes.clone();
            weights = weights.clone();
            long total = 0;
            for (int i = 0; i < sizes.length; i++) {
                check(sizes[i]);
                if (weights[i] < 0) {
                    throw new IllegalArgumentException("value size weights must be >= 0, not " + weights[i]);
                }
                total += weights[i];
            }
            if (total == 0) {
                throw new IllegalArgumentException("value size weights must not all be 0");
            }
        }

        @Override
        public int max() {
            return Arrays.stream(sizes).max().orElse(0);
        }

        @Override
        public int min() {
            return Arrays.stream(sizes).min().orElse(0);
        }

        @Override
        public String describe() {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < sizes.length; i++) {
                b.append(i == 0 ? "" : ",").append(sizes[i]).append(':').append(weights[i]);
            }
            return b.toString();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Weighted w && Arrays.equals(sizes, w.sizes) && Arrays.equals(weights, w.weights);
        }

        @Override
        public int hashCode() {
            return 31 * Arrays.hashCode(sizes) + Arrays.hashCode(weights);
        }

        @Override
        public String toString() {
            return "Weighted[" + describe() + "]";
        }
    }

    private static void check(int bytes) {
        if (bytes < 0 || bytes > MAX_BYTES) {
            throw new IllegalArgumentException("value size must be between 0 and " + MAX_BYTES + " bytes, not " + bytes);
        }
    }
}
