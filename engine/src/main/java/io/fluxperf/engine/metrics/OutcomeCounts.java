package io.fluxperf.engine.metrics;

import io.fluxperf.engine.request.Outcome;

/**
 * Requests by outcome. Requests are, by definition, the sum of the outcomes (invariant 1). Of the
 * errors, {@link #mismatch()} counts the reads whose value was not the one the run writes for its
 * key ({@link io.fluxperf.engine.request.Request#valueMismatched()}): a part of {@link #error()},
 * never an outcome of its own, so the sum stays the requests.
 */
public final class OutcomeCounts {
    private final long[] counts = new long[Outcome.count()];
    private long mismatch;

    public void increment(Outcome outcome) {
        counts[outcome.ordinal()]++;
    }

    /** A read ended as an error because its value was not the one written: an error, and a mismatch. */
    public void incrementMismatch() {
        counts[Outcome.ERROR.ordinal()]++;
        mismatch++;
    }

    /**
     * Adds {@code n} to the mismatches alone, for counts read back from a file whose errors already
     * hold them; at most the errors.
     */
    public void addMismatch(long n) {
        mismatch += n;
    }

    public void add(Outcome outcome, long n) {
        counts[outcome.ordinal()] += n;
    }

    public void add(OutcomeCounts other) {
        for (int i = 0; i < counts.length; i++) {
            counts[i] += other.counts[i];
        }
        mismatch += other.mismatch;
    }

    public void reset() {
        java.util.Arrays.fill(counts, 0);
        mismatch = 0;
    }

    public long get(Outcome outcome) {
        return counts[outcome.ordinal()];
    }

    public long requests() {
        long sum = 0;
        for (long c : counts) {
            sum += c;
        }
        return sum;
    }

    public long ok() {
        return get(Outcome.OK);
    }

    public long miss() {
        return get(Outcome.MISS);
    }

    public long error() {
        return get(Outcome.ERROR);
    }

    public long timeout() {
        return get(Outcome.TIMEOUT);
    }

    public long closed() {
        return get(Outcome.CLOSED);
    }

    /** Of the errors, the reads whose value was not the one the run writes for the key. */
    public long mismatch() {
        return mismatch;
    }

    /** Answered requests (ok or miss) as a percentage of all; 0 when there were none. */
    public double successPercent() {
        long requests = requests();
        return requests == 0 ? 0 : 100.0 * (ok() + miss()) / requests;
    }

    public OutcomeCounts copy() {
        OutcomeCounts c = new OutcomeCounts();
        c.add(this);
        return c;
    }
}
