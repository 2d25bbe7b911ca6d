package io.fluxperf.engine.load;

import io.fluxperf.engine.metrics.ServerStats;
import io.fluxperf.engine.metrics.TcpHealth;
import io.fluxperf.engine.metrics.WorkloadStats;
import java.util.Arrays;
import java.util.List;
import org.HdrHistogram.AbstractHistogram;

/**
 * Intervals added up over every thread and over time, on the run's thread: the figures of a
 * window, or of a second, in the shape one thread records them. Reused: {@link #reset()} empties
 * it for the next window or second, so adding allocates nothing.
 *
 * <p>Within one interval the threads' figures add up (their open connections and TCP's lost
 * segments too); across intervals, counts and histograms add, open connections are the last
 * interval's, and lost segments the most at once ({@link TcpHealth#addLater}).
 */
final class FigureSum {
    final ThreadFigures sum;
    private final long[] cpuSum;
    private final boolean[] cpuKnown;
    /** The interval being added's TCP figures, before they join the sum as a later interval's. */
    private final TcpHealth intervalTcp = new TcpHealth();
    private final Runnable pause;

    /**
     * @param serverShapes keep each server's figures too (null: not kept)
     * @param pause        between two histogram steps: the host policy's pause
     */
    FigureSum(int workloads, int threads, List<ServerStats> serverShapes, Runnable pause) {
        this.sum = ThreadFigures.sum(workloads, serverShapes);
        this.cpuSum = new long[threads];
        this.cpuKnown = new boolean[threads];
        this.pause = pause;
    }

    /** Adds every thread's figures of {@code interval}. */
    void add(Interval interval) {
        long open = 0;
        intervalTcp.reset();
        List<ThreadFigures> threads = interval.threads();
        for (int t = 0; t < threads.size(); t++) {
            ThreadFigures f = threads.get(t);
            for (int i = 0; i < sum.workloads.length; i++) {
                add(sum.workloads[i], f.workloads[i]);
            }
            open += f.connections.open();
            sum.connections.add(f.connections);
            intervalTcp.add(f.tcp);
            addHistogram(sum.sendLag, f.sendLag);
            addHistogram(sum.connectLatency, f.connectLatency);
            if (sum.servers != null && f.servers != null) {
                for (int s = 0; s < sum.servers.length; s++) {
                    sum.servers[s].add(f.servers[s]);
                }
                pause.run();
            }
            // the known parts add up, below zero too (idle polls counted on the wall clock while the
            // thread waited for a CPU): over the window they even out as in one long interval
            long cpu = f.loopCpuNanos;
            if (cpu != ThreadFigures.UNKNOWN_CPU) {
                cpuKnown[t] = true;
                cpuSum[t] += cpu;
            }
        }
        sum.connections.setOpen(open);
        sum.tcp.addLater(intervalTcp);
        sum.takenNanos = interval.endNanos();
    }

    /** Each thread's loop CPU time over the intervals added, ns; -1 where not known in any (a new array). */
    long[] loopCpuNanos() {
        long[] out = new long[cpuSum.length];
        for (int t = 0; t < out.length; t++) {
            out[t] = cpuKnown[t] ? cpuSum[t] : -1;
        }
        return out;
    }

    /** Sets thread {@code t}'s loop CPU time (a made-up window's, for the host policy's rehearsal). */
    void loopCpuNanos(int t, long nanos) {
        cpuSum[t] = nanos;
        cpuKnown[t] = true;
    }

    /** Requests ended in the sum so far, every workload together. */
    long requests() {
        long n = 0;
        for (WorkloadStats w : sum.workloads) {
            n += w.outcomes().requests();
        }
        return n;
    }

    /** Empties the sum, for the next window or second. */
    void reset() {
        sum.reset(pause);
        Arrays.fill(cpuSum, 0);
        Arrays.fill(cpuKnown, false);
    }

    /** Bytes of the histograms held, as HdrHistogram estimates them (the memory formula's check). */
    long histogramBytes() {
        return sum.histogramBytes() + intervalTcp.histogramBytes();
    }

    private void add(WorkloadStats into, WorkloadStats from) {
        into.addCounts(from);
        addHistogram(into.latency(), from.latency());
        addHistogram(into.service(), from.service());
    }

    /** Adds {@code from} unless it is empty (an idle workload's histograms cost a pass each otherwise). */
    private void addHistogram(AbstractHistogram into, AbstractHistogram from) {
        if (from.getTotalCount() > 0) {
            into.add(from);
            pause.run();
        }
    }
}
