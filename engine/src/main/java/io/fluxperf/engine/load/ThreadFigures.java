package io.fluxperf.engine.load;

import io.fluxperf.engine.metrics.ConnectionCounts;
import io.fluxperf.engine.metrics.ServerStats;
import io.fluxperf.engine.metrics.TcpHealth;
import io.fluxperf.engine.metrics.WorkloadStats;
import io.fluxperf.trace.LatencyHistograms;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * One thread's counts and histograms for an interval, handed from its event loop to the run's
 * thread. Recycled: the run's thread empties the figures it has read ({@link #reset()}) and hands
 * them back for the next swap ({@link ThreadRecorder#swap}), so a window's end allocates nothing.
 */
final class ThreadFigures {
    final WorkloadStats[] workloads;
    final ConnectionCounts connections = new ConnectionCounts();
    /** The kernel's TCP_INFO of the thread's connections, sampled about once a second. */
    final TcpHealth tcp = new TcpHealth();
    /** Actual minus intended send time of paced requests, ns. */
    final Histogram sendLag = LatencyHistograms.create();
    /** Connect start to ready for load (TCP, TLS and protocol handshakes), per connection made, ns. */
    final Histogram connectLatency = LatencyHistograms.create();
    /** CPU time the thread's event loop used in the interval (less its idle polls under --busy-poll), ns; -1 where the JVM cannot tell. */
    long loopCpuNanos = -1;
    /** {@link System#nanoTime()} on the loop when it took the figures: the end of the interval they cover. */
    long takenNanos;

    /** Each server's figures in a run with several (the last for requests sent to none); null with one. */
    final ServerStats[] servers;

    ThreadFigures(int workloadCount) {
        this(workloadCount, null);
    }

    /** @param serverShapes the servers to keep figures for, as empty figures to copy; null: one server */
    ThreadFigures(int workloadCount, List<ServerStats> serverShapes) {
        workloads = new WorkloadStats[workloadCount];
        for (int i = 0; i < workloadCount; i++) {
            workloads[i] = new WorkloadStats();
        }
        servers = serverShapes == null ? null : serverShapes.stream().map(ServerStats::emptyCopy).toArray(ServerStats[]::new);
    }

    /** Empties every figure, for the next interval. */
    void reset() {
        for (WorkloadStats w : workloads) {
            w.reset();
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
        loopCpuNanos = -1;
        takenNanos = 0;
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
