package io.fluxperf.engine.report;

import io.fluxperf.engine.metrics.OutcomeCounts;

/**
 * One snapshot of the outcome counters. {@code requests} is computed here as the sum of the five
 * outcomes read in the same snapshot, so every report that prints a {@code Counts} reconciles
 * (requests = ok + miss + error + timeout + closed) by construction. {@code mismatch} is a part of
 * {@code error}: reads whose value was not the one the run writes for the key.
 */
public record Counts(long requests, long ok, long miss, long error, long timeout, long closed, long mismatch) {

    public static Counts of(OutcomeCounts o) {
        long ok = o.ok();
        long miss = o.miss();
        long error = o.error();
        long timeout = o.timeout();
        long closed = o.closed();
        return new Counts(ok + miss + error + timeout + closed, ok, miss, error, timeout, closed, o.mismatch());
    }

    /** Answered (ok or miss) as a percentage of all requests; null when there were none. */
    public Double successPercent() {
        return requests == 0 ? null : 100.0 * (ok + miss) / requests;
    }

    /** Hits (ok) among answered reads, as a percentage; null when nothing was answered. */
    Double hitPercent() {
        long answered = ok + miss;
        return answered == 0 ? null : 100.0 * ok / answered;
    }
}
