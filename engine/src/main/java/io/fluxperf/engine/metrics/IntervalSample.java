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
 * @param servers         a run with several servers: each one's part; empty with one
 * @param tcp             the kernel's TCP_INFO of the load connections in the interval ({@link TcpFigures#NONE}: none read)
 */
public record IntervalSample(double second, double seconds, long sent, long responses, long ok, long miss, long error,
                             long timeout, long closed, long connectAttempts, long connectionsOpened,
                             long connectionsClosed, long connectFailures, long openConnections, long bytesIn,
                             long bytesOut, long protocolErrors, long connectionErrors, long latencyP50,
                             long latencyP99, long serviceP50, long serviceP99, long sendLagP50, long sendLagP99,
                             long sendLagMax, java.util.List<ServerSample> servers, TcpFigures tcp) {
    public IntervalSample {
        servers = java.util.List.copyOf(servers);
        tcp = tcp == null ? TcpFigures.NONE : tcp;
    }

    /** A sample without TCP figures. */
    public IntervalSample(double second, double seconds, long sent, long responses, long ok, long miss, long error,
                          long timeout, long closed, long connectAttempts, long connectionsOpened,
                          long connectionsClosed, long connectFailures, long openConnections, long bytesIn,
                          long bytesOut, long protocolErrors, long connectionErrors, long latencyP50,
                          long latencyP99, long serviceP50, long serviceP99, long sendLagP50, long sendLagP99,
                          long sendLagMax, java.util.List<ServerSample> servers) {
        this(second, seconds, sent, responses, ok, miss, error, timeout, closed, connectAttempts, connectionsOpened,
                connectionsClosed, connectFailures, openConnections, bytesIn, bytesOut, protocolErrors, connectionErrors,
                latencyP50, latencyP99, serviceP50, serviceP99, sendLagP50, sendLagP99, sendLagMax, servers, TcpFigures.NONE);
    }

    /** A sample of a run against one server. */
    public IntervalSample(double second, double seconds, long sent, long responses, long ok, long miss, long error,
                          long timeout, long closed, long connectAttempts, long connectionsOpened,
                          long connectionsClosed, long connectFailures, long openConnections, long bytesIn,
                          long bytesOut, long protocolErrors, long connectionErrors, long latencyP50,
                          long latencyP99, long serviceP50, long serviceP99, long sendLagP50, long sendLagP99,
                          long sendLagMax) {
        this(second, seconds, sent, responses, ok, miss, error, timeout, closed, connectAttempts, connectionsOpened,
                connectionsClosed, connectFailures, openConnections, bytesIn, bytesOut, protocolErrors, connectionErrors,
                latencyP50, latencyP99, serviceP50, serviceP99, sendLagP50, sendLagP99, sendLagMax, java.util.List.of());
    }
}
