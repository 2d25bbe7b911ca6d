package io.fluxperf.engine.metrics;

/**
 * The TCP health of an interval as numbers ({@link TcpHealth}): how many connection samples there
 * were (0: none, as with UDP or Unix sockets), segments
 * retransmitted, the most marked lost at once, and the kernel's smoothed RTT over the samples.
 *
 * @param rttP50Micros median smoothed RTT over the samples, µs
 * @param rttMaxMicros largest smoothed RTT sampled, µs
 */
public record TcpFigures(long samples, long retransmits, long lost, long rttP50Micros, long rttMaxMicros) {
    public static final TcpFigures NONE = new TcpFigures(0, 0, 0, 0, 0);
}
