package io.fluxperf.engine.connection;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ConnectTimeoutException;
import io.netty.channel.IoEvent;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoRegistration;
import io.netty.channel.epoll.EpollIoEvent;
import io.netty.channel.epoll.EpollIoHandle;
import io.netty.channel.epoll.EpollIoOps;
import io.netty.channel.epoll.LinuxSocket;
import io.netty.channel.epoll.Native;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.channel.unix.FileDescriptor;
import io.netty.util.concurrent.Future;
import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BiConsumer;

/**
 * A bare non-blocking socket registered straight on the load thread's epoll loop: the wire of a
 * connect-per-request connection, where a Netty channel's set-up and tear-down cost more than the
 * one request it carries, and of held connections with {@code -Dfluxperf.connect.heldBareSockets=true}
 * ({@link Transports}), where a channel's pipeline write, outbound buffer, flush, pooled read buffer
 * and cumulation cost more than the request's own work.
 *
 * <p>Measured against nginx with {@code Connection: close}, a channel made 18 system calls per
 * connection (wrk makes about 8) and about 14 µs of Java work. This makes 7: {@code socket},
 * {@code getsockname} (Netty's socket learns its family), {@code connect}, one
 * {@code epoll_ctl} (edge-triggered for reading and writing, never modified, and not deleted: the
 * fd is closed first, which removes it), {@code sendto}, {@code recvfrom} and {@code close}.
 * No {@code getsockopt(SO_ERROR)} when epoll reports the connect without an error, and no
 * {@code TCP_NODELAY} for a request that leaves in one segment-sized write, which Nagle's
 * algorithm never holds back.
 *
 * <p>A held connection sets its options at connect as a held channel's bootstrap does (TCP_NODELAY
 * unless {@code --tcp-nodelay false}, SO_KEEPALIVE; TCP only) and drops EPOLLOUT from its interest
 * once connected, taking it again only while a write waits for room: a Unix socket reports "writable"
 * each time the server reads a request, which would wake the loop for nothing. A batch the socket
 * takes whole leaves in one {@code sendto} and its buffer encodes the next batch; replies are read
 * into one buffer kept for the connection's life (one grown by a big reply is let go once read).
 *
 * <p>Epoll only: the caller checks {@link #supported}. Lives on its loop; not thread-safe.
 */
final class SocketWire implements Wire, EpollIoHandle, Runnable {
    /** Edge-triggered: each readiness is reported once, so reads go on until the socket has no more. */
    private static final EpollIoOps INTEREST =
            EpollIoOps.valueOf(Native.EPOLLIN | Native.EPOLLOUT | Native.EPOLLRDHUP | Native.EPOLLET);
    /** A held connection's interest between writes the socket took whole: no "writable" edges. */
    private static final EpollIoOps READING = EpollIoOps.valueOf(Native.EPOLLIN | Native.EPOLLRDHUP | Native.EPOLLET);
    /** The smallest segment a path may carry (IPv4's 536 bytes): a write up to this size is one segment. */
    static final int ONE_SEGMENT = 536;
    /** EPOLLHUP, which Netty's {@link Native} does not name: the connection is over both ways. */
    private static final int EPOLLHUP = 0x10;
    private static final int READ_BUFFER = 2048;
    /**
     * A write buffer larger than this (a batch of big values) is not kept for the next batch, and a
     * read buffer that grew past it is let go once it holds nothing: thousands of held connections
     * would otherwise each keep their largest batch and reply.
     */
    static final int MAX_KEPT = 64 * 1024;

    private final IoEventLoop loop;
    private final LinuxSocket socket;
    private final WireListener slot;
    private final ByteBufAllocator alloc;
    private final boolean tcpNoDelay;
    /** A held connection: options at connect, EPOLLOUT only while a write waits. */
    private final boolean held;
    /** EPOLLOUT is in the registration's interest (always, for a connection per request). */
    private boolean writeInterest = true;
    private IoRegistration registration;
    /** Until the connect is over: who hears of it, and the queue that times it out. */
    private BiConsumer<Wire, Throwable> connecting;
    private final ConnectDeadlines deadlines;
    /** This wire's place in {@link ConnectDeadlines}' queue. */
    SocketWire deadlinePrev;
    SocketWire deadlineNext;
    long deadlineNanos;
    boolean inDeadlines;
    private final SocketAddress target;
    private boolean open = true;
    private boolean noDelaySet;
    /** A write the socket could not take at once: the rest goes when epoll says it can. */
    private ByteBuf unsent;
    /** The last batch's buffer, written whole: the next batch is encoded into it. */
    private ByteBuf spare;
    private ByteBuf received;
    /** Inside {@link #handle}: the connection may still hold the received bytes, so handle releases them. */
    private boolean handling;

    private SocketWire(IoEventLoop loop, LinuxSocket socket, SocketAddress target, WireListener slot,
                       ByteBufAllocator alloc, boolean tcpNoDelay, boolean held, ConnectDeadlines deadlines) {
        this.loop = loop;
        this.deadlines = deadlines;
        this.socket = socket;
        this.target = target;
        this.slot = slot;
        this.alloc = alloc;
        this.tcpNoDelay = tcpNoDelay;
        this.held = held;
    }

    /** Whether bare sockets can run on {@code loop} to {@code target}: an epoll loop, and TCP or a Unix socket. */
    static boolean supported(Object loop, SocketAddress target) {
        return loop instanceof IoEventLoop io && io.isCompatible(EpollIoHandle.class)
                && (target instanceof InetSocketAddress inet && !inet.isUnresolved() || target instanceof DomainSocketAddress);
    }

    /**
     * Connects to {@code target} on the loop (call it there); {@code done} gets the wire once it
     * is connected, or the failure. The connect fails after the timeout of {@code deadlines}, which
     * belongs to this loop. {@code held}: a connection that carries many requests (see the class).
     */
    static void connect(IoEventLoop loop, SocketAddress target, WireListener slot, ByteBufAllocator alloc,
                        boolean tcpNoDelay, boolean held, ConnectDeadlines deadlines, BiConsumer<Wire, Throwable> done) {
        LinuxSocket socket;
        try {
            socket = target instanceof DomainSocketAddress ? LinuxSocket.newSocketDomain()
                    : LinuxSocket.newSocketStream(((InetSocketAddress) target).getAddress() instanceof Inet6Address);
        } catch (RuntimeException e) { // out of file descriptors
            done.accept(null, e);
            return;
        }
        SocketWire wire = new SocketWire(loop, socket, target, slot, alloc, tcpNoDelay, held, deadlines);
        wire.start(done);
    }

    private void start(BiConsumer<Wire, Throwable> done) {
        connecting = done;
        try {
            Future<IoRegistration> registered = loop.register(this); // done at once: this runs on the loop
            if (!registered.isSuccess()) {
                throw new IOException("cannot register a socket with the event loop", registered.cause());
            }
            registration = registered.getNow();
            if (!(target instanceof InetSocketAddress)) {
                noDelaySet = true; // a Unix socket has no Nagle's algorithm (and refuses TCP_NODELAY)
            } else if (held) {
                // as a held channel's bootstrap: back-to-back small requests must not wait for an ACK
                if (tcpNoDelay) {
                    socket.setTcpNoDelay(true);
                }
                socket.setKeepAlive(true);
                noDelaySet = true;
            }
            boolean connected = socket.connect(target);
            writeInterest = !(connected && held);
            registration.submit(writeInterest ? INTEREST : READING); // the one epoll_ctl
            if (connected) {
                connected();
            } else {
                deadlines.add(this);
            }
        } catch (IOException | RuntimeException e) {
            connectFailed(e);
        }
    }

    /** Called by {@link ConnectDeadlines}, which has already let go of this wire. */
    void connectTimedOut() {
        if (connecting != null) {
            connectFailed(new ConnectTimeoutException(
                    "connection timed out after " + deadlines.timeoutMillis() + " ms: " + target));
        }
    }

    private void connected() {
        BiConsumer<Wire, Throwable> done = connecting;
        connecting = null;
        deadlines.remove(this);
        done.accept(this, null);
    }

    private void connectFailed(Throwable cause) {
        BiConsumer<Wire, Throwable> done = connecting;
        connecting = null;
        deadlines.remove(this);
        closeSocket();
        if (!handling) {
            releaseBuffers();
        }
        done.accept(null, cause);
    }

    @Override
    public FileDescriptor fd() {
        return socket;
    }

    @Override
    public void handle(IoRegistration reg, IoEvent event) {
        int ops = ((EpollIoEvent) event).ops().value();
        handling = true;
        try {
            if (connecting != null) {
                if ((ops & (Native.EPOLLERR | EPOLLHUP)) != 0) {
                    try {
                        socket.finishConnect(); // reads the error
                        connectFailed(new IOException("connect failed: " + target));
                    } catch (IOException e) {
                        connectFailed(e);
                    }
                    return;
                }
                if ((ops & Native.EPOLLOUT) == 0) {
                    return;
                }
                if (held && !interest(false)) {
                    return;
                }
                connected();
            } else if ((ops & Native.EPOLLOUT) != 0 && unsent != null && open) {
                writeUnsent();
            }
            if (open && (ops & (Native.EPOLLIN | Native.EPOLLERR | EPOLLHUP | Native.EPOLLRDHUP)) != 0) {
                readAll((ops & (Native.EPOLLERR | EPOLLHUP | Native.EPOLLRDHUP)) != 0);
            }
        } finally {
            handling = false;
            if (!open) {
                releaseBuffers(); // not before: the connection may still hold the received bytes
            }
        }
    }

    /**
     * Reads until the socket has nothing more (edge-triggered), handing each read to the
     * connection. {@code toTheEnd}: the peer has closed, so read until the end of the stream,
     * which no later edge would report.
     */
    private void readAll(boolean toTheEnd) {
        while (open) {
            if (received == null) {
                received = alloc.ioBuffer(READ_BUFFER);
            } else if (!received.isReadable()) {
                received.clear();
            } else if (received.writableBytes() == 0) {
                received.discardReadBytes();
                if (received.writableBytes() < received.capacity() / 2) {
                    // a big reply: fewer, larger reads; the tail of a stream of small replies (a held
                    // connection's) only moves down, or the buffer would double at every full read
                    received.ensureWritable(received.capacity());
                }
            }
            int room = received.writableBytes();
            int n;
            try {
                n = read(received);
            } catch (IOException e) {
                slot.failed(this, e);
                close();
                return;
            }
            if (n > 0) {
                received.writerIndex(received.writerIndex() + n);
                slot.received(this, received);
                if (n < room && !toTheEnd) {
                    // drained: a read that asked for more than there was saves the read that would
                    // only say so (EAGAIN); bytes that come later make a new edge
                    break;
                }
            } else if (n < 0) { // the server closed its side
                slot.ended(this, received);
                close();
                return;
            } else {
                break;
            }
        }
        if (open) {
            if (!received.isReadable() && received.capacity() > MAX_KEPT) {
                received.release(); // a big reply's buffer; the next read takes a small one
                received = null;
            }
            slot.readComplete();
        }
    }

    private int read(ByteBuf into) throws IOException {
        int from = into.writerIndex();
        if (into.hasMemoryAddress()) {
            return socket.recvAddress(into.memoryAddress(), from, into.capacity());
        }
        ByteBuffer nio = into.internalNioBuffer(from, into.writableBytes());
        return socket.recv(nio, nio.position(), nio.limit());
    }

    @Override
    public ByteBuf buffer(int capacity) {
        ByteBuf b = spare;
        if (b != null) {
            spare = null;
            return b.clear();
        }
        return alloc.ioBuffer(capacity);
    }

    /** Keeps a buffer whose bytes are all out as the next batch's, or lets it go. */
    private void keepOrRelease(ByteBuf b) {
        if (spare == null && open && b.capacity() <= MAX_KEPT) {
            spare = b;
        } else {
            b.release();
        }
    }

    @Override
    public void write(ByteBuf batch) {
        if (!open) {
            batch.release();
            return;
        }
        if (unsent != null) { // still waiting for room: this goes behind it
            unsent.writeBytes(batch);
            keepOrRelease(batch);
            return;
        }
        if (tcpNoDelay && !noDelaySet && batch.readableBytes() > ONE_SEGMENT) {
            // more than one segment: without this the last one could wait for the first one's ACK
            try {
                socket.setTcpNoDelay(true);
                noDelaySet = true;
            } catch (IOException e) {
                fail(e);
                batch.release();
                return;
            }
        }
        unsent = batch;
        writeUnsent();
    }

    /**
     * Writes what the socket takes now; the rest waits for epoll's next "writable". A short write
     * means the socket is full, so no second call is made only to hear EAGAIN.
     */
    private void writeUnsent() {
        ByteBuf b = unsent;
        try {
            int readable = b.readableBytes();
            int n = readable == 0 ? 0 : send(b, readable);
            b.skipBytes(n);
            if (n < readable) {
                // full: epoll reports room with an EPOLLOUT edge; the bytes written are let go only
                // once they are half the buffer, so a big batch is not copied down at each edge
                b.discardSomeReadBytes();
                if (!writeInterest) {
                    interest(true);
                }
                return;
            }
        } catch (IOException e) {
            fail(e);
            return;
        }
        unsent = null;
        if (held && writeInterest && open) {
            interest(false);
        }
        keepOrRelease(b);
    }

    private int send(ByteBuf b, int readable) throws IOException {
        if (b.hasMemoryAddress()) {
            return socket.sendAddress(b.memoryAddress(), b.readerIndex(), b.writerIndex());
        }
        ByteBuffer nio = b.internalNioBuffer(b.readerIndex(), readable);
        return socket.send(nio, nio.position(), nio.limit());
    }

    /** Adds EPOLLOUT to the interest or takes it out; false (and the wire failed) if epoll refused. */
    private boolean interest(boolean write) {
        try {
            registration.submit(write ? INTEREST : READING);
            writeInterest = write;
            return true;
        } catch (RuntimeException e) {
            if (connecting != null) {
                connectFailed(e);
            } else {
                slot.failed(this, e);
                close();
            }
            return false;
        }
    }

    private void fail(IOException e) {
        slot.failed(this, e);
        close();
    }

    @Override
    public boolean tcpInfo(TcpProbe probe) {
        return open && connecting == null && target instanceof InetSocketAddress && probe.read(socket);
    }

    @Override
    public boolean isActive() {
        return open && connecting == null;
    }

    /**
     * Closes the socket; the close is reported on a later turn, after the loop has handled the
     * whole batch of events it is in. With a connection per request that report reconnects, so
     * the batch's reconnects go out together: the server is woken once for several connects and
     * accepts them in one go. Reported at once, inside each wire's {@link #handle}, connects came
     * one by one between the reads, and nginx was woken 0.51–0.74 times per connection against
     * 0.21–0.30, and spent 66–69 µs on each against 50–60 (3 alternating pairs, 50 connections;
     * the client 85–93 µs per connection against 62–77).
     */
    @Override
    public void close() {
        if (!open) {
            return;
        }
        closeSocket();
        if (!handling) {
            releaseBuffers();
        }
        try {
            loop.execute(this);
        } catch (RejectedExecutionException e) {
            run(); // the loop is shutting down and closes what is registered on it
        }
    }

    /** Reports the close (see {@link #close}). */
    @Override
    public void run() {
        slot.closed(this);
    }

    /** Closes the fd before cancelling the registration: the close takes it out of epoll, so no EPOLL_CTL_DEL. */
    private void closeSocket() {
        open = false;
        try {
            socket.close();
        } catch (IOException ignored) {
            // nothing to do: the descriptor is gone either way
        }
        if (registration != null) {
            registration.cancel();
        }
    }

    private void releaseBuffers() {
        if (unsent != null) {
            unsent.release();
            unsent = null;
        }
        if (spare != null) {
            spare.release();
            spare = null;
        }
        if (received != null) {
            received.release();
            received = null;
        }
    }

    /** Whether Nagle's algorithm is off on the socket, for tests. */
    boolean noDelay() throws IOException {
        return socket.isTcpNoDelay();
    }

    /** The read buffer's capacity (0 without one), for tests; on the loop. */
    int readBufferCapacity() {
        return received == null ? 0 : received.capacity();
    }

    /** Whether the socket has SO_KEEPALIVE, for tests. */
    boolean keepAlive() throws IOException {
        return socket.isKeepAlive();
    }

    @Override
    public String toString() {
        return "SocketWire{" + socket + " to " + target + "}";
    }
}
