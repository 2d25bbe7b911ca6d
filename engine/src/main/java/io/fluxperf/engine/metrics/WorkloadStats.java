package io.fluxperf.engine.metrics;

import io.fluxperf.engine.request.Outcome;
import io.fluxperf.trace.LatencyHistograms;
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
    private final Histogram latency;
    private final Histogram service;
    private long bytesSent;
    private long sent;
    /** Replies by class (HTTP: index 2 counts 2xx, …); index 0 unused. */
    private final long[] replyClasses = new long[6];
    private long bytesReceived;

    public WorkloadStats() {
        this(LatencyHistograms.create(), LatencyHistograms.create());
    }

    private WorkloadStats(Histogram latency, Histogram service) {
        this.latency = latency;
        this.service = service;
    }

    /**
     * A copy whose histograms take memory by the values they hold rather than by their range
     * (a few KB instead of 270 KB each): for results that are kept, not recorded into, such as
     * every window of a long run.
     */
    public WorkloadStats compact() {
        WorkloadStats c = new WorkloadStats(LatencyHistograms.compact(latency), LatencyHistograms.compact(service));
        c.outcomes.add(outcomes);
        c.bytesSent = bytesSent;
        c.sent = sent;
        System.arraycopy(replyClasses, 0, c.replyClasses, 0, replyClasses.length);
        c.bytesReceived = bytesReceived;
        return c;
    }

    /**
     * @param latencyNanos completion minus latency origin, ns
     * @param serviceNanos completion minus write, ns
     */
    public void record(Outcome outcome, long latencyNanos, long serviceNanos, int responseBytes) {
        outcomes.increment(outcome);
        LatencyHistograms.record(latency, latencyNanos);
        LatencyHistograms.record(service, serviceNanos);
        bytesReceived += responseBytes;
    }

    public void recordSent(int requestBytes) {
        sent++;
        bytesSent += requestBytes;
    }

    public void add(WorkloadStats other) {
        outcomes.add(other.outcomes);
        latency.add(other.latency);
        service.add(other.service);
        bytesSent += other.bytesSent;
        sent += other.sent;
        for (int i = 0; i < replyClasses.length; i++) {
            replyClasses[i] += other.replyClasses[i];
        }
        bytesReceived += other.bytesReceived;
    }

    public void reset() {
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

    public Histogram latency() {
        return latency;
    }

    public Histogram service() {
        return service;
    }

    /** Counts a reply of class {@code c} (1..5); other values are ignored. */
    public void recordReplyClass(int c) {
        if (c > 0 && c < replyClasses.length) {
            replyClasses[c]++;
        }
    }

    /** Replies of class {@code c} (HTTP: 2 → 2xx). */
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
