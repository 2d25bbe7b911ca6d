package io.fluxperf.testkit;

import io.fluxperf.engine.netty.EpollLoopResources;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.util.ReferenceCountUtil;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import reactor.core.publisher.Mono;
import reactor.netty.Connection;
import reactor.netty.DisposableServer;
import reactor.netty.resources.LoopResources;
import reactor.netty.tcp.TcpClient;
import reactor.netty.tcp.TcpServer;

/**
 * A fault-injecting TCP proxy for tests: clients connect to {@link #port()} on 127.0.0.1, and
 * each connection is relayed to the target over a connection of its own. A test sets and
 * changes faults while traffic flows: delay per direction, a stall (every byte held for a
 * time), drop (close) or reset (RST) of every connection, truncation of the next reply, corruption
 * of replies at a rate (seeded), a swap of two connections' replies, and a stop of reading from the
 * clients (their writes back up). {@link #every} repeats a {@link Fault} on a schedule.
 *
 * <p>Everything runs on one event loop of its own (reactor-netty {@link TcpServer} in front,
 * {@link TcpClient} to the target): the relay state needs no locks, and nothing blocks the loop.
 * Control methods may be called from any thread; they take effect on the loop before they return.
 * Bytes held by a delay or stall stay in order per connection and direction.
 */
public final class FaultProxy implements AutoCloseable {
    /** Which way bytes go: requests from the client to the server, or replies back. */
    public enum Direction { TO_SERVER, TO_CLIENT }

    /** How {@link #corrupt} damages a byte. */
    public enum Corruption {
        /** XOR with a random non-zero mask: the byte always changes. */
        FLIP,
        /** A random byte (may equal the old one). */
        REPLACE
    }

    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    /** Held bytes per link and direction beyond which the proxy stops reading that way (a stall, a slow reader). */
    private static final int MAX_HELD_BYTES = 1 << 20;
    /** A swap waits this long for a second connection's reply, then gives the first its own back. */
    private static final long SWAP_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final LoopResources loops;
    private final EventLoop loop;
    private final DisposableServer server;
    private final TcpClient client;
    private final FaultCounters.Live counters = new FaultCounters.Live();
    private final List<Link> links = new ArrayList<>();

    // fault settings: only touched on the loop
    private final long[] delayNanos = new long[2];
    private long stallUntilNanos = Long.MIN_VALUE;
    private boolean reading = true;
    private int truncateArmed = -1;
    private double corruptRate;
    private Corruption corruption = Corruption.FLIP;
    private SplittableRandom random = new SplittableRandom(1);
    private long corruptSkip = -1;
    private boolean swapArmed;
    private Link swapHolder;
    private ByteBuf swapHeld;

    private FaultProxy(SocketAddress target) {
        loops = new EpollLoopResources("fluxperf-fault-proxy", 1);
        loop = loops.onServer(LoopResources.hasNativeSupport()).next();
        client = TcpClient.newConnection()
                .runOn(loops)
                .remoteAddress(() -> target)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 2000);
        server = TcpServer.create()
                .host("127.0.0.1")
                .port(0)
                .runOn(loops)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .doOnConnection(front -> onLoop(() -> accepted(front)))
                .handle((in, out) -> Mono.never()) // a connection lives until one side or a fault ends it
                .bindNow(TIMEOUT);
    }

    /** A proxy on a free 127.0.0.1 port in front of {@code target}, with no faults set. */
    public static FaultProxy start(SocketAddress target) {
        return new FaultProxy(target);
    }

    public static FaultProxy start(String host, int port) {
        return start(new InetSocketAddress(host, port));
    }

    public int port() {
        return ((InetSocketAddress) server.address()).getPort();
    }

    public InetSocketAddress address() {
        return new InetSocketAddress("127.0.0.1", port());
    }

    /** HOST:PORT, as {@code --server} takes it. */
    public String hostPort() {
        return "127.0.0.1:" + port();
    }

    public FaultCounters counters() {
        return counters.snapshot();
    }

    // ---- faults ----

    /** Adds {@code delay} to every chunk of bytes going {@code direction} from now on. */
    public FaultProxy delay(Direction direction, Duration delay) {
        return control(() -> delayNanos[direction.ordinal()] = delay.toNanos());
    }

    /** Holds every byte, both ways, on every connection, for {@code duration} from now; then lets them go in order. */
    public FaultProxy stall(Duration duration) {
        return control(() -> {
            stallUntilNanos = Math.max(stallUntilNanos, System.nanoTime() + duration.toNanos());
            counters.stalls.incrementAndGet();
        });
    }

    /** Closes every connection (FIN to the client and to the server). */
    public FaultProxy drop() {
        return control(() -> {
            for (Link l : List.copyOf(links)) {
                l.close(false);
                counters.drops.incrementAndGet();
            }
        });
    }

    /** Resets every connection: SO_LINGER 0 then close, so the client gets an RST. */
    public FaultProxy reset() {
        return control(() -> {
            for (Link l : List.copyOf(links)) {
                l.close(true);
                counters.resets.incrementAndGet();
            }
        });
    }

    /** The next reply bytes from the server, on whichever connection they come, are cut after {@code bytes} and that connection is closed. */
    public FaultProxy truncateNextReply(int bytes) {
        return control(() -> truncateArmed = bytes);
    }

    /**
     * Damages reply bytes (server to client) at {@code rate} per byte, from now on; 0 stops it.
     * The choice of bytes and damage is seeded, so a run is repeatable for the same traffic.
     */
    public FaultProxy corrupt(double rate, Corruption how, long seed) {
        if (rate < 0 || rate > 1) {
            throw new IllegalArgumentException("corruption rate must be within 0..1, not " + rate);
        }
        return control(() -> {
            corruptRate = rate;
            corruption = how;
            random = new SplittableRandom(seed);
            corruptSkip = rate == 0 ? -1 : nextSkip();
        });
    }

    /** The next reply chunks of two different connections are exchanged: each client gets the other's reply. */
    public FaultProxy swapNextReplies() {
        return control(() -> swapArmed = true);
    }

    /** Stops reading from every client (and from those that connect later): their requests back up in TCP. */
    public FaultProxy stopReading() {
        return control(() -> {
            reading = false;
            links.forEach(Link::updateReading);
        });
    }

    public FaultProxy resumeReading() {
        return control(() -> {
            reading = true;
            links.forEach(Link::updateReading);
        });
    }

    /** No delay, no corruption, reading; a stall or truncation already armed is disarmed. */
    public FaultProxy clear() {
        return control(() -> {
            delayNanos[0] = delayNanos[1] = 0;
            stallUntilNanos = Long.MIN_VALUE;
            truncateArmed = -1;
            corruptRate = 0;
            corruptSkip = -1;
            swapArmed = false;
        }).resumeReading();
    }

    /** Applies {@code fault} now and counts it. */
    public FaultProxy apply(Fault fault) {
        return control(() -> {
            fault.apply(this);
            counters.faults.incrementAndGet();
        });
    }

    /** Applies {@code fault} every {@code period}, first after one period, until the returned handle is closed. */
    public AutoCloseable every(Duration period, Fault fault) {
        return every(period, period, fault);
    }

    /** Applies {@code fault} after {@code first}, then every {@code period}, until the returned handle is closed. */
    public AutoCloseable every(Duration first, Duration period, Fault fault) {
        ScheduledFuture<?> task = loop.scheduleAtFixedRate(() -> applyScheduled(fault, true),
                first.toNanos(), period.toNanos(), TimeUnit.NANOSECONDS);
        return () -> task.cancel(false);
    }

    /** Applies {@code faults} in turn, one every {@code period} (the soak's "a fault every minute"). */
    public AutoCloseable rotate(Duration period, List<Fault> faults) {
        int[] next = {0};
        return every(period, p -> faults.get(next[0]++ % faults.size()).apply(p));
    }

    /** Applies {@code fault} once, after {@code delay} (not counted as a fault: lasting faults end with it). */
    public void after(Duration delay, Fault fault) {
        loop.schedule(() -> applyScheduled(fault, false), delay.toNanos(), TimeUnit.NANOSECONDS);
    }

    private void applyScheduled(Fault fault, boolean count) {
        try {
            if (count) {
                apply(fault);
            } else {
                fault.apply(this);
            }
        } catch (RuntimeException e) {
            counters.faultFailures.incrementAndGet();
        }
    }

    @Override
    public void close() {
        control(() -> {
            for (Link l : List.copyOf(links)) {
                l.close(false);
            }
        });
        server.disposeNow(TIMEOUT);
        loops.disposeLater(Duration.ZERO, TIMEOUT).block(TIMEOUT);
    }

    // ---- the relay (on the loop) ----

    private void accepted(Connection frontConnection) {
        Channel front = frontConnection.channel();
        Link link = new Link(front);
        links.add(link);
        counters.accepted.incrementAndGet();
        counters.open.incrementAndGet();
        front.config().setAutoRead(false); // nothing to relay to until the target answers
        frontConnection.addHandlerLast("fault-proxy-front", new Side(link, true));
        client.connect().subscribe(
                back -> onLoop(() -> link.attach(back)),
                error -> onLoop(() -> {
                    counters.targetFailures.incrementAndGet();
                    link.close(false);
                }));
    }

    private void fromClient(Link link, ByteBuf bytes) {
        counters.bytesToServer.addAndGet(bytes.readableBytes());
        link.toServer.offer(bytes);
    }

    private void fromServer(Link link, ByteBuf bytes) {
        counters.bytesToClient.addAndGet(bytes.readableBytes());
        if (corruptRate > 0) {
            corrupt(bytes);
        }
        if (truncateArmed >= 0 && link.cutAfter < 0) {
            link.cutAfter = truncateArmed;
            truncateArmed = -1;
        }
        if (link.cutAfter >= 0) {
            if (bytes.readableBytes() >= link.cutAfter) {
                ByteBuf kept = bytes.readRetainedSlice(link.cutAfter);
                bytes.release();
                link.toClient.offer(kept);
                link.toClient.offerClose();
                link.cutAfter = -1;
                counters.truncations.incrementAndGet();
                return;
            }
            link.cutAfter -= bytes.readableBytes();
        }
        if (swapArmed || swapHolder != null) {
            swap(link, bytes);
            return;
        }
        link.toClient.offer(bytes);
    }

    private void swap(Link link, ByteBuf bytes) {
        if (swapHolder == null) {
            swapHolder = link;
            swapHeld = bytes;
            swapArmed = false;
            loop.schedule(() -> {
                if (swapHolder == link && swapHeld != null) { // no partner came: its own reply, late
                    swapHolder = null;
                    link.toClient.offer(takeHeld());
                }
            }, SWAP_WAIT_NANOS, TimeUnit.NANOSECONDS);
        } else if (swapHolder == link) {
            swapHeld = link.front.alloc().compositeBuffer().addComponents(true, swapHeld, bytes);
        } else {
            Link first = swapHolder;
            swapHolder = null;
            first.toClient.offer(bytes);
            link.toClient.offer(takeHeld());
            counters.swaps.incrementAndGet();
        }
    }

    private ByteBuf takeHeld() {
        ByteBuf held = swapHeld;
        swapHeld = null;
        return held;
    }

    private void corrupt(ByteBuf bytes) {
        int from = bytes.readerIndex();
        int end = bytes.writerIndex();
        int i = from;
        while (corruptSkip >= 0 && corruptSkip < end - i) {
            i += (int) corruptSkip;
            byte old = bytes.getByte(i);
            byte damaged = corruption == Corruption.FLIP
                    ? (byte) (old ^ (1 + random.nextInt(255)))
                    : (byte) random.nextInt(256);
            bytes.setByte(i, damaged);
            counters.bytesCorrupted.incrementAndGet();
            i++;
            corruptSkip = nextSkip();
        }
        if (corruptSkip >= 0) {
            corruptSkip -= end - i;
        }
    }

    /** Bytes to pass before the next damaged one: geometric, so each byte is hit with probability corruptRate. */
    private long nextSkip() {
        if (corruptRate >= 1) {
            return 0;
        }
        double u = random.nextDouble();
        return (long) Math.floor(Math.log1p(-u) / Math.log1p(-corruptRate));
    }

    private long releaseTime(Direction direction, long lastRelease) {
        long now = System.nanoTime();
        long at = now + delayNanos[direction.ordinal()];
        return Math.max(at, Math.max(stallUntilNanos, lastRelease));
    }

    private FaultProxy control(Runnable change) {
        if (loop.inEventLoop()) {
            change.run();
            return this;
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        loop.execute(() -> {
            try {
                change.run();
                done.complete(null);
            } catch (RuntimeException e) {
                done.completeExceptionally(e);
            }
        });
        done.orTimeout(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).join();
        return this;
    }

    private void onLoop(Runnable task) {
        if (loop.inEventLoop()) {
            task.run();
        } else {
            loop.execute(task);
        }
    }

    /** One client connection and its connection to the target. */
    private final class Link {
        final Channel front;
        Channel back;
        final Relay toServer = new Relay(this, Direction.TO_SERVER);
        final Relay toClient = new Relay(this, Direction.TO_CLIENT);
        /** Reply bytes still to pass before a truncation closes the link; -1: none armed. */
        int cutAfter = -1;
        boolean closed;

        Link(Channel front) {
            this.front = front;
        }

        void attach(Connection backConnection) {
            if (closed) {
                backConnection.dispose();
                return;
            }
            back = backConnection.channel();
            backConnection.addHandlerLast("fault-proxy-back", new Side(this, false));
            toServer.drain();
            updateReading();
        }

        /**
         * Backpressure: each side is read only while the other side takes bytes (writable) and
         * less than {@link #MAX_HELD_BYTES} are held for it; the client side also only while the
         * proxy is {@link #reading}. Nothing in the proxy grows without bound.
         */
        void updateReading() {
            if (closed) {
                return;
            }
            front.config().setAutoRead(reading && back != null && back.isWritable() && toServer.held < MAX_HELD_BYTES);
            if (back != null) {
                back.config().setAutoRead(front.isWritable() && toClient.held < MAX_HELD_BYTES);
            }
        }

        /** Closes both sides; with {@code rst} the client gets a reset instead of a FIN. */
        void close(boolean rst) {
            if (closed) {
                return;
            }
            closed = true;
            links.remove(this);
            counters.open.decrementAndGet();
            toServer.discard();
            toClient.discard();
            if (swapHolder == this) {
                swapHolder = null;
                ReferenceCountUtil.release(takeHeld());
            }
            if (rst && front.isActive()) {
                front.config().setOption(ChannelOption.SO_LINGER, 0);
            }
            front.close();
            if (back != null) {
                back.close();
            }
        }
    }

    /** Bytes going one way on one link, in order, each released at its time (delay, stall). */
    private final class Relay {
        private final Link link;
        private final Direction direction;
        /** Held chunks; a null buffer marks "close the link here". */
        private final ArrayDeque<Held> queue = new ArrayDeque<>();
        private long lastRelease = Long.MIN_VALUE;
        private boolean timerSet;
        /** Bytes in the queue. */
        int held;

        Relay(Link link, Direction direction) {
            this.link = link;
            this.direction = direction;
        }

        void offer(ByteBuf bytes) {
            if (link.closed) {
                bytes.release();
                return;
            }
            enqueue(new Held(bytes, releaseTime(direction, lastRelease)));
        }

        void offerClose() {
            enqueue(new Held(null, releaseTime(direction, lastRelease)));
        }

        private void enqueue(Held h) {
            lastRelease = h.releaseAt;
            queue.add(h);
            held += h.bytes == null ? 0 : h.bytes.readableBytes();
            drain();
            link.updateReading();
        }

        void drain() {
            long now = System.nanoTime();
            Channel to = direction == Direction.TO_SERVER ? link.back : link.front;
            if (to == null) {
                return; // the target is not connected yet: attach() drains
            }
            boolean wrote = false;
            Held h;
            while ((h = queue.peek()) != null && h.releaseAt <= now) {
                queue.poll();
                held -= h.bytes == null ? 0 : h.bytes.readableBytes();
                if (h.bytes == null) {
                    if (wrote) {
                        to.flush();
                    }
                    link.close(false);
                    return;
                }
                to.write(h.bytes, to.voidPromise());
                wrote = true;
            }
            if (wrote) {
                to.flush();
            }
            if (h != null && !timerSet) {
                timerSet = true;
                loop.schedule(() -> {
                    timerSet = false;
                    drain();
                    link.updateReading();
                }, h.releaseAt - now, TimeUnit.NANOSECONDS);
            }
        }

        void discard() {
            Held h;
            while ((h = queue.poll()) != null) {
                ReferenceCountUtil.release(h.bytes);
            }
            held = 0;
        }
    }

    private record Held(ByteBuf bytes, long releaseAt) {
    }

    /** The handler on either side of a link: bytes in go to the other side; a close closes the link. */
    private final class Side extends ChannelInboundHandlerAdapter {
        private final Link link;
        private final boolean front;

        Side(Link link, boolean front) {
            this.link = link;
            this.front = front;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (!(msg instanceof ByteBuf bytes)) {
                ReferenceCountUtil.release(msg);
                return;
            }
            onLoop(() -> {
                if (link.closed) {
                    bytes.release();
                } else if (front) {
                    fromClient(link, bytes);
                } else {
                    fromServer(link, bytes);
                }
            });
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            onLoop(() -> {
                if (front) {
                    link.close(false);
                } else {
                    // the server went away: what it sent still reaches the client, then the client sees the close
                    link.toClient.offerClose();
                }
            });
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            onLoop(link::updateReading);
            ctx.fireChannelWritabilityChanged();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            counters.ioErrors.incrementAndGet();
            ctx.close();
        }
    }
}
