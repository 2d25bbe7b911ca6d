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
 * one request it carries.
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
 * <p>Epoll only: the caller checks {@link #supported}. Lives on its loop; not thread-safe.
 */
final class SocketWire implements Wire, EpollIoHandle, Runnable {
    /** Edge-triggered: each readiness is reported once, so reads go on until the socket has no more. */
    private static final EpollIoOps INTEREST =
            EpollIoOps.valueOf(Native.EPOLLIN | Native.EPOLLOUT | Native.EPOLLRDHUP | Native.EPOLLET);
    /** The smallest segment a path may carry (IPv4's 536 bytes): a write up to this size is one segment. */
    static final int ONE_SEGMENT = 536;
    /** EPOLLHUP, which Netty's {@link Native} does not name: the connection is over both ways. */
    private static final int EPOLLHUP = 0x10;
    private static final int READ_BUFFER = 2048;

    private final IoEventLoop loop;
    private final LinuxSocket socket;
    private final WireListener slot;
    private final ByteBufAllocator alloc;
    private final boolean tcpNoDelay;
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
    private ByteBuf received;
    /** Inside {@link #handle}: the connection may still hold the received bytes, so handle releases them. */
    private boolean handling;

    private SocketWire(IoEventLoop loop, LinuxSocket socket, SocketAddress target, WireListener slot,
                       ByteBufAllocator alloc, boolean tcpNoDelay, ConnectDeadlines deadlines) {
        this.loop = loop;
        this.deadlines = deadlines;
        this.socket = socket;
        this.target = target;
        this.slot = slot;
        this.alloc = alloc;
        this.tcpNoDelay = tcpNoDelay;
    }

    /** Whether bare sockets can run on {@code loop} to {@code target}: an epoll loop, and TCP or a Unix socket. */
    static boolean supported(Object loop, SocketAddress target) {
        return loop instanceof IoEventLoop io && io.isCompatible(EpollIoHandle.class)
                && (target instanceof InetSocketAddress inet && !inet.isUnresolved() || target instanceof DomainSocketAddress);
    }

    /**
     * Connects to {@code target} on the loop (call it there); {@code done} gets the wire once it
     * is connected, or the failure. The connect fails after the timeout of {@code deadlines}, which
     * belongs to this loop.
     */
    static void connect(IoEventLoop loop, SocketAddress target, WireListener slot, ByteBufAllocator alloc,
                        boolean tcpNoDelay, ConnectDeadlines deadlines, BiConsumer<Wire, Throwable> done) {
        LinuxSocket socket;
        try {
            socket = target instanceof DomainSocketAddress ? LinuxSocket.newSocketDomain()
                    : LinuxSocket.newSocketStream(((InetSocketAddress) target).getAddress() instanceof Inet6Address);
        } catch (RuntimeException e) { // out of file descriptors
            done.accept(null, e);
            return;
        }
        SocketWire wire = new SocketWire(loop, socket, target, slot, alloc, tcpNoDelay, deadlines);
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
            boolean connected = socket.connect(target);
            registration.submit(INTEREST); // the one epoll_ctl
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
                received.ensureWritable(received.capacity()); // a big reply: fewer, larger reads
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
        return alloc.ioBuffer(capacity);
    }

    @Override
    public void write(ByteBuf batch) {
        if (!open) {
            batch.release();
            return;
        }
        if (unsent != null) { // still waiting for room: this goes behind it
            unsent.writeBytes(batch);
            batch.release();
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

    /** Writes what the socket takes now; the rest waits for epoll's next "writable". */
    private void writeUnsent() {
        ByteBuf b = unsent;
        try {
            while (b.isReadable()) {
                int n;
                if (b.hasMemoryAddress()) {
                    n = socket.sendAddress(b.memoryAddress(), b.readerIndex(), b.writerIndex());
                } else {
                    ByteBuffer nio = b.internalNioBuffer(b.readerIndex(), b.readableBytes());
                    n = socket.send(nio, nio.position(), nio.limit());
                }
                if (n == 0) {
                    b.discardReadBytes();
                    return; // full: epoll reports room with an EPOLLOUT edge
                }
                b.skipBytes(n);
            }
        } catch (IOException e) {
            fail(e);
            return;
        }
        unsent = null;
        b.release();
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
        if (received != null) {
            received.release();
            received = null;
        }
    }

    /** Whether Nagle's algorithm is off on the socket, for tests. */
    boolean noDelay() throws IOException {
        return socket.isTcpNoDelay();
    }

    @Override
    public String toString() {
        return "SocketWire{" + socket + " to " + target + "}";
    }
}
