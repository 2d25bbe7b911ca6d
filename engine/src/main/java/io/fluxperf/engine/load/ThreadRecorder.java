package io.fluxperf.engine.load;

import io.fluxperf.engine.connection.TcpProbe;
import io.fluxperf.engine.metrics.SendLateness;
import io.fluxperf.engine.metrics.ServerStats;
import io.fluxperf.engine.metrics.ThreadCpu;
import io.fluxperf.engine.metrics.WorkloadStats;
import io.fluxperf.engine.netty.AlarmIoHandler;
import io.fluxperf.engine.request.Outcome;
import io.fluxperf.engine.request.Request;
import io.fluxperf.engine.trace.ThreadTracer;
import io.fluxperf.trace.LatencyHistograms;

/**
 * One load thread's interval recorder: per workload the outcomes, bytes and latencies, the send
 * lag, connect times and connection events, each recorded once into the interval going on, which
 * the run's clock swaps out at the next boundary any report needs ({@link RunClock}); how the
 * thread kept its schedule over the whole run ({@link LateSendTracker}); and a trace record per
 * request. HdrHistogram's {@code SingleWriterRecorder} has the same shape: one writer, two buffers,
 * a swap.
 *
 * <h2>Assumptions and guarantees</h2>
 * <ul>
 *   <li>Every recording call comes on the thread's event loop; nothing here locks.</li>
 *   <li>Each outcome is recorded once, whatever reports the run makes (invariant 14): the reports'
 *       cadences are consumers of the swapped-out intervals, on the run's thread.</li>
 *   <li>{@link #swap} hands out the interval's figures and takes in ones handed out before, emptied
 *       by the run's thread (HdrHistogram's {@code Recorder.getIntervalHistogram(toRecycle)}
 *       habit): a swap allocates nothing and clears nothing on the loop.</li>
 *   <li>A request is counted in the figures of the interval in which it ends.</li>
 * </ul>
 */
final class ThreadRecorder {
    private final int workloadCount;
    private ThreadFigures current;
    private final LateSendTracker lateness = new LateSendTracker(this::loopWorkNanos);
    private final ThreadTracer tracer;
    private final AlarmIoHandler alarm;
    /** Requests of this phase are traced (not those of flush and preload). */
    private boolean tracing;
    /** Requests ending now belong to the warm-up. */
    private boolean warmingUp;
    /** Reads answered in the warm-up, hits and misses, for a warm-up to a hit rate (never emptied: not its figures). */
    private long warmupHits;
    private long warmupMisses;
    /** The loop thread's working time at the start of the current interval; -1 unknown. */
    private long loopCpuMark = -1;
    /** Several servers: their shapes (see {@link ThreadFigures#servers}); null with one. */
    private final java.util.List<ServerStats> serverShapes;

    /**
     * @param tracer where trace records go; null without a trace
     * @param alarm  the loop's alarm, which knows the loop's idle polls
     */
    ThreadRecorder(int workloadCount, ThreadTracer tracer, AlarmIoHandler alarm) {
        this(workloadCount, tracer, alarm, null);
    }

    /** @param serverShapes a run with several servers: one empty figure per server, and one for requests sent to none */
    ThreadRecorder(int workloadCount, ThreadTracer tracer, AlarmIoHandler alarm, java.util.List<ServerStats> serverShapes) {
        this.serverShapes = serverShapes;
        this.workloadCount = workloadCount;
        this.current = ThreadFigures.interval(workloadCount, serverShapes);
        this.tracer = tracer;
        this.alarm = alarm;
    }

    int workloadCount() {
        return workloadCount;
    }

    /** Emptied figures of this recorder's shape, for a swap. */
    ThreadFigures newFigures() {
        return ThreadFigures.interval(workloadCount, serverShapes);
    }

    /**
     * A phase starts: whether its requests are traced, whether it begins with a warm-up, and its
     * schedule's zero ({@link System#nanoTime()}).
     */
    void phase(boolean traced, boolean warmup, long startNanos) {
        tracing = traced && tracer != null;
        warmingUp = warmup;
        warmupHits = 0;
        warmupMisses = 0;
        loopCpuMark = loopWorkNanos();
        lateness.begin(startNanos, System.nanoTime());
    }

    /** The warm-up is over: later requests are measured (and traced as such), and late ones counted afresh. */
    void endWarmup() {
        warmingUp = false;
        lateness.clear(System.nanoTime());
    }

    // ---- the hot path ----

    void sent(Request r, int bytes, long nowNanos) {
        current.workloads[r.workload()].recordSent(bytes);
        if (current.servers != null) {
            sentAgain(r);
        }
        if (r.isScheduled()) {
            LatencyHistograms.record(current.sendLag, Math.max(0, nowNanos - r.intendedNanos()));
            lateness.sent(r.intendedNanos(), r.sourceNanos(), nowNanos);
        }
    }

    /** A request went out to its server ({@link Request#server()}); again after a redirect, to the node named. */
    void sentAgain(Request r) {
        int i = r.server();
        if (current.servers != null && i >= 0) {
            current.servers[i].recordSent();
        }
    }

    /** Server {@code server} answered with a redirect (MOVED when {@code moved}, else ASK). */
    void redirected(int server, boolean moved) {
        if (current.servers != null && server >= 0) {
            current.servers[server].recordRedirect(moved);
        }
    }

    /** The loop's periodic check (every few ms): lets the schedule's account sample the CPU clock. */
    void tick(long nowNanos) {
        lateness.tick(nowNanos);
    }

    /** How a request ended; call before it goes back to its pool. */
    void completed(Request r, Outcome outcome, long nowNanos, int responseBytes, int replyClass) {
        WorkloadStats s = current.workloads[r.workload()];
        if (replyClass > 0) {
            s.recordReplyClass(replyClass);
        }
        long latency = nowNanos - r.latencyOriginNanos();
        s.record(outcome, outcome == Outcome.ERROR && r.valueMismatched(), latency, nowNanos - r.sentNanos(), responseBytes);
        if (current.servers != null) {
            // a request sent to no server (its keys on several) counts in the last figure
            int i = r.server() >= 0 ? r.server() : current.servers.length - 1;
            current.servers[i].record(outcome, latency);
        }
        if (tracing) {
            tracer.record(r, outcome, nowNanos, responseBytes, warmingUp);
        }
        if (outcome == Outcome.OK && r.ledger() != null) {
            r.ledger().accepted(r, !warmingUp); // a publish's message, which every subscriber is to receive
        }
        if (warmingUp && r.command().isRead()) {
            if (outcome == Outcome.OK) {
                warmupHits++;
            } else if (outcome == Outcome.MISS) {
                warmupMisses++;
            }
        }
    }

    /** Due requests waited {@code nanos} for a connection with room; {@code behind}: the wait began with a backlog. */
    void roomWait(long nanos, boolean behind) {
        current.connections.addRoomWait(nanos, behind);
    }

    // ---- connection events ----

    void connectAttempt() {
        current.connections.attempt();
    }

    void connectionOpened() {
        current.connections.opened();
    }

    void connectFailed() {
        current.connections.failed();
    }

    void connectionClosed() {
        current.connections.closed();
    }

    /** One connection's TCP_INFO, just read by {@code probe}. */
    void tcpSample(TcpProbe probe) {
        current.tcp.record(probe.rttMicros(), probe.retransmitted(), probe.lost());
    }

    /** A round of TCP samples over the thread's connections is over. */
    void tcpRoundDone() {
        current.tcp.roundDone();
    }

    /** A connection is ready for load {@code nanos} after its connect began. */
    void connectTime(long nanos) {
        LatencyHistograms.record(current.connectLatency, nanos);
    }

    // ---- handing figures to the run's thread, on the loop ----

    /**
     * Ends the interval: returns its figures and records into {@code spare} from now on.
     *
     * @param spare emptied figures of this recorder's shape (the ones a swap returned before, or new)
     * @param open  the thread's connections open now
     */
    ThreadFigures swap(ThreadFigures spare, long open, long takenNanos) {
        ThreadFigures out = current;
        current = spare;
        out.connections.setOpen(open);
        long cpu = loopWorkNanos();
        out.loopCpuNanos = cpu < 0 || loopCpuMark < 0 ? ThreadFigures.UNKNOWN_CPU : cpu - loopCpuMark;
        loopCpuMark = cpu;
        out.takenNanos = takenNanos;
        return out;
    }

    /** How this thread kept its schedule since its phase began (or its warm-up ended). */
    SendLateness lateness() {
        return lateness.snapshot();
    }

    /** The reads answered in the warm-up so far: hits and misses since the phase began. */
    WarmupReads warmupReads() {
        return new WarmupReads(warmupHits, warmupMisses);
    }

    /** One thread's answered reads of the warm-up, since its phase began. */
    record WarmupReads(long hits, long misses) {
    }

    /**
     * The loop thread's CPU time less its idle polls under --busy-poll (the time it worked, which
     * says whether it had room to spare); -1 when the CPU time is unknown. On the loop.
     */
    private long loopWorkNanos() {
        long cpu = ThreadCpu.currentThreadNanos();
        return cpu < 0 ? -1 : cpu - alarm.idlePollNanos();
    }
}
