package io.fluxperf.engine.load;

import io.fluxperf.engine.connection.TcpProbe;
import io.fluxperf.engine.metrics.ConnectionCounts;
import io.fluxperf.engine.metrics.SendLateness;
import io.fluxperf.engine.metrics.ServerStats;
import io.fluxperf.engine.metrics.TcpHealth;
import io.fluxperf.engine.metrics.ThreadCpu;
import io.fluxperf.engine.metrics.WorkloadStats;
import io.fluxperf.engine.netty.AlarmIoHandler;
import io.fluxperf.engine.request.Outcome;
import io.fluxperf.engine.request.Request;
import io.fluxperf.engine.trace.ThreadTracer;
import io.fluxperf.trace.LatencyHistograms;
import org.HdrHistogram.Histogram;

/**
 * One load thread's figures and trace: per workload the outcomes, bytes and latencies, the send
 * lag, connect times and connection events, kept for the window (swapped out at its end) and for
 * the statistics block; how the thread kept its schedule over the whole run ({@link LateSendTracker});
 * and a trace record per request.
 *
 * <h2>Assumptions and guarantees</h2>
 * <ul>
 *   <li>Every recording call comes on the thread's event loop; nothing here locks.</li>
 *   <li>{@link #swap} hands out the window's figures and takes in the ones handed out before,
 *       emptied by the run's thread (HdrHistogram's {@code Recorder.getIntervalHistogram(toRecycle)}
 *       habit): a window's end allocates nothing and clears nothing on the loop.</li>
 *   <li>A request is counted in the figures of the interval in which it ends.</li>
 * </ul>
 */
final class ThreadRecorder {
    private final int workloadCount;
    private ThreadFigures current;
    /** The figures of the second going on (a run directory's seconds.hlog); null when not kept. */
    private ThreadFigures second;
    /** All workloads together since the last statistics block (dperf's per-second lines); null without --stats-interval. */
    private final WorkloadStats interval;
    private final ConnectionCounts intervalConnections = new ConnectionCounts();
    /** The statistics block's TCP samples (kept even without --stats-interval: a sample a second is cheap). */
    private final TcpHealth intervalTcp = new TcpHealth();
    /**
     * Each workload's latency and service time since the last statistics block, for the admin
     * endpoint (null without it); handed out and taken back in turns, as {@link #intervalLag} is.
     */
    private Histogram[] intervalLatency;
    private Histogram[] intervalService;
    private Histogram[] handedOutLatency;
    private Histogram[] handedOutService;
    /**
     * The statistics block's send lag, and the one handed out with the block before: the two take
     * turns, so that a block allocates no histogram; the run's thread has read the one it got
     * before it asks for the next block. Null without --stats-interval.
     */
    private Histogram intervalLag;
    private Histogram handedOutLag;
    private final LateSendTracker lateness = new LateSendTracker(this::loopWorkNanos);
    /** Filled by {@link #live()}, reused: a copy per second was most of a paced run's garbage. */
    private final Histogram liveLatency = LatencyHistograms.create();
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
    /** Several servers: their shapes (see {@link ThreadFigures#servers}), and their statistics block's figures; null with one. */
    private final java.util.List<ServerStats> serverShapes;
    private final ServerStats[] intervalServers;

    /**
     * @param intervalStats keep the statistics block's figures too (--stats-interval)
     * @param tracer        where trace records go; null without a trace
     * @param alarm         the loop's alarm, which knows the loop's idle polls
     */
    ThreadRecorder(int workloadCount, boolean intervalStats, ThreadTracer tracer, AlarmIoHandler alarm) {
        this(workloadCount, intervalStats, tracer, alarm, null);
    }

    /** @param serverShapes a run with several servers: one empty figure per server, and one for requests sent to none */
    ThreadRecorder(int workloadCount, boolean intervalStats, ThreadTracer tracer, AlarmIoHandler alarm,
                   java.util.List<ServerStats> serverShapes) {
        this.serverShapes = serverShapes;
        this.intervalServers = serverShapes != null && intervalStats
                ? serverShapes.stream().map(ServerStats::emptyCopy).toArray(ServerStats[]::new) : null;
        this.workloadCount = workloadCount;
        this.current = new ThreadFigures(workloadCount, serverShapes);
        this.interval = intervalStats ? new WorkloadStats() : null;
        this.intervalLag = intervalStats ? LatencyHistograms.create() : null;
        this.handedOutLag = intervalStats ? LatencyHistograms.create() : null;
        this.tracer = tracer;
        this.alarm = alarm;
    }

    /** Keeps each workload's latency in the statistics block too (the admin endpoint's summaries). */
    void intervalPerWorkload() {
        intervalLatency = adminHistograms(workloadCount);
        intervalService = adminHistograms(workloadCount);
        handedOutLatency = adminHistograms(workloadCount);
        handedOutService = adminHistograms(workloadCount);
    }

    /**
     * Histograms for the admin endpoint's summaries: two significant digits (quantiles within 1 %)
     * keep them an eighth of the report's size, as there is one per workload, thread and turn.
     */
    static Histogram[] adminHistograms(int n) {
        Histogram[] out = new Histogram[n];
        for (int i = 0; i < n; i++) {
            out[i] = new Histogram(1, LatencyHistograms.HIGHEST_TRACKABLE_NANOS, 2);
        }
        return out;
    }

    int workloadCount() {
        return workloadCount;
    }

    /** Emptied figures of this recorder's shape, for a swap. */
    ThreadFigures newFigures() {
        return new ThreadFigures(workloadCount, serverShapes);
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
        if (second != null) {
            second.workloads[r.workload()].recordSent(bytes);
            if (r.isScheduled()) {
                LatencyHistograms.record(second.sendLag, Math.max(0, nowNanos - r.intendedNanos()));
            }
        }
        if (current.servers != null) {
            sentAgain(r);
        }
        if (interval != null) {
            interval.recordSent(bytes);
        }
        if (r.isScheduled()) {
            long lag = Math.max(0, nowNanos - r.intendedNanos());
            LatencyHistograms.record(current.sendLag, lag);
            if (intervalLag != null) {
                LatencyHistograms.record(intervalLag, lag);
            }
            lateness.sent(r.intendedNanos(), r.sourceNanos(), nowNanos);
        }
    }

    /** A request went out to its server ({@link Request#server()}); again after a redirect, to the node named. */
    void sentAgain(Request r) {
        int i = r.server();
        if (current.servers != null && i >= 0) {
            current.servers[i].recordSent();
            if (intervalServers != null) {
                intervalServers[i].recordSent();
            }
        }
    }

    /** Server {@code server} answered with a redirect (MOVED when {@code moved}, else ASK). */
    void redirected(int server, boolean moved) {
        if (current.servers != null && server >= 0) {
            current.servers[server].recordRedirect(moved);
            if (intervalServers != null) {
                intervalServers[server].recordRedirect(moved);
            }
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
        long service = nowNanos - r.sentNanos();
        boolean mismatch = outcome == Outcome.ERROR && r.valueMismatched();
        s.record(outcome, mismatch, latency, service, responseBytes);
        if (second != null) {
            WorkloadStats inSecond = second.workloads[r.workload()];
            if (replyClass > 0) {
                inSecond.recordReplyClass(replyClass);
            }
            inSecond.record(outcome, mismatch, latency, service, responseBytes);
        }
        if (interval != null) {
            interval.record(outcome, mismatch, latency, service, responseBytes);
        }
        if (intervalLatency != null) {
            LatencyHistograms.record(intervalLatency[r.workload()], latency);
            LatencyHistograms.record(intervalService[r.workload()], service);
        }
        if (current.servers != null) {
            // a request sent to no server (its keys on several) counts in the last figure
            int i = r.server() >= 0 ? r.server() : current.servers.length - 1;
            current.servers[i].record(outcome, latency);
            if (intervalServers != null) {
                intervalServers[i].record(outcome, latency);
            }
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
        intervalConnections.addRoomWait(nanos, behind);
    }

    // ---- connection events ----

    void connectAttempt() {
        current.connections.attempt();
        intervalConnections.attempt();
    }

    void connectionOpened() {
        current.connections.opened();
        intervalConnections.opened();
    }

    void connectFailed() {
        current.connections.failed();
        intervalConnections.failed();
    }

    void connectionClosed() {
        current.connections.closed();
        intervalConnections.closed();
    }

    /** One connection's TCP_INFO, just read by {@code probe}. */
    void tcpSample(TcpProbe probe) {
        current.tcp.record(probe.rttMicros(), probe.retransmitted(), probe.lost());
        intervalTcp.record(probe.rttMicros(), probe.retransmitted(), probe.lost());
    }

    /** A round of TCP samples over the thread's connections is over. */
    void tcpRoundDone() {
        current.tcp.roundDone();
        intervalTcp.roundDone();
    }

    /** A connection is ready for load {@code nanos} after its connect began. */
    void connectTime(long nanos) {
        LatencyHistograms.record(current.connectLatency, nanos);
        if (second != null) {
            LatencyHistograms.record(second.connectLatency, nanos);
        }
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
        out.loopCpuNanos = cpu < 0 || loopCpuMark < 0 ? -1 : cpu - loopCpuMark;
        loopCpuMark = cpu;
        out.takenNanos = takenNanos;
        return out;
    }

    /** Empties the second's figures in place (with figures that are not kept: the warm-up's, the preload's). */
    void dropSecond() {
        if (second != null) {
            second.reset();
        }
    }

    /** From now on, also keeps each second's figures ({@link #swapSecond}); on the loop. */
    void keepSeconds() {
        if (second == null) {
            second = newFigures();
        }
    }

    /**
     * Ends the second going on: returns its figures and records into {@code spare} from now on.
     *
     * @param spare emptied figures of this recorder's shape
     */
    ThreadFigures swapSecond(ThreadFigures spare, long takenNanos) {
        ThreadFigures out = second;
        second = spare;
        if (out != null) {
            out.takenNanos = takenNanos;
        }
        return out;
    }

    /** Empties the current figures in place (the warm-up's, which are not kept). */
    void clear() {
        current.reset();
        dropSecond();
        lateness.clear(System.nanoTime());
    }

    /** How this thread kept its schedule since its phase began (or its warm-up ended). */
    SendLateness lateness() {
        return lateness.snapshot();
    }

    /**
     * The window's figures so far, for the live line, without copying histograms: the latency
     * comes in a histogram this recorder reuses, so the caller reads it before asking again.
     */
    LiveCounts live() {
        long requests = 0;
        long failed = 0;
        liveLatency.reset();
        for (WorkloadStats w : current.workloads) {
            requests += w.outcomes().requests();
            failed += w.outcomes().error() + w.outcomes().timeout() + w.outcomes().closed();
            liveLatency.add(w.latency());
        }
        return new LiveCounts(requests, failed, liveLatency);
    }

    /**
     * The window's counts so far, each workload apart, and its connection events (the admin
     * endpoint's counters: the closed windows plus these). Counts only, no histogram: cheap on the loop.
     */
    WindowSoFar windowSoFar(long open) {
        long[][] counts = new long[workloadCount][];
        for (int i = 0; i < workloadCount; i++) {
            counts[i] = WindowSoFar.counts(current.workloads[i]);
        }
        ConnectionCounts c = current.connections.copy();
        c.setOpen(open);
        return new WindowSoFar(counts, c);
    }

    /**
     * One thread's part of the running window (see {@link #windowSoFar}): per workload its
     * ok, miss, error, timeout, closed, sent, bytes received and bytes sent.
     */
    record WindowSoFar(long[][] counts, ConnectionCounts connections) {
        static long[] counts(WorkloadStats w) {
            return new long[] {w.outcomes().ok(), w.outcomes().miss(), w.outcomes().error(), w.outcomes().timeout(),
                    w.outcomes().closed(), w.sent(), w.bytesReceived(), w.bytesSent()};
        }
    }


    /**
     * The statistics block's figures since the last call, which starts them again from zero. Its
     * send lag is a histogram this recorder reuses: the caller reads it before asking again.
     */
    IntervalFigures interval(long open) {
        WorkloadStats all = interval != null ? interval.copy() : new WorkloadStats();
        if (interval != null) {
            interval.reset();
        }
        ConnectionCounts connections = intervalConnections.copy();
        connections.setOpen(open);
        intervalConnections.reset();
        Histogram lag = intervalLag;
        if (lag != null) {
            intervalLag = handedOutLag;
            intervalLag.reset();
            handedOutLag = lag;
        }
        java.util.List<ServerStats> servers = null;
        if (intervalServers != null) {
            servers = new java.util.ArrayList<>();
            for (ServerStats s : intervalServers) {
                servers.add(s.copy());
                s.reset();
            }
        }
        Histogram[] latency = intervalLatency;
        Histogram[] service = intervalService;
        if (latency != null) {
            intervalLatency = handedOutLatency;
            intervalService = handedOutService;
            for (int i = 0; i < workloadCount; i++) {
                intervalLatency[i].reset();
                intervalService[i].reset();
            }
            handedOutLatency = latency;
            handedOutService = service;
        }
        TcpHealth tcp = intervalTcp.copy();
        intervalTcp.reset();
        return new IntervalFigures(all, connections, lag, servers, tcp, latency, service);
    }

    /**
     * One thread's part of a statistics block: every workload together, the connection events,
     * the paced requests' send lag (null without --stats-interval) and, with several servers, each
     * one's figures (else null).
     */
    record IntervalFigures(WorkloadStats all, ConnectionCounts connections, Histogram sendLag,
                           java.util.List<ServerStats> servers, TcpHealth tcp, Histogram[] latencyByWorkload,
                           Histogram[] serviceByWorkload) {
    }

    /** The reads answered in the warm-up so far: hits and misses since the phase began. */
    WarmupReads warmupReads() {
        return new WarmupReads(warmupHits, warmupMisses);
    }

    /** One thread's answered reads of the warm-up, since its phase began. */
    record WarmupReads(long hits, long misses) {
    }

    /** One thread's part of a live sample: requests and failures so far, and their latency. */
    record LiveCounts(long requests, long failed, Histogram latency) {
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
