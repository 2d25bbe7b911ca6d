package io.fluxperf.engine.config;

import java.nio.file.Path;
import java.util.Objects;

/**
 * How connections are made and used. Immutable: make one with {@link #builder()} or change a copy
 * with {@link #toBuilder()}; {@link Builder#build()} rejects combinations that cannot be.
 */
public final class ConnectionOptions {
    private static final ConnectionOptions DEFAULTS = builder().build();

    private final boolean udp;
    private final boolean tls;
    private final Path tlsCa;
    private final boolean tlsInsecure;
    private final String sni;
    private final boolean connectPerRequest;
    private final int holdConnections;
    private final double connectRate;
    private final boolean ioUring;
    private final boolean busyPoll;

    private ConnectionOptions(Builder b) {
        udp = b.udp;
        tls = b.tls;
        tlsCa = b.tlsCa;
        tlsInsecure = b.tlsInsecure;
        sni = b.sni;
        connectPerRequest = b.connectPerRequest;
        holdConnections = b.holdConnections;
        connectRate = b.connectRate;
        ioUring = b.ioUring;
        busyPoll = b.busyPoll;
    }

    /** Plain TCP, keep-alive connections, epoll, loops that wait in the kernel. */
    public static ConnectionOptions defaults() {
        return DEFAULTS;
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Over UDP with the protocol's datagram framing instead of TCP. */
    public boolean udp() {
        return udp;
    }

    /** TLS on every TCP connection. */
    public boolean tls() {
        return tls;
    }

    /** Trusted CA certificates (PEM) for the server's certificate; null: the JVM's. */
    public Path tlsCa() {
        return tlsCa;
    }

    /** Accept any server certificate. */
    public boolean tlsInsecure() {
        return tlsInsecure;
    }

    /** Server name to send and verify; null: the host of --server. */
    public String sni() {
        return sni;
    }

    /** Connect, send one request, close (mcb's -s, dperf's CPS). */
    public boolean connectPerRequest() {
        return connectPerRequest;
    }

    /** Open this many connections and keep them (dperf's concurrent connections); 0: threads × connections. */
    public int holdConnections() {
        return holdConnections;
    }

    /** New connections per second while opening; 0: as fast as possible. */
    public double connectRate() {
        return connectRate;
    }

    /** Netty's io_uring transport instead of epoll (TCP, UDP and Unix sockets). */
    public boolean ioUring() {
        return ioUring;
    }

    /**
     * The load loops poll for I/O without ever waiting in the kernel, a CPU each: no wake-up of the
     * client between a reply and its timestamp, or between a timer and its send (dperf's polling,
     * over the kernel's sockets).
     */
    public boolean busyPoll() {
        return busyPoll;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ConnectionOptions c && udp == c.udp && tls == c.tls && Objects.equals(tlsCa, c.tlsCa)
                && tlsInsecure == c.tlsInsecure && Objects.equals(sni, c.sni) && connectPerRequest == c.connectPerRequest
                && holdConnections == c.holdConnections && connectRate == c.connectRate && ioUring == c.ioUring
                && busyPoll == c.busyPoll;
    }

    @Override
    public int hashCode() {
        return Objects.hash(udp, tls, tlsCa, tlsInsecure, sni, connectPerRequest, holdConnections, connectRate, ioUring,
                busyPoll);
    }

    /** Builds {@link ConnectionOptions}; every setting starts at its default. */
    public static final class Builder {
        private boolean udp;
        private boolean tls;
        private Path tlsCa;
        private boolean tlsInsecure;
        private String sni;
        private boolean connectPerRequest;
        private int holdConnections;
        private double connectRate;
        private boolean ioUring;
        private boolean busyPoll;

        private Builder() {
        }

        private Builder(ConnectionOptions c) {
            udp = c.udp;
            tls = c.tls;
            tlsCa = c.tlsCa;
            tlsInsecure = c.tlsInsecure;
            sni = c.sni;
            connectPerRequest = c.connectPerRequest;
            holdConnections = c.holdConnections;
            connectRate = c.connectRate;
            ioUring = c.ioUring;
            busyPoll = c.busyPoll;
        }

        public Builder udp(boolean v) {
            udp = v;
            return this;
        }

        public Builder tls(boolean v) {
            tls = v;
            return this;
        }

        public Builder tlsCa(Path v) {
            tlsCa = v;
            return this;
        }

        public Builder tlsInsecure(boolean v) {
            tlsInsecure = v;
            return this;
        }

        public Builder sni(String v) {
            sni = v;
            return this;
        }

        public Builder connectPerRequest(boolean v) {
            connectPerRequest = v;
            return this;
        }

        public Builder holdConnections(int v) {
            if (v < 0) {
                throw new IllegalArgumentException("held connections must be >= 0, not " + v);
            }
            holdConnections = v;
            return this;
        }

        public Builder connectRate(double v) {
            if (!(v >= 0) || Double.isInfinite(v)) {
                throw new IllegalArgumentException("connect rate must be a number >= 0, not " + v);
            }
            connectRate = v;
            return this;
        }

        public Builder ioUring(boolean v) {
            ioUring = v;
            return this;
        }

        public Builder busyPoll(boolean v) {
            busyPoll = v;
            return this;
        }

        public ConnectionOptions build() {
            if (udp && (tls || connectPerRequest)) {
                throw new IllegalArgumentException("UDP has no connections: it goes with neither TLS nor connect-per-request");
            }
            return new ConnectionOptions(this);
        }
    }
}
