package io.fluxperf.trace;

/**
 * The heatmap's latency rows: log-scaled like HdrHistogram, base 2 with {@value #SUB_BUCKETS}
 * linear sub-buckets per power of two (each row is 1/16 of its octave wide, 3–6% of its value),
 * from 2^10 ns (1.024 µs) to 2^34 ns (17.2 s). Row 0 holds everything below 1.024 µs, the last row
 * everything from 17.2 s up: {@value #ROWS} rows in all.
 */
public final class LatencyBuckets {
    /** log2 of the sub-buckets per octave. */
    public static final int SUB_BUCKET_BITS = 4;
    public static final int SUB_BUCKETS = 1 << SUB_BUCKET_BITS;
    /** The lowest octave starts at 2^MIN_EXPONENT ns. */
    public static final int MIN_EXPONENT = 10;
    /** The overflow row starts at 2^MAX_EXPONENT ns. */
    public static final int MAX_EXPONENT = 34;
    public static final int ROWS = 2 + (MAX_EXPONENT - MIN_EXPONENT) * SUB_BUCKETS;

    private LatencyBuckets() {
    }

    /** The row of a latency, ns (negative counts as 0). */
    public static int row(long nanos) {
        if (nanos < (1L << MIN_EXPONENT)) {
            return 0;
        }
        int exp = 63 - Long.numberOfLeadingZeros(nanos);
        if (exp >= MAX_EXPONENT) {
            return ROWS - 1;
        }
        int sub = (int) (nanos >>> (exp - SUB_BUCKET_BITS)) & (SUB_BUCKETS - 1);
        return 1 + (exp - MIN_EXPONENT) * SUB_BUCKETS + sub;
    }

    /** Smallest latency of a row, ns. */
    public static long lowerBound(int row) {
        if (row <= 0) {
            return 0;
        }
        if (row >= ROWS - 1) {
            return 1L << MAX_EXPONENT;
        }
        int exp = MIN_EXPONENT + (row - 1) / SUB_BUCKETS;
        int sub = (row - 1) % SUB_BUCKETS;
        return (1L << exp) + ((long) sub << (exp - SUB_BUCKET_BITS));
    }

    /** Smallest latency of the next row, ns (for the overflow row: twice its lower bound, for drawing). */
    public static long upperBound(int row) {
        if (row >= ROWS - 1) {
            return 1L << (MAX_EXPONENT + 1);
        }
        return lowerBound(row + 1);
    }

    /** The value a row stands for in percentile estimates: its middle, ns. */
    public static long midpoint(int row) {
        return (lowerBound(row) + upperBound(row)) / 2;
    }

    /** The first row of the octave a row is in (row 0 and the last row are their own octave). */
    public static int octaveStart(int row) {
        if (row <= 0 || row >= ROWS - 1) {
            return row;
        }
        return 1 + (row - 1) / SUB_BUCKETS * SUB_BUCKETS;
    }

    /** The last row of the octave a row is in. */
    public static int octaveEnd(int row) {
        if (row <= 0 || row >= ROWS - 1) {
            return row;
        }
        return octaveStart(row) + SUB_BUCKETS - 1;
    }
}
