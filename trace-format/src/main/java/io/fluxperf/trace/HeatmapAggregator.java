package io.fluxperf.trace;

import java.util.Arrays;

/**
 * Streams trace records into a heatmap: x = time buckets of the intended send time (default 1 s),
 * y = {@link LatencyBuckets} rows, a count per cell, plus per time bucket the request count and the
 * count per outcome. Per-bucket percentiles come from the cells ({@link #percentileNanos(int, double)},
 * within half a row, about ±3%).
 *
 * <p>Memory depends only on time buckets × latency rows: when the trace spans more than
 * {@code maxTimeBuckets} buckets, the bucket width doubles (neighbouring buckets merge), so any
 * number of records over any duration fits in {@code maxTimeBuckets × }{@value LatencyBuckets#ROWS}
 * longs (default 4096 buckets: 12.6 MB). Records may arrive out of time order.
 */
public final class HeatmapAggregator {

    public static final long DEFAULT_BUCKET_NANOS = 1_000_000_000L;
    public static final int DEFAULT_MAX_TIME_BUCKETS = 4096;
    private static final int ROWS = LatencyBuckets.ROWS;

    private final Latency latency;
    private final int maxTimeBuckets;
    private final long requestedBucketNanos;
    private long bucketNanos;
    private long base;      // index (time / bucketNanos) of the first bucket
    private int n;          // buckets in use
    private int capacity;
    private long[] cells = new long[0];
    private long[] totals = new long[0];
    private long[] outcomes = new long[0];
    private long count;
    /** The client's pauses to mark ({@link TracePauses}); none unless given. */
    private java.util.List<TracePauses.Pause> pauses = java.util.List.of();
    private long firstNanos = Long.MAX_VALUE;
    private long lastNanos = Long.MIN_VALUE;
    private int minRow = Integer.MAX_VALUE;
    private int maxRow = -1;

    public HeatmapAggregator(long bucketNanos, Latency latency) {
        this(bucketNanos, latency, DEFAULT_MAX_TIME_BUCKETS);
    }

    /**
     * @param bucketNanos    width of a time bucket, ns
     * @param latency        which latency to place on the y axis
     * @param maxTimeBuckets most time buckets kept; beyond, buckets merge in pairs
     */
    public HeatmapAggregator(long bucketNanos, Latency latency, int maxTimeBuckets) {
        if (bucketNanos <= 0) {
            throw new IllegalArgumentException("bucket width must be positive, not " + bucketNanos + " ns");
        }
        if (maxTimeBuckets < 2) {
            throw new IllegalArgumentException("maxTimeBuckets must be at least 2");
        }
        this.requestedBucketNanos = bucketNanos;
        this.bucketNanos = bucketNanos;
        this.latency = latency;
        this.maxTimeBuckets = maxTimeBuckets;
    }

    /** Reads the rest of the trace into a new aggregator. */
    public static HeatmapAggregator compute(TraceReader reader, long bucketNanos, Latency latency) {
        HeatmapAggregator h = new HeatmapAggregator(bucketNanos, latency);
        TraceRecord r = new TraceRecord();
        while (reader.next(r)) {
            h.add(r);
        }
        return h;
    }

    /** Adds a record at its intended send time, with the aggregator's latency. */
    public void add(TraceRecord r) {
        add(r.intendedSendNanos(), latency.nanos(r), r.outcome());
    }

    /**
     * Adds one request.
     *
     * @param timeNanos    when (ns since the clock origin)
     * @param latencyNanos its latency, ns
     * @param outcome      its {@link Outcome} code (unknown codes count in the totals only)
     */
    public void add(long timeNanos, long latencyNanos, int outcome) {
        int t = slot(timeNanos);
        int row = LatencyBuckets.row(latencyNanos);
        cells[t * ROWS + row]++;
        totals[t]++;
        if (outcome >= 0 && outcome < Outcome.COUNT) {
            outcomes[t * Outcome.COUNT + outcome]++;
        }
        count++;
        firstNanos = Math.min(firstNanos, timeNanos);
        lastNanos = Math.max(lastNanos, timeNanos);
        if (row < minRow) {
            minRow = row;
        }
        if (row > maxRow) {
            maxRow = row;
        }
    }

    /** The array slot of a time, growing or coarsening the buckets as needed. */
    private int slot(long timeNanos) {
        long idx = Math.floorDiv(timeNanos, bucketNanos);
        if (n == 0) {
            ensureCapacity(1);
            base = idx;
            n = 1;
            return 0;
        }
        while (Math.max(base + n - 1, idx) - Math.min(base, idx) + 1 > maxTimeBuckets) {
            coarsen();
            idx = Math.floorDiv(timeNanos, bucketNanos);
        }
        if (idx < base) {
            int shift = (int) (base - idx);
            ensureCapacity(n + shift);
            System.arraycopy(cells, 0, cells, shift * ROWS, n * ROWS);
            Arrays.fill(cells, 0, shift * ROWS, 0);
            System.arraycopy(totals, 0, totals, shift, n);
            Arrays.fill(totals, 0, shift, 0);
            System.arraycopy(outcomes, 0, outcomes, shift * Outcome.COUNT, n * Outcome.COUNT);
            Arrays.fill(outcomes, 0, shift * Outcome.COUNT, 0);
            base = idx;
            n += shift;
        } else if (idx >= base + n) {
            int newN = (int) (idx - base + 1);
            ensureCapacity(newN);
            n = newN;
        }
        return (int) (idx - base);
    }

    private void ensureCapacity(int buckets) {
        if (buckets <= capacity) {
            return;
        }
        int c = Math.min(maxTimeBuckets, Math.max(buckets, Math.max(16, capacity * 2)));
        cells = Arrays.copyOf(cells, c * ROWS);
        totals = Arrays.copyOf(totals, c);
        outcomes = Arrays.copyOf(outcomes, c * Outcome.COUNT);
        capacity = c;
    }

    /** Doubles the bucket width: bucket i of the new grid holds old buckets 2i and 2i+1. */
    private void coarsen() {
        long newBase = Math.floorDiv(base, 2);
        long[] c = new long[capacity * ROWS];
        long[] tot = new long[capacity];
        long[] out = new long[capacity * Outcome.COUNT];
        for (int i = 0; i < n; i++) {
            int j = (int) (Math.floorDiv(base + i, 2) - newBase);
            for (int r = 0; r < ROWS; r++) {
                c[j * ROWS + r] += cells[i * ROWS + r];
            }
            tot[j] += totals[i];
            for (int o = 0; o < Outcome.COUNT; o++) {
                out[j * Outcome.COUNT + o] += outcomes[i * Outcome.COUNT + o];
            }
        }
        n = (int) (Math.floorDiv(base + n - 1, 2) - newBase + 1);
        base = newBase;
        bucketNanos *= 2;
        cells = c;
        totals = tot;
        outcomes = out;
    }

    public Latency latency() {
        return latency;
    }

    /** Width of a time bucket, ns: the one asked for, or a power-of-two multiple after merging. */
    /** Marks {@code marks} (the run's client pauses, in trace time) on the drawn heatmap. */
    public HeatmapAggregator pauses(java.util.List<TracePauses.Pause> marks) {
        this.pauses = java.util.List.copyOf(marks);
        return this;
    }

    /** The pauses to mark, in trace time. */
    public java.util.List<TracePauses.Pause> pauses() {
        return pauses;
    }

    public long bucketNanos() {
        return bucketNanos;
    }

    /** The width first asked for, ns. */
    public long requestedBucketNanos() {
        return requestedBucketNanos;
    }

    /** Number of time buckets, from the first record's bucket to the last's. */
    public int timeBuckets() {
        return n;
    }

    /** Start of time bucket {@code t}, ns since the clock origin. */
    public long bucketStartNanos(int t) {
        return (base + t) * bucketNanos;
    }

    /**
     * How much of time bucket {@code t} the trace covers, ns: the bucket's overlap with the span from
     * the first request to one mean gap after the last. The first and last buckets are partly
     * filled (a run starts and ends anywhere in them), so a rate is a bucket's requests over this,
     * not over the bucket's width: a steady rate then reads the same in every bucket. The mean gap
     * after the last request is that request's own share of time, so a last bucket holding one
     * request is not an infinite rate.
     */
    public long coveredNanos(int t) {
        if (count == 0) {
            return bucketNanos;
        }
        long gap = count > 1 ? Math.max(1, (lastNanos - firstNanos) / (count - 1)) : bucketNanos;
        long from = Math.max(bucketStartNanos(t), firstNanos);
        long to = Math.min(bucketStartNanos(t + 1), lastNanos + gap);
        return Math.max(1, to - from);
    }

    /** Requests per second in time bucket {@code t}, over the time the trace covers of it ({@link #coveredNanos}). */
    public double ratePerSecond(int t) {
        return totals[t] * 1e9 / coveredNanos(t);
    }

    /** The intended send time of the earliest request, ns since the clock origin; 0 when empty. */
    public long firstNanos() {
        return count == 0 ? 0 : firstNanos;
    }

    /** Requests in a cell. */
    public long count(int t, int row) {
        return cells[t * ROWS + row];
    }

    /** Requests in time bucket {@code t}. */
    public long total(int t) {
        return totals[t];
    }

    /** Requests in time bucket {@code t} with this outcome code. */
    public long outcomeCount(int t, int outcome) {
        return outcomes[t * Outcome.COUNT + outcome];
    }

    /** All requests added. */
    public long totalCount() {
        return count;
    }

    /** Lowest row holding a request, or -1 when empty. */
    public int minRow() {
        return maxRow < 0 ? -1 : minRow;
    }

    /** Highest row holding a request, or -1 when empty. */
    public int maxRow() {
        return maxRow;
    }

    /** The largest count in one cell. */
    public long maxCellCount() {
        long max = 0;
        for (int i = 0; i < n * ROWS; i++) {
            max = Math.max(max, cells[i]);
        }
        return max;
    }

    /**
     * A percentile of time bucket {@code t}, estimated from its cells: the middle of the row where the
     * cumulative count reaches it, ns; -1 when the bucket is empty.
     *
     * @param percentile 0..100
     */
    public long percentileNanos(int t, double percentile) {
        long total = totals[t];
        if (total == 0) {
            return -1;
        }
        long target = Math.max(1, (long) Math.ceil(percentile / 100.0 * total));
        long seen = 0;
        int offset = t * ROWS;
        for (int r = 0; r < ROWS; r++) {
            seen += cells[offset + r];
            if (seen >= target) {
                return LatencyBuckets.midpoint(r);
            }
        }
        return LatencyBuckets.midpoint(ROWS - 1);
    }
}
