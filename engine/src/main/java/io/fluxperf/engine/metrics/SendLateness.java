package io.fluxperf.engine.metrics;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * How well a paced run kept its schedule, counted exactly on the load loops: how many paced
 * requests left more than {@link #LATE_NANOS} after their intended time, the longest stretch in
 * which the run was that far behind, and the largest lag with when it happened and how busy its
 * load thread was then. Times are ns after the schedule's start (the run's time zero); a request's
 * own time in its source (a replayed log's time) is given beside it where the source knows one.
 *
 * <p>A stretch begins at the intended time of a request that left more than 1 ms late and lasts
 * until the last of the late requests that follow it back to back left; the next request that
 * leaves on time ends it. With several load threads, each thread's longest stretch is joined with
 * the others' where they overlap in time: exact for one thread, and for several a lower bound of
 * the time the run as a whole was behind.
 *
 * @param paced                    requests that had an intended send time (the measured part)
 * @param late                     the ones among them that left more than {@link #LATE_NANOS} late
 * @param longestBehindNanos       length of the longest stretch behind; 0 when there was none
 * @param longestBehindStartNanos  where it began, ns after the schedule's start
 * @param longestBehindSourceNanos where it began in the source's own time, ns; -1 when unknown
 * @param maxLagNanos              the largest send lag among the late requests; 0 when none was late
 * @param maxLagAtNanos            that request's intended time, ns after the schedule's start
 * @param maxLagSourceNanos        its time in the source, ns; -1 when unknown
 * @param maxLagCpuShare           its load thread's CPU time as a share of the time from shortly
 *                                 before that request was due until it left (0 to 1); -1 when unknown
 */
public record SendLateness(long paced, long late, long longestBehindNanos, long longestBehindStartNanos,
                           long longestBehindSourceNanos, long maxLagNanos, long maxLagAtNanos, long maxLagSourceNanos,
                           double maxLagCpuShare) {
    /** Later than this after its intended time, a request left late (the run was behind its schedule). */
    public static final long LATE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /** Nothing paced: no schedule to keep. */
    public static final SendLateness NONE = new SendLateness(0, 0, 0, 0, -1, 0, 0, -1, -1);

    /** The share of paced requests that left late, 0 to 1; 0 when none was paced. */
    public double lateShare() {
        return paced == 0 ? 0 : (double) late / paced;
    }

    /**
     * The run's figures from its threads': counts add, the largest lag is the largest of any
     * thread, and the threads' longest stretches are joined where they overlap in time.
     */
    public static SendLateness merge(List<SendLateness> threads) {
        long paced = 0;
        long late = 0;
        SendLateness worst = null;
        List<SendLateness> stretches = new ArrayList<>();
        for (SendLateness t : threads) {
            paced += t.paced;
            late += t.late;
            if (t.late > 0 && (worst == null || t.maxLagNanos > worst.maxLagNanos)) {
                worst = t;
            }
            if (t.longestBehindNanos > 0) {
                stretches.add(t);
            }
        }
        stretches.sort(Comparator.comparingLong(SendLateness::longestBehindStartNanos));
        long bestStart = 0;
        long bestLength = 0;
        long bestSource = -1;
        int i = 0;
        while (i < stretches.size()) {
            SendLateness first = stretches.get(i);
            long start = first.longestBehindStartNanos;
            long end = start + first.longestBehindNanos;
            int j = i + 1;
            while (j < stretches.size() && stretches.get(j).longestBehindStartNanos <= end) {
                SendLateness s = stretches.get(j);
                end = Math.max(end, s.longestBehindStartNanos + s.longestBehindNanos);
                j++;
            }
            if (end - start > bestLength) {
                bestLength = end - start;
                bestStart = start;
                bestSource = first.longestBehindSourceNanos;
            }
            i = j;
        }
        return new SendLateness(paced, late, bestLength, bestStart, bestSource,
                worst == null ? 0 : worst.maxLagNanos, worst == null ? 0 : worst.maxLagAtNanos,
                worst == null ? -1 : worst.maxLagSourceNanos, worst == null ? -1 : worst.maxLagCpuShare);
    }
}
