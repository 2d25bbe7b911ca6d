package io.fluxperf.engine.trace;

import io.fluxperf.engine.request.Outcome;
import io.fluxperf.engine.request.Request;
import io.fluxperf.trace.TraceRecord;
import io.fluxperf.trace.TraceWriter;

/** Writes one trace record per ended request, from one event-loop thread (always the same one), reusing one record. */
public final class ThreadTracer {
    private final TraceWriter writer;
    private final long originNanos;
    private final TraceRecord record = new TraceRecord();
    /** The writer's appender for the event loop, taken on its first record there. */
    private TraceWriter.ThreadAppender appender;

    ThreadTracer(TraceWriter writer, long originNanos) {
        this.writer = writer;
        this.originNanos = originNanos;
    }

    /**
     * @param completionNanos when it ended, System.nanoTime()
     * @param warmup          it ended during the warm-up, which reports leave out
     */
    public void record(Request r, Outcome outcome, long completionNanos, int responseBytes, boolean warmup) {
        long sent = r.sentNanos() - originNanos;
        record.clear()
                .intendedSendNanos(r.latencyOriginNanos() - originNanos) // latency's origin (never after the write)
                .actualSendNanos(sent)
                .completionNanos(completionNanos - originNanos)
                .workload(r.workload())
                .protocol(0)
                .command(r.command().ordinal())
                .outcome(outcome.ordinal())
                .warmup(warmup)
                .keyCount(r.keyCount())
                .valueSize(r.valueLength())
                .requestBytes(r.requestBytes())
                .responseBytes(responseBytes)
                .connectionId(r.connectionId());
        if (r.keyCount() > 0) {
            record.key(r.keyBytes(), r.keyOffset(0), r.keyLength(0));
        }
        if (appender == null) {
            appender = writer.forThisThread();
        }
        appender.append(record);
    }
}
