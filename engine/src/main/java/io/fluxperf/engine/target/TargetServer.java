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

    /** The address of its UDP listener (memcache over UDP), or null when it has none. */
    default InetSocketAddress udpAddress() {
        return null;
    }

    /** The path of its Unix-socket listener, or null when it has none. */
    default java.nio.file.Path unixPath() {
        return null;
    }

    /** Whether its TCP listener speaks TLS. */
    default boolean tls() {
        return false;
    }

    /** One line for reports and logs, e.g. {@code embedded memcache on 127.0.0.1:41234}. */
    String describe();

    /** A consistent-enough snapshot of its counters (each counter is exact; they are not read atomically together). */
    TargetStats stats();

    /** Stops listening, closes every connection and stops its threads; idempotent. */
    @Override
    void close();
}
