package io.fluxperf.engine.config;

import java.nio.file.Path;

/**
 * How connections are made and used.
 *
 * @param udp               memcache over UDP (the 8-byte frame header) instead of TCP
 * @param tls               TLS on every TCP connection
 * @param tlsCa             trusted CA certificates (PEM) for the server's certificate; null: the JVM's
 * @param tlsInsecure       accept any server certificate
 * @param sni               server name to send and verify; null: the host of --server
 * @param connectPerRequest connect, send one request, close (mcb's -s, dperf's CPS)
 * @param holdConnections   open this many connections and keep them (dperf's concurrent
 *                          connections); 0: the usual threads × connections
 * @param connectRate       new connections per second while opening (0: as fast as possible)
 * @param ioUring           Netty's io_uring transport instead of epoll (TCP, UDP and Unix sockets)
 * @param busyPoll          the load loops poll for I/O without ever waiting in the kernel, a CPU
 *                          each: no wake-up of the client between a reply and its timestamp, or
 *                          between a timer and its send (dperf's polling, over the kernel's sockets)
 */
public record ConnectionOptions(boolean udp, boolean tls, Path tlsCa, boolean tlsInsecure, String sni,
                                boolean connectPerRequest, int holdConnections, double connectRate,
                                boolean ioUring, boolean busyPoll) {
    public ConnectionOptions {
        if (holdConnections < 0) {
            throw new IllegalArgumentException("held connections must be >= 0, not " + holdConnections);
        }
        if (!(connectRate >= 0) || Double.isInfinite(connectRate)) {
            throw new IllegalArgumentException("connect rate must be a number >= 0, not " + connectRate);
        }
        if (udp && (tls || connectPerRequest)) {
            throw new IllegalArgumentException("UDP has no connections: it goes with neither TLS nor connect-per-request");
        }
    }

    /** Options whose load loops wait for I/O in the kernel (no {@code --busy-poll}). */
    public ConnectionOptions(boolean udp, boolean tls, Path tlsCa, boolean tlsInsecure, String sni,
                             boolean connectPerRequest, int holdConnections, double connectRate, boolean ioUring) {
        this(udp, tls, tlsCa, tlsInsecure, sni, connectPerRequest, holdConnections, connectRate, ioUring, false);
    }

    public static ConnectionOptions defaults() {
        return new ConnectionOptions(false, false, null, false, null, false, 0, 0, false, false);
    }
}
