package io.fluxperf.engine.trust;

import java.util.List;

/**
 * How far one window's figures can be trusted: its percentiles with their intervals, the client
 * pauses named in it, whether the client set its pace, and whether its figures drifted.
 *
 * @param window          the window, from 1
 * @param intervals       its latency at {@link PercentileIntervals#REPORTED} with 95 % intervals; empty without requests
 * @param pauses          the client pauses that began in it
 * @param runQueueShare   the longest a load thread waited for a CPU, as a share of the window; -1 unknown
 * @param sendLagP99Nanos the window's send lag p99 (paced runs; 0 otherwise)
 * @param limits          why the client set its pace, if it did
 * @param drift           its figures' drifts ({@link Stability#windowDrift})
 */
public record WindowTrust(int window, List<LatencyInterval> intervals, List<NamedPause> pauses, double runQueueShare,
                          long sendLagP99Nanos, List<ClientLimit> limits, List<Finding> drift) {
    public WindowTrust {
        intervals = List.copyOf(intervals);
        pauses = List.copyOf(pauses);
        limits = List.copyOf(limits);
        drift = List.copyOf(drift);
    }
}
