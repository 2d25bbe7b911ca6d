package io.fluxperf.engine.config;

import java.nio.file.Path;
import java.util.Objects;

/**
 * How connections are made and used: the values of the settings of
 * {@link Setting.Scope#CONNECTION} ({@link Settings#UDP}, {@link Settings#TLS}, …), read with
 * {@link #get} or the named accessors. Immutable; {@link Builder#build()} rejects combinations that
 * cannot be.
 *
 * @param values the connection settings' values, defaults included
 */
public record ConnectionOptions(SettingValues values) {
    private static final ConnectionOptions DEFAULTS = of(Settings.defaults());

    public ConnectionOptions {
        Objects.requireNonNull(values, "values");
        if (Boolean.TRUE.equals(values.get(Settings.UDP))
                && (Boolean.TRUE.equals(values.get(Settings.TLS)) || Boolean.TRUE.equals(values.get(Settings.CONNECT_PER_REQUEST)))) {
            throw new IllegalArgumentException("UDP has no connections: it goes with neither TLS nor connect-per-request");
        }
    }

    /** The connection settings among {@code all}. */
    public static ConnectionOptions of(SettingValues all) {
        return new ConnectionOptions(all.only(s -> s.scope() == Setting.Scope.CONNECTION));
    }

    /** Plain TCP, keep-alive connections, epoll, loops that wait in the kernel. */
    public static ConnectionOptions defaults() {
        return DEFAULTS;
    }

    public static Builder builder() {
        return new Builder(DEFAULTS.values);
    }

    public Builder toBuilder() {
        return new Builder(values);
    }

    /** The value of a connection setting. */
    public <T> T get(Setting<T> s) {
        return values.get(s);
    }

    /** Over UDP with the protocol's datagram framing instead of TCP. */
    public boolean udp() {
        return get(Settings.UDP);
    }

    /** TLS on every TCP connection. */
    public boolean tls() {
        return get(Settings.TLS);
    }

    /** Trusted CA certificates (PEM) for the server's certificate; null: the JVM's. */
    public Path tlsCa() {
        return get(Settings.TLS_CA);
    }

    /** Accept any server certificate. */
    public boolean tlsInsecure() {
        return get(Settings.TLS_INSECURE);
    }

    /** Server name to send and verify; null: the host of --server. */
    public String sni() {
        return get(Settings.SNI);
    }

    /** Connect, send one request, close (mcb's -s, dperf's CPS). */
    public boolean connectPerRequest() {
        return get(Settings.CONNECT_PER_REQUEST);
    }

    /** Open this many connections and keep them (dperf's concurrent connections); 0: threads × connections. */
    public int holdConnections() {
        return get(Settings.HOLD_CONNECTIONS);
    }

    /** New connections per second while opening; 0: as fast as possible. */
    public double connectRate() {
        return get(Settings.CONNECT_RATE);
    }

    /** Netty's io_uring transport instead of epoll (TCP, UDP and Unix sockets). */
    public boolean ioUring() {
        return get(Settings.IO_URING);
    }

    /**
     * The load loops poll for I/O without ever waiting in the kernel, a CPU each: no wake-up of the
     * client between a reply and its timestamp, or between a timer and its send (dperf's polling,
     * over the kernel's sockets).
     */
    public boolean busyPoll() {
        return get(Settings.BUSY_POLL);
    }

    /**
     * Builds {@link ConnectionOptions}; every setting starts at its default. Each value is checked
     * as its flag is ({@link IllegalArgumentException}).
     */
    public static final class Builder {
        private SettingValues values;

        private Builder(SettingValues values) {
            this.values = values;
        }

        /** Sets a connection setting. */
        public <T> Builder with(Setting<T> s, T v) {
            if (s.scope() != Setting.Scope.CONNECTION) {
                throw new IllegalArgumentException(s.name() + " is no connection setting");
            }
            values = values.with(s, v == null ? null : s.type().fromFlag(v));
            return this;
        }

        public Builder udp(boolean v) {
            return with(Settings.UDP, v);
        }

        public Builder tls(boolean v) {
            return with(Settings.TLS, v);
        }

        public Builder tlsCa(Path v) {
            values = values.with(Settings.TLS_CA, v); // read when the connection opens, not checked here
            return this;
        }

        public Builder tlsInsecure(boolean v) {
            return with(Settings.TLS_INSECURE, v);
        }

        public Builder sni(String v) {
            return with(Settings.SNI, v);
        }

        public Builder connectPerRequest(boolean v) {
            return with(Settings.CONNECT_PER_REQUEST, v);
        }

        public Builder holdConnections(int v) {
            return with(Settings.HOLD_CONNECTIONS, v);
        }

        public Builder connectRate(double v) {
            return with(Settings.CONNECT_RATE, v);
        }

        public Builder ioUring(boolean v) {
            return with(Settings.IO_URING, v);
        }

        public Builder busyPoll(boolean v) {
            return with(Settings.BUSY_POLL, v);
        }

        public ConnectionOptions build() {
            return new ConnectionOptions(values);
        }
    }
}
