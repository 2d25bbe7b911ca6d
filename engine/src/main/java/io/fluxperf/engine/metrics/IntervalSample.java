package io.fluxperf.engine.metrics;

/**
 * The statistics block printed every {@code --stats-interval} (dperf's per-second lines): what
 * happened in the last interval, all workloads together. Latencies in ns.
 *
 * <p>The send lag (actual minus intended send time) is of the interval's paced requests; all three
 * are 0 when none was paced (closed loop, or nothing due in the interval).
 *
 * @param second          seconds since the load started, at the end of the interval
 * @param seconds         length of the interval
 * @param sent            requests written
 * @param responses       requests ended, by outcome below
 * @param openConnections connections open at the end of the interval
 */
public record IntervalSample(double second, double seconds, long sent, long responses, long ok, long miss, long error,
                             long timeout, long closed, long connectAttempts, long connectionsOpened,
                             long connectionsClosed, long connectFailures, long openConnections, long bytesIn,
                             long bytesOut, long protocolErrors, long connectionErrors, long latencyP50,
                             long latencyP99, long serviceP50, long serviceP99, long sendLagP50, long sendLagP99,
                             long sendLagMax) {
}
