package io.fluxperf.engine.trust;

import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.protocol.IdleRoundTrip;
import io.fluxperf.engine.protocol.Protocol;
import io.fluxperf.engine.protocol.ProtocolException;
import io.fluxperf.engine.protocol.UnexpectedReply;
import io.fluxperf.trace.LatencyHistograms;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardSocketOptions;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import org.HdrHistogram.Histogram;

/**
 * Measures the latency floor ({@link LatencyFloor}) on a connection and a thread of its own: the
 * protocol's no-op ({@link Protocol#idleRoundTrip}) is sent {@link #WARM_ROUND_TRIPS} times untimed
 * as soon as the probe starts (so that the JIT compiles this loop, while the run warms itself up
 * elsewhere), then, when {@link #measure()} is called with no load running, {@link #ROUND_TRIPS}
 * times timed, one at a time, each from the write to the whole reply, waiting for it in epoll as the
 * load's loops do. Its thread is started before the run lowers its own thread's priority, which
 * new threads would inherit. Only the no-op's success reply is timed: an error reply or another
 * protocol's is not the floor of the run's requests. It never fails the run: what cannot be measured
 * (TLS, UDP, several servers, a server that does not answer, or answers otherwise) is given as the
 * reason, and a reply of another kind of server names the {@code --protocol} to try.
 */
public final class FloorProbe implements AutoCloseable {
    static final int WARM_ROUND_TRIPS = 500;
    public static final int ROUND_TRIPS = 300;

    private final CountDownLatch go = new CountDownLatch(1);
    private final CompletableFuture<LatencyFloor> result = new CompletableFuture<>();
    private volatile boolean closed;
    private final Thread thread;

    private FloorProbe(Protocol protocol, RunConfig config, SocketAddress address) {
        this.thread = new Thread(() -> run(protocol, config, address), "fluxperf-floor");
        thread.setDaemon(true);
    }

    /**
     * Connects and warms up at once, on a thread of its own.
     *
     * @param address the one server, or null when the run has several
     */
    public static FloorProbe start(Protocol protocol, RunConfig config, SocketAddress address) {
        FloorProbe p = new FloorProbe(protocol, config, address);
        p.thread.start();
        return p;
    }

    /** Times the round trips (after the warm ones) and returns the floor; call it with no load running. */
    public LatencyFloor measure() {
        go.countDown();
        try {
            return result.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return LatencyFloor.notMeasured("interrupted");
        } catch (ExecutionException e) {
            return LatencyFloor.notMeasured(String.valueOf(e.getCause()));
        }
    }

    /** Lets the probe's thread go, measured or not. */
    @Override
    public void close() {
        closed = true;
        go.countDown();
        result.complete(LatencyFloor.notMeasured("the run ended first"));
    }

    private void run(Protocol protocol, RunConfig config, SocketAddress address) {
        try {
            result.complete(probe(protocol, config, address));
        } catch (RuntimeException e) {
            result.complete(LatencyFloor.notMeasured(e.getMessage()));
        }
    }

    private LatencyFloor probe(Protocol protocol, RunConfig config, SocketAddress address) {
        if (address == null) {
            return LatencyFloor.notMeasured("several servers");
        }
        if (config.connection().tls()) {
            return LatencyFloor.notMeasured("over TLS");
        }
        if (config.connection().udp()) {
            return LatencyFloor.notMeasured("over UDP");
        }
        if (config.connection().connectPerRequest()) {
            // a connection-rate run's server counts its connections: the probe's would be one too many
            return LatencyFloor.notMeasured("a connection per request");
        }
        IdleRoundTrip trip = protocol.idleRoundTrip(config.protocolOptions(), config.server(), config.workloads());
        if (trip == null) {
            return LatencyFloor.notMeasured(protocol.name() + " has no no-op");
        }
        SocketAddress target = address instanceof io.netty.channel.unix.DomainSocketAddress d
                ? UnixDomainSocketAddress.of(d.path()) : address;
        long timeoutMillis = Math.max(1, config.timeout().toMillis());
        Histogram h = LatencyHistograms.create();
        ByteBuf in = Unpooled.buffer(4096);
        try (SocketChannel channel = SocketChannel.open(target); Selector selector = Selector.open()) {
            if (target instanceof InetSocketAddress) {
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            }
            channel.configureBlocking(false);
            channel.register(selector, SelectionKey.OP_READ);
            Exchange exchange = new Exchange(protocol, channel, selector, trip, in, timeoutMillis);
            for (int i = 0; i < WARM_ROUND_TRIPS && !closed; i++) {
                exchange.roundTrip();
            }
            go.await();
            for (int i = 0; i < ROUND_TRIPS && !closed; i++) {
                h.recordValue(Math.max(0, exchange.roundTrip()));
            }
        } catch (IOException e) {
            return LatencyFloor.notMeasured(io.fluxperf.trace.FileErrors.describe(e));
        } catch (ProtocolException e) {
            return LatencyFloor.notMeasured(e.getMessage());
        } catch (InterruptedException e) {
            return LatencyFloor.notMeasured("interrupted");
        } finally {
            in.release();
        }
        if (h.getTotalCount() == 0) {
            return LatencyFloor.notMeasured("the run ended first");
        }
        return new LatencyFloor(true, trip.describe(), h.getTotalCount(), h.getValueAtPercentile(50),
                h.getValueAtPercentile(99), h.getMinValue(), null);
    }

    /** One connection's no-ops, one at a time. */
    private static final class Exchange {
        private final Protocol protocol;
        private final SocketChannel channel;
        private final Selector selector;
        private final IdleRoundTrip trip;
        private final ByteBuf in;
        private final long timeoutMillis;
        private final ByteBuffer request;
        private final ByteBuffer read = ByteBuffer.allocate(16 * 1024);

        Exchange(Protocol protocol, SocketChannel channel, Selector selector, IdleRoundTrip trip, ByteBuf in,
                 long timeoutMillis) {
            this.protocol = protocol;
            this.channel = channel;
            this.selector = selector;
            this.trip = trip;
            this.in = in;
            this.timeoutMillis = timeoutMillis;
            this.request = ByteBuffer.wrap(trip.request());
        }

        /**
         * Sends the no-op and reads its whole reply; returns the time between, ns. A reply other than
         * the no-op's success fails with what it says about the server ({@link UnexpectedReply#hint}).
         */
        long roundTrip() throws IOException, ProtocolException {
            long start = System.nanoTime();
            request.rewind();
            while (request.hasRemaining()) {
                channel.write(request);
            }
            int replyStart = in.readerIndex();
            try {
                readReply();
            } catch (ProtocolException e) {
                String hint = UnexpectedReply.hint(protocol, UnexpectedReply.start(in, replyStart));
                throw hint == null ? e : new ProtocolException(e.getMessage() + ": " + hint);
            }
            long took = System.nanoTime() - start;
            in.discardReadBytes();
            return took;
        }

        private void readReply() throws IOException, ProtocolException {
            while (!trip.replied(in)) {
                read.clear();
                int n = channel.read(read);
                if (n < 0) {
                    throw new IOException("the server closed the connection after " + trip.describe());
                }
                if (n == 0) {
                    if (selector.select(timeoutMillis) == 0) {
                        throw new IOException("no reply to " + trip.describe() + " within " + timeoutMillis + " ms");
                    }
                    selector.selectedKeys().clear();
                    continue;
                }
                in.writeBytes(read.flip());
            }
        }
    }
}
