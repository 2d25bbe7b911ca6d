package io.fluxperf.engine.target;

import java.net.InetSocketAddress;

/**
 * A cache server that fluxperf runs inside its own process: the target of {@code fluxperf run}
 * when no {@code --server} is given, and the whole of {@code fluxperf serve}. It listens from the
 * moment it is returned until {@link #close()}.
 */
public interface TargetServer extends AutoCloseable {

    /** The address it listens on, with the real port when the options asked for port 0. */
    InetSocketAddress address();

    /** One line for reports and logs, e.g. {@code embedded memcache on 127.0.0.1:41234}. */
    String describe();

    /** A consistent-enough snapshot of its counters (each counter is exact; they are not read atomically together). */
    TargetStats stats();

    /** Stops listening, closes every connection and stops its threads; idempotent. */
    @Override
    void close();
}
