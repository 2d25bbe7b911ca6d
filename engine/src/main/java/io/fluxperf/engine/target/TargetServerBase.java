package io.fluxperf.engine.target;

import java.net.InetSocketAddress;
import java.nio.file.Path;

/**
 * What every embedded target server shares: its options, its {@link Listeners} (whose addresses it
 * reports and which {@link #close()} closes) and the shape of {@link #describe()}.
 */
public abstract class TargetServerBase implements TargetServer {
    private final String protocol;
    private final TargetOptions options;
    private final Listeners listeners;
    private final InetSocketAddress address;
    private final InetSocketAddress udpAddress;

    /**
     * @param protocol  the protocol's name in {@link #describe()}, e.g. {@code memcache}
     * @param listeners listeners already bound; this server owns them from here
     */
    protected TargetServerBase(String protocol, TargetOptions options, Listeners listeners) {
        this.protocol = protocol;
        this.options = options;
        this.listeners = listeners;
        this.address = listeners.address();
        this.udpAddress = listeners.udpAddress();
    }

    public TargetOptions options() {
        return options;
    }

    @Override
    public InetSocketAddress address() {
        return address;
    }

    @Override
    public InetSocketAddress udpAddress() {
        return udpAddress;
    }

    @Override
    public Path unixPath() {
        return listeners.unixPath();
    }

    @Override
    public boolean tls() {
        return listeners.tls();
    }

    /**
     * {@code embedded PROTOCOL on HOST:PORT}, then its other listeners, what {@link #describeMore}
     * adds, and the reply-pacing test knobs.
     */
    @Override
    public final String describe() {
        StringBuilder s = new StringBuilder("embedded ").append(protocol).append(" on ")
                .append(address.getAddress().getHostAddress()).append(':').append(address.getPort());
        if (tls()) {
            s.append(" (TLS)");
        }
        if (udpAddress != null) {
            s.append(", UDP ").append(udpAddress.getAddress().getHostAddress()).append(':').append(udpAddress.getPort());
        }
        if (unixPath() != null) {
            s.append(", Unix socket ").append(unixPath());
        }
        describeMore(s);
        if (!options.responseDelay().isZero()) {
            s.append(", reply delay ").append(options.responseDelay().toNanos() / 1000).append(" us");
        }
        if (!options.stallEvery().isZero()) {
            s.append(", stalls of ").append(options.stallFor().toMillis()).append(" ms every ")
                    .append(options.stallEvery().toMillis()).append(" ms");
        }
        return s.toString();
    }

    /** Appends the protocol's own settings to {@link #describe()}, each as {@code ", …"}; nothing by default. */
    protected void describeMore(StringBuilder s) {
    }

    @Override
    public void close() {
        listeners.close();
    }
}
