package io.fluxperf.engine.load;

import io.fluxperf.engine.metrics.ConnectionCounts;
import io.fluxperf.engine.metrics.ServerStats;
import io.fluxperf.engine.metrics.TcpHealth;
import io.fluxperf.engine.metrics.WorkloadStats;
import io.fluxperf.trace.LatencyHistograms;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.AbstractHistogram;

/**
 * One thread's counts and histograms for an interval, handed from its event loop to the run's
 * thread. Recycled: the run's thread empties the figures it has read ({@link #reset()}) and hands
 * them back for the next swap ({@link ThreadRecorder#swap}), so a window's end allocates nothing.
 * The same shape holds sums of intervals ({@link FigureSum}).
 *
 * <p>A thread's interval counts its latencies in ints ({@link #interval}), which halves the largest
 * part of a run's heap and keeps each histogram within one 256-KB region of Shenandoah's (a 270-KB
 * one takes two). No bucket can reach 2^31 in one interval: the run's clock ends every interval
 * within {@link #MAX_INTERVAL_NANOS} (and a long preload swaps as often), in which a thread would
 * have to end more than 2^31 − 1 requests: twice the highest rate a run may ask for (10^9/s over
 * all its threads), and far beyond what a load thread ends closed loop (under a million a second).
 * HdrHistogram checks each count too, and throws rather than wrap. Sums over windows, seconds and
 * the run count in longs.
 */
final class ThreadFigures {
    /**
     * The longest a load thread records into one interval before the run's clock swaps it out:
     * 2^31 − 1 counts in one bucket would take more than 10^9 requests a second on one thread.
     */
    static final long MAX_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

    final WorkloadStats[] workloads;
    final ConnectionCounts connections = new ConnectionCounts();
    /** The kernel's TCP_INFO of the thread's connections, sampled about once a second. */
    final TcpHealth tcp = new TcpHealth();
    /** Actual minus intended send time of paced requests, ns. */
    final AbstractHistogram sendLag;
    /** Connect start to ready for load (TCP, TLS and protocol handshakes), per connection made, ns. */
    final AbstractHistogram connectLatency;
    /** Marks a {@link #loopCpuNanos} that is not known (a difference of two readings may be below zero). */
    static final long UNKNOWN_CPU = Long.MIN_VALUE;
    /**
     * CPU time the thread's event loop used in the interval (less its idle polls under --busy-poll),
     * ns; {@link #UNKNOWN_CPU} where the JVM cannot tell or the interval began before the phase.
     */
    long loopCpuNanos = UNKNOWN_CPU;
    /** {@link System#nanoTime()} on the loop when it took the figures: the end of the interval they cover. */
    long takenNanos;

    /** Each server's figures in a run with several (the last for requests sent to none); null with one. */
    final ServerStats[] servers;

    /**
     * @param serverShapes the servers to keep figures for, as empty figures to copy; null: one server
     * @param interval     one load thread's interval (int counts), not a sum (long counts)
     */
    private ThreadFigures(int workloadCount, List<ServerStats> serverShapes, boolean interval) {
        workloads = new WorkloadStats[workloadCount];
        for (int i = 0; i < workloadCount; i++) {
            workloads[i] = interval ? WorkloadStats.interval() : new WorkloadStats();
        }
        sendLag = interval ? LatencyHistograms.createInterval() : LatencyHistograms.create();
        connectLatency = interval ? LatencyHistograms.createInterval() : LatencyHistograms.create();
        servers = serverShapes == null ? null : serverShapes.stream()
                .map(interval ? ServerStats::intervalCopy : ServerStats::emptyCopy).toArray(ServerStats[]::new);
    }

    /** Empty figures for one load thread's interval (int counts: see the class's comment). */
    static ThreadFigures interval(int workloadCount, List<ServerStats> serverShapes) {
        return new ThreadFigures(workloadCount, serverShapes, true);
    }

    /** Empty figures to add intervals into, over threads and time (long counts). */
    static ThreadFigures sum(int workloadCount, List<ServerStats> serverShapes) {
        return new ThreadFigures(workloadCount, serverShapes, false);
    }

    /** Empties every figure, for the next interval. */
    void reset() {
        reset(NO_PAUSE);
    }

    private static final Runnable NO_PAUSE = () -> { };

    /** Empties every figure, with {@code pause} after each workload's (the host policy's, between steps). */
    void reset(Runnable pause) {
        for (WorkloadStats w : workloads) {
            w.reset();
            pause.run();
        }
        connections.reset();
        tcp.reset();
        sendLag.reset();
        connectLatency.reset();
        if (servers != null) {
            for (ServerStats s : servers) {
                s.reset();
            }
        }
        loopCpuNanos = UNKNOWN_CPU;
        takenNanos = 0;
    }

    /**
     * Bytes of the histograms held, as HdrHistogram estimates them: two per workload, the send lag,
     * the connect times, TCP's RTTs and each server's latency (the memory formula's check).
     */
    long histogramBytes() {
        long bytes = sendLag.getEstimatedFootprintInBytes() + connectLatency.getEstimatedFootprintInBytes()
                + tcp.histogramBytes();
        for (WorkloadStats w : workloads) {
            bytes += w.latency().getEstimatedFootprintInBytes() + w.service().getEstimatedFootprintInBytes();
        }
        if (servers != null) {
            for (ServerStats s : servers) {
                bytes += s.histogramBytes();
            }
        }
        return bytes;
    }

    /**
     * When a set of threads took their figures: the mean of their times (each counted its requests
     * up to its own), so that a window's rate divides its requests by the time they were counted in.
     */
    static long takenNanos(List<ThreadFigures> figures) {
        long first = figures.get(0).takenNanos;
        long offsets = 0;
        for (ThreadFigures f : figures) {
            offsets += f.takenNanos - first; // differences: nanoTime may be near overflow
        }
        return first + offsets / figures.size();
    }
}
