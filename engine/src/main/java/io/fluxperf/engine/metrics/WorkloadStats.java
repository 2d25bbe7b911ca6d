package io.fluxperf.engine.metrics;

import io.fluxperf.engine.protocol.ReplyClasses;
import io.fluxperf.engine.request.Outcome;
import io.fluxperf.trace.LatencyHistograms;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.Histogram;

/**
 * Outcomes, bytes and latency of one workload over one interval. Written by one thread only.
 * {@code latency} is measured from the intended send time in open-loop runs (no coordinated
 * omission) and from the write in closed-loop runs; {@code service} is always from the write.
 * Every request is timed at its end, whatever its outcome (a timeout counts with the time it
 * took to give up), so the histograms' counts equal the request count, as in {@code trace stats}.
 */
public final class WorkloadStats {
    private final OutcomeCounts outcomes = new OutcomeCounts();
    /**
     * Int counts in one load thread's interval ({@link #interval()}), long ones in sums; null in a
     * kept copy ({@link #compact()}), which holds {@link #keptLatency} instead.
     */
    private final AbstractHistogram latency;
    private final AbstractHistogram service;
    private final KeptHistogram keptLatency;
    private final KeptHistogram keptService;
    private long bytesSent;
    private long sent;
    /** Replies by the protocol's reply class, from 1 ({@link io.fluxperf.engine.protocol.ReplyClasses}); index 0 unused. */
    private final long[] replyClasses = new long[ReplyClasses.MAX + 1];
    private long bytesReceived;

    /** Empty figures whose histograms count in longs: for sums, which have no bound. */
    public WorkloadStats() {
        this(newHistogram(), newHistogram());
    }

    /**
     * Empty figures for one load thread's interval, whose histograms count in ints (half the memory,
     * {@link LatencyHistograms#createInterval()}): the run's clock ends an interval before it could
     * count 2^31 requests in one bucket. Adding them into sums ({@link #add}) is exact.
     */
    public static WorkloadStats interval() {
        return new WorkloadStats(LatencyHistograms.createInterval(), LatencyHistograms.createInterval());
    }

    /** A new, empty latency histogram of the range and precision every figure uses. */
    public static Histogram newHistogram() {
        return LatencyHistograms.create();
    }

    private WorkloadStats(AbstractHistogram latency, AbstractHistogram service) {
        this.latency = latency;
        this.service = service;
        this.keptLatency = null;
        this.keptService = null;
    }

    private WorkloadStats(KeptHistogram latency, KeptHistogram service) {
        this.latency = null;
        this.service = null;
        this.keptLatency = latency;
        this.keptService = service;
    }

    /**
     * A read-only copy whose histograms are kept encoded ({@link KeptHistogram}: a few KB instead
     * of 270 KB each): for results that are kept, not recorded into, such as every window of a
     * long run. Its {@link #latency()} and {@link #service()} decode a new histogram on each call.
     */
    public WorkloadStats compact() {
        return compact(new KeptHistogram.Encoder());
    }

    /** {@link #compact()} through the caller's encoder (one buffer for many copies). */
    public WorkloadStats compact(KeptHistogram.Encoder encoder) {
        return kept(encoder.keep(latency()), encoder.keep(service()));
    }

    /** A read-only copy with this one's counts and the given encodings of its histograms ({@link #compact()} in steps). */
    public WorkloadStats kept(KeptHistogram latency, KeptHistogram service) {
        WorkloadStats c = new WorkloadStats(latency, service);
        c.outcomes.add(outcomes);
        c.bytesSent = bytesSent;
        c.sent = sent;
        System.arraycopy(replyClasses, 0, c.replyClasses, 0, replyClasses.length);
        c.bytesReceived = bytesReceived;
        return c;
    }

    /**
     * Figures read back from a run's files (a run directory): the counts and bytes it wrote, and
     * its histograms added into new ones of the usual range and precision.
     *
     * @param replyClasses replies by reply class, from index 1 (index 0 unused); null: none
     */
    public static WorkloadStats restored(OutcomeCounts outcomes, long sent, long bytesSent, long bytesReceived,
                                         long[] replyClasses, Histogram latency, Histogram service) {
        WorkloadStats s = new WorkloadStats();
        s.outcomes.add(outcomes);
        s.sent = sent;
        s.bytesSent = bytesSent;
        s.bytesReceived = bytesReceived;
        if (replyClasses != null) {
            System.arraycopy(replyClasses, 0, s.replyClasses, 0, Math.min(replyClasses.length, s.replyClasses.length));
        }
        s.latency.add(latency);
        s.service.add(service);
        return s;
    }

    /**
     * @param latencyNanos completion minus latency origin, ns
     * @param serviceNanos completion minus write, ns
     */
    public void record(Outcome outcome, long latencyNanos, long serviceNanos, int responseBytes) {
        record(outcome, false, latencyNanos, serviceNanos, responseBytes);
    }

    /**
     * @param mismatch the request is an ERROR that read a value other than the one written
     *                 ({@link OutcomeCounts#mismatch()})
     */
    public void record(Outcome outcome, boolean mismatch, long latencyNanos, long serviceNanos, int responseBytes) {
        // a kept copy's null histograms throw here: it is never handed to a load loop
        if (mismatch) {
            outcomes.incrementMismatch();
        } else {
            outcomes.increment(outcome);
        }
        LatencyHistograms.record(latency, latencyNanos);
        LatencyHistograms.record(service, serviceNanos);
        bytesReceived += responseBytes;
    }

    public void recordSent(int requestBytes) {
        sent++;
        bytesSent += requestBytes;
    }

    public void add(WorkloadStats other) {
        addCounts(other);
        latency.add(other.latency());
        service.add(other.service());
    }

    /** Adds {@code other}'s counts and bytes, not its histograms (add those with {@link #latency()} and {@link #service()}). */
    public void addCounts(WorkloadStats other) {
        requireRecordable();
        outcomes.add(other.outcomes);
        bytesSent += other.bytesSent;
        sent += other.sent;
        for (int i = 0; i < replyClasses.length; i++) {
            replyClasses[i] += other.replyClasses[i];
        }
        bytesReceived += other.bytesReceived;
    }

    public void reset() {
        requireRecordable();
        outcomes.reset();
        latency.reset();
        service.reset();
        bytesSent = 0;
        sent = 0;
        java.util.Arrays.fill(replyClasses, 0);
        bytesReceived = 0;
    }

    public WorkloadStats copy() {
        WorkloadStats c = new WorkloadStats();
        c.add(this);
        return c;
    }

    public OutcomeCounts outcomes() {
        return outcomes;
    }

    /** The latency histogram; a kept copy's is decoded anew on each call. */
    public AbstractHistogram latency() {
        return latency != null ? latency : keptLatency.histogram();
    }

    /** The service-time histogram; a kept copy's is decoded anew on each call. */
    public AbstractHistogram service() {
        return service != null ? service : keptService.histogram();
    }

    /** Whether this is a kept, read-only copy made by {@link #compact()}. */
    public boolean isKept() {
        return latency == null;
    }

    /** Bytes held by the histograms: their counts' footprint, or the kept copy's encoding. */
    public long histogramBytes() {
        return isKept() ? keptLatency.encodedBytes() + keptService.encodedBytes()
                : latency.getEstimatedFootprintInBytes() + service.getEstimatedFootprintInBytes();
    }

    private void requireRecordable() {
        if (isKept()) {
            throw new IllegalStateException("a kept copy of workload figures is read-only");
        }
    }

    /** Counts a reply of class {@code c} (from 1); other values are ignored. */
    public void recordReplyClass(int c) {
        if (c > 0 && c < replyClasses.length) {
            replyClasses[c]++;
        }
    }

    /** Replies of class {@code c}. */
    public long replyClass(int c) {
        return replyClasses[c];
    }

    public boolean hasReplyClasses() {
        for (long n : replyClasses) {
            if (n > 0) {
                return true;
            }
        }
        return false;
    }

    /** Requests written in the interval (they may end in a later one). */
    public long sent() {
        return sent;
    }

    public long bytesSent() {
        return bytesSent;
    }

    public long bytesReceived() {
        return bytesReceived;
    }
}
