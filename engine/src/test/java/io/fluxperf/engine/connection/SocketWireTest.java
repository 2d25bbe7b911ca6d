package io.fluxperf.engine.connection;

import io.fluxperf.testkit.TcpSockets;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ConnectTimeoutException;
import io.netty.channel.IoEventLoop;
import io.netty.channel.unix.DomainSocketAddress;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bare socket of a connect-per-request connection, on a real epoll loop against a peer socket
 * in this test: what it sends and receives, how it ends, and what it does not leave behind.
 */
class SocketWireTest {
    @TempDir
    Path dir;
    private ClientLoop loop;
    private ServerSocket peer;
    private ConnectDeadlines deadlines;
    private final List<Thread> peers = new ArrayList<>();

    @BeforeEach
    void start() throws IOException {
        loop = ClientLoop.create("fluxperf-wire-test", false);
        deadlines = new ConnectDeadlines(loop.loop(), 1000);
        // a deep queue: 300 connections in a row may run ahead of the accepting thread on a busy machine
        peer = new ServerSocket(0, 1024, InetAddress.getLoopbackAddress());
    }

    @AfterEach
    void stop() throws Exception {
        peer.close();
        for (Thread t : peers) {
            t.join(5_000);
        }
        loop.dispose(Duration.ofSeconds(2));
    }

    private IoEventLoop io() {
        return (IoEventLoop) loop.loop();
    }

    private InetSocketAddress peerAddress() {
        return new InetSocketAddress(peer.getInetAddress(), peer.getLocalPort());
    }

    /** Runs {@code work} with each connection the peer accepts, {@code count} times. */
    private void serve(int count, PeerWork work) {
        Thread t = new Thread(() -> {
            for (int i = 0; i < count; i++) {
                try (Socket s = peer.accept()) {
                    work.run(s);
                } catch (IOException e) {
                    return;
                }
            }
        }, "wire-test-peer");
        t.setDaemon(true);
        t.start();
        peers.add(t);
    }

    interface PeerWork {
        void run(Socket s) throws IOException;
    }

    private Wire connect(SocketAddress target, WireListener listener, boolean tcpNoDelay) throws Exception {
        return startConnect(target, listener, tcpNoDelay, false, deadlines).get(10, TimeUnit.SECONDS);
    }

    /** A held connection's wire (many requests), Nagle's algorithm off. */
    private SocketWire connectHeld(WireListener listener) throws Exception {
        return (SocketWire) startConnect(peerAddress(), listener, true, true, deadlines).get(10, TimeUnit.SECONDS);
    }

    private CompletableFuture<Wire> startConnect(SocketAddress target, WireListener listener, boolean tcpNoDelay,
                                                 ConnectDeadlines timeouts) {
        return startConnect(target, listener, tcpNoDelay, false, timeouts);
    }

    private CompletableFuture<Wire> startConnect(SocketAddress target, WireListener listener, boolean tcpNoDelay,
                                                 boolean held, ConnectDeadlines timeouts) {
        CompletableFuture<Wire> done = new CompletableFuture<>();
        io().execute(() -> SocketWire.connect(io(), target, listener, ByteBufAllocator.DEFAULT, tcpNoDelay, held, timeouts,
                (wire, error) -> {
                    if (error != null) {
                        done.completeExceptionally(error);
                    } else {
                        done.complete(wire);
                    }
                }));
        return done;
    }

    private void write(Wire wire, byte[] bytes) throws Exception {
        io().submit(() -> {
            ByteBuf b = wire.buffer(bytes.length);
            b.writeBytes(bytes);
            wire.write(b);
        }).get(5, TimeUnit.SECONDS);
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void aRequestGoesOutAndTheReplyAndTheEndComeBack() throws Exception {
        RecordingWireListener listener = new RecordingWireListener(10); // takes nothing before the whole reply
        serve(1, s -> {
            byte[] request = s.getInputStream().readNBytes(5);
            OutputStream out = s.getOutputStream();
            out.write(ascii(new String(request, StandardCharsets.US_ASCII).toUpperCase() + "+"));
            out.flush();
            // the rest of the reply once the wire has read the first part, so that it comes in a later read
            await("the wire read the first part").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(1))
                    .until(() -> listener.receivedCalls.get() >= 1);
            out.write(ascii("-end"));
        });
        Wire wire = connect(peerAddress(), listener, true);
        assertInstanceOf(SocketWire.class, wire);
        assertTrue(wire.isActive());
        write(wire, ascii("hello"));
        assertEquals(wire, listener.closed.get(5, TimeUnit.SECONDS));
        assertEquals("HELLO+-end", listener.taken.toString(StandardCharsets.US_ASCII),
                "bytes that were not taken stay for the next read");
        assertTrue(listener.receivedCalls.get() >= 2, "two reads: " + listener.receivedCalls);
        assertTrue(listener.ended, "the peer's close ends the stream");
        assertEquals(1, listener.closedCalls.get());
        assertTrue(listener.failures.isEmpty(), listener.failures.toString());
        assertFalse(wire.isActive());
    }

    @Test
    void aReplyThatComesWithThePeersCloseIsReadToTheEnd() throws Exception {
        // the reply and the FIN arrive together: the short read must not stop before the end
        serve(1, s -> {
            s.getInputStream().readNBytes(1);
            s.getOutputStream().write(ascii("short reply"));
        });
        RecordingWireListener listener = new RecordingWireListener();
        Wire wire = connect(peerAddress(), listener, true);
        write(wire, ascii("?"));
        listener.closed.get(5, TimeUnit.SECONDS);
        assertEquals("short reply", listener.taken.toString(StandardCharsets.US_ASCII));
        assertTrue(listener.ended, "the end of the stream was seen");
    }

    @Test
    void aReplyLargerThanTheReadBufferArrivesWhole() throws Exception {
        byte[] reply = new byte[3 << 20];
        new Random(11).nextBytes(reply);
        serve(1, s -> {
            s.getInputStream().readNBytes(1);
            s.getOutputStream().write(reply);
        });
        RecordingWireListener listener = new RecordingWireListener();
        Wire wire = connect(peerAddress(), listener, true);
        write(wire, ascii("?"));
        listener.closed.get(10, TimeUnit.SECONDS);
        assertArrayEquals(reply, listener.taken.toByteArray());
        assertTrue(listener.receivedCalls.get() < 3_000, "the read buffer grows: " + listener.receivedCalls + " reads");
    }

    @Test
    void aWriteLargerThanTheSocketTakesGoesOutWholeOnceThePeerReads() throws Exception {
        byte[] big = new byte[16 << 20];
        new Random(7).nextBytes(big);
        CompletableFuture<byte[]> seen = new CompletableFuture<>();
        CountDownLatch asked = new CountDownLatch(1);
        serve(1, s -> {
            // the peer reads nothing until the test has asked: the socket's buffers fill with the write
            try {
                asked.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            seen.complete(s.getInputStream().readNBytes(big.length));
        });
        RecordingWireListener listener = new RecordingWireListener();
        Wire wire = connect(peerAddress(), listener, true);
        write(wire, big);
        // asked while the peer does not read: once it has read all, it closes and so does the wire
        try {
            assertTrue(((SocketWire) wire).noDelay(), "more than a segment: Nagle's algorithm is turned off");
        } finally {
            asked.countDown();
        }
        assertArrayEquals(big, seen.get(20, TimeUnit.SECONDS));
        assertEquals(wire, listener.closed.get(5, TimeUnit.SECONDS));
        assertTrue(listener.failures.isEmpty(), listener.failures.toString());
    }

    @Test
    void aRequestOfOneSegmentLeavesNagleAloneAndTcpNoDelayFalseNeverTurnsItOff() throws Exception {
        serve(2, s -> s.getInputStream().readAllBytes());
        Wire small = connect(peerAddress(), new RecordingWireListener(), true);
        write(small, new byte[SocketWire.ONE_SEGMENT]);
        assertFalse(((SocketWire) small).noDelay(), "one segment: no setsockopt");
        Wire bigWithNagle = connect(peerAddress(), new RecordingWireListener(), false);
        write(bigWithNagle, new byte[SocketWire.ONE_SEGMENT * 4]);
        assertFalse(((SocketWire) bigWithNagle).noDelay(), "--tcp-nodelay false keeps Nagle's algorithm");
        io().submit(small::close).get(5, TimeUnit.SECONDS);
        io().submit(bigWithNagle::close).get(5, TimeUnit.SECONDS);
    }

    @Test
    void ourCloseIsReportedOnALaterTurnAndLeavesNoDescriptorOpen() throws Exception {
        int connections = 300;
        serve(connections, s -> s.getInputStream().readAllBytes());
        long before = openDescriptors();
        for (int i = 0; i < connections; i++) {
            RecordingWireListener listener = new RecordingWireListener();
            Wire wire = connect(peerAddress(), listener, true);
            io().submit(() -> {
                listener.insideClose = true;
                wire.close();
                listener.insideClose = false;
            }).get(5, TimeUnit.SECONDS);
            assertEquals(wire, listener.closed.get(5, TimeUnit.SECONDS));
            assertFalse(listener.closedInsideClose, "the close was reported inside close()");
            assertEquals(1, listener.closedCalls.get());
        }
        long after = openDescriptors();
        assertTrue(after - before < 20, "descriptors open before " + before + ", after " + connections
                + " connections " + after);
    }

    @Test
    void aRefusedConnectFailsWithTheReason() throws Exception {
        int port;
        try (ServerSocket gone = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = gone.getLocalPort();
        }
        Exception e = assertFailure(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        assertEquals("Connection refused", Failures.describe(e));
    }

    @Test
    void aConnectThatHangsTimesOut() throws Exception {
        // a full accept queue drops the SYNs of further connects: they hang until our timer
        try (ServerSocket full = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            InetSocketAddress target = new InetSocketAddress(full.getInetAddress(), full.getLocalPort());
            List<Wire> queued = new ArrayList<>();
            try {
                Exception failure = null;
                for (int i = 0; i < 8 && failure == null; i++) {
                    try {
                        queued.add(connect(target, new RecordingWireListener(), true));
                    } catch (ExecutionException e) {
                        failure = e;
                    }
                }
                assertNotNull(failure, "every connect got through: the queue never filled");
                assertInstanceOf(ConnectTimeoutException.class, failure.getCause());
                assertTrue(failure.getCause().getMessage().startsWith("connection timed out after 1000 ms"),
                        failure.getCause().getMessage());
            } finally {
                for (Wire w : queued) {
                    io().submit(w::close).get(5, TimeUnit.SECONDS);
                }
            }
        }
    }

    @Test
    void connectsThatHangTimeOutEachAtItsOwnDeadlineAndOnesThatConnectLeaveNothingWaiting() throws Exception {
        serve(1, s -> s.getInputStream().read());
        Wire ok = connect(peerAddress(), new RecordingWireListener(), true);
        assertEquals(0, io().submit(deadlines::waiting).get(5, TimeUnit.SECONDS), "a connect that is over waits for no deadline");
        io().submit(ok::close).get(5, TimeUnit.SECONDS);

        ConnectDeadlines timeouts = new ConnectDeadlines(loop.loop(), 400);
        // a full accept queue drops the SYNs of further connects: they hang until their deadline
        try (ServerSocket full = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            InetSocketAddress target = new InetSocketAddress(full.getInetAddress(), full.getLocalPort());
            List<Wire> queued = new ArrayList<>();
            try {
                boolean hung = false;
                for (int i = 0; i < 8 && !hung; i++) {
                    try {
                        queued.add(startConnect(target, new RecordingWireListener(), true, timeouts).get(10, TimeUnit.SECONDS));
                    } catch (ExecutionException e) {
                        hung = true;
                    }
                }
                assertTrue(hung, "every connect got through: the queue never filled");
                long aStart = System.nanoTime();
                CompletableFuture<Long> aFailed = startConnect(target, new RecordingWireListener(), true, timeouts)
                        .handle((w, e) -> System.nanoTime());
                Thread.sleep(150); // deliberate: b's deadline is 150 ms after a's, the gap under test
                long bStart = System.nanoTime();
                CompletableFuture<Long> bFailed = startConnect(target, new RecordingWireListener(), true, timeouts)
                        .handle((w, e) -> System.nanoTime());
                long a = aFailed.get(10, TimeUnit.SECONDS) - aStart;
                long b = bFailed.get(10, TimeUnit.SECONDS) - bStart;
                assertTrue(a >= TimeUnit.MILLISECONDS.toNanos(395) && b >= TimeUnit.MILLISECONDS.toNanos(395),
                        "none fails before its 400 ms: " + a / 1_000_000 + " and " + b / 1_000_000 + " ms");
                assertTrue(b < TimeUnit.MILLISECONDS.toNanos(560),
                        "the second fails at its own deadline, not a whole timeout after the first: " + b / 1_000_000 + " ms (first " + a / 1_000_000 + ")");
                assertEquals(0, io().submit(timeouts::waiting).get(5, TimeUnit.SECONDS));
            } finally {
                for (Wire w : queued) {
                    io().submit(w::close).get(5, TimeUnit.SECONDS);
                }
            }
        }
    }

    private static final int UNIX_REQUEST = SocketWire.ONE_SEGMENT * 4;

    @Test
    void aUnixSocketWorksToo() throws Exception {
        Path path = dir.resolve("peer.sock");
        try (ServerSocketChannel unix = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            unix.bind(UnixDomainSocketAddress.of(path));
            Thread t = new Thread(() -> {
                try (SocketChannel s = unix.accept()) {
                    ByteBuffer b = ByteBuffer.allocate(UNIX_REQUEST);
                    while (b.hasRemaining() && s.read(b) >= 0) {
                        // reading the request
                    }
                    s.write(ByteBuffer.wrap(ascii("pong")));
                } catch (IOException ignored) {
                    // the test fails on what it did not receive
                }
            });
            t.start();
            peers.add(t);
            RecordingWireListener listener = new RecordingWireListener();
            Wire wire = connect(new DomainSocketAddress(new File(path.toString())), listener, true);
            // more than a segment: TCP would turn Nagle's algorithm off here, which a Unix socket refuses
            write(wire, new byte[UNIX_REQUEST]);
            listener.closed.get(5, TimeUnit.SECONDS);
            assertEquals("pong", listener.taken.toString(StandardCharsets.US_ASCII));
            assertTrue(listener.ended);
            assertTrue(listener.failures.isEmpty(), listener.failures.toString());
        }
    }

    /** Writes {@code bytes} as one batch in a buffer from the wire, on the loop; returns the buffer. */
    private ByteBuf writeBatch(Wire wire, byte[] bytes) throws Exception {
        return io().submit(() -> {
            ByteBuf b = wire.buffer(64);
            b.writeBytes(bytes);
            wire.write(b);
            return b;
        }).get(5, TimeUnit.SECONDS);
    }

    @Test
    void aHeldSocketEncodesEachBatchIntoTheLastOnesBufferAndLetsItGoAtTheClose() throws Exception {
        CompletableFuture<byte[]> seen = new CompletableFuture<>();
        serve(1, s -> {
            seen.complete(s.getInputStream().readNBytes(14));
            s.getOutputStream().write(ascii("VALUE"));
            s.getInputStream().read(); // until the wire closes
        });
        RecordingWireListener listener = new RecordingWireListener();
        SocketWire wire = connectHeld(listener);
        ByteBuf first = writeBatch(wire, ascii("get a\r\n"));
        ByteBuf second = writeBatch(wire, ascii("get b\r\n"));
        assertSame(first, second, "the second batch was encoded into the first one's buffer");
        assertEquals(1, second.refCnt(), "the wire alone keeps it");
        assertArrayEquals(ascii("get a\r\nget b\r\n"), seen.get(5, TimeUnit.SECONDS));
        await("the reply").atMost(Duration.ofSeconds(5)).until(() -> listener.taken.size() == 5);
        io().submit(wire::close).get(5, TimeUnit.SECONDS);
        assertEquals(wire, listener.closed.get(5, TimeUnit.SECONDS));
        assertEquals(0, second.refCnt(), "released with the wire");
        assertFalse(listener.ended, "our own close is no end of the server's stream");
        assertTrue(listener.failures.isEmpty(), listener.failures.toString());
    }

    /**
     * A stream of small replies that fills the read buffer with a part of a reply at its end moves
     * that part down instead of doubling the buffer at every full read.
     */
    @Test
    void aHeldSocketsReadBufferStaysSmallUnderAStreamOfSmallReplies() throws Exception {
        int record = 10; // a reply of 10 bytes: 2,048-byte reads end inside one
        int records = 100_000;
        serve(1, s -> {
            byte[] chunk = new byte[record * 1000];
            OutputStream out = s.getOutputStream();
            for (int i = 0; i < records / 1000; i++) {
                out.write(chunk);
            }
            s.getInputStream().read(); // until the wire closes
        });
        java.util.concurrent.atomic.AtomicLong taken = new java.util.concurrent.atomic.AtomicLong();
        int[] largest = {0};
        WireListener replies = new WireListener() {
            @Override
            public void received(Wire from, ByteBuf in) {
                int whole = in.readableBytes() / record * record; // a reply's part waits for the rest
                in.skipBytes(whole);
                taken.addAndGet(whole);
                largest[0] = Math.max(largest[0], ((SocketWire) from).readBufferCapacity());
            }

            @Override
            public void ended(Wire from, ByteBuf in) {
            }

            @Override
            public void readComplete() {
            }

            @Override
            public void failed(Wire from, Throwable cause) {
            }

            @Override
            public void closed(Wire from) {
            }
        };
        SocketWire wire = connectHeld(replies);
        await("every reply").atMost(Duration.ofSeconds(10)).until(() -> taken.get() == (long) record * records);
        int capacity = io().submit(() -> largest[0]).get(5, TimeUnit.SECONDS);
        assertTrue(capacity <= 4096, "the read buffer grew to " + capacity + " bytes");
        io().submit(wire::close).get(5, TimeUnit.SECONDS);
    }

    /**
     * A held socket takes "writable" edges only while a write waits for room: twice a batch bigger
     * than the socket takes, with batches written behind it, arrives whole and in order, and so does
     * a small batch once the socket has room again.
     */
    @Test
    void aHeldSocketsBatchesThatWaitForRoomArriveWholeAndInOrder() throws Exception {
        byte[] big = new byte[8 << 20];
        new Random(5).nextBytes(big);
        byte[] behind = ascii("behind\r\n");
        byte[] last = ascii("last\r\n");
        int total = 2 * (big.length + behind.length) + last.length;
        CompletableFuture<byte[]> seen = new CompletableFuture<>();
        CountDownLatch[] asked = {new CountDownLatch(1), new CountDownLatch(1)};
        serve(1, s -> {
            byte[] all = new byte[total];
            int at = 0;
            for (CountDownLatch round : asked) {
                // the peer reads nothing until the test has written a round: the socket's buffers fill
                try {
                    round.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                int n = s.getInputStream().readNBytes(all, at, big.length + behind.length);
                at += n;
            }
            at += s.getInputStream().readNBytes(all, at, last.length);
            seen.complete(java.util.Arrays.copyOf(all, at));
        });
        RecordingWireListener listener = new RecordingWireListener();
        SocketWire wire = connectHeld(listener);
        List<ByteBuf> bigOnes = new ArrayList<>();
        for (CountDownLatch round : asked) {
            bigOnes.add(writeBatch(wire, big));
            writeBatch(wire, behind);
            round.countDown();
        }
        // the second round's bytes may still be on their way: this one waits behind them or goes at once
        writeBatch(wire, last);
        byte[] expected = new byte[total];
        for (int r = 0, at = 0; r < 2; r++) {
            System.arraycopy(big, 0, expected, at, big.length);
            System.arraycopy(behind, 0, expected, at + big.length, behind.length);
            at += big.length + behind.length;
        }
        System.arraycopy(last, 0, expected, total - last.length, last.length);
        assertArrayEquals(expected, seen.get(20, TimeUnit.SECONDS));
        assertTrue(listener.failures.isEmpty(), listener.failures.toString());
        for (ByteBuf b : bigOnes) {
            assertEquals(0, (int) io().submit(b::refCnt).get(5, TimeUnit.SECONDS),
                    "a buffer larger than the wire keeps is released once written");
        }
        io().submit(wire::close).get(5, TimeUnit.SECONDS);
    }

    private Exception assertFailure(SocketAddress target) {
        try {
            connect(target, new RecordingWireListener(), true);
        } catch (Exception e) {
            return e.getCause() instanceof Exception cause ? cause : e;
        }
        throw new AssertionError("the connect to " + target + " succeeded");
    }

    private static long openDescriptors() throws IOException {
        try (var files = java.nio.file.Files.list(Path.of("/proc/self/fd"))) {
            return files.count();
        }
    }

    /**
     * Closes made while the loop handles a batch of events are reported after the whole batch: with
     * a connection per request each report reconnects, and the reconnects of a batch then reach the
     * server together (one wake-up of nginx for several connects) instead of one between each read.
     */
    @Test
    void closesInOneBatchOfEventsAreReportedAfterIt() throws Exception {
        CountDownLatch loopHeld = new CountDownLatch(1);
        serve(2, s -> { // a reply, then the end, once the loop is busy
            try {
                loopHeld.await(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            s.getOutputStream().write('x');
            s.close();
        });
        List<String> events = new java.util.concurrent.CopyOnWriteArrayList<>();
        CompletableFuture<Void> bothClosed = new CompletableFuture<>();
        class Logging implements WireListener {
            private final String name;

            Logging(String name) {
                this.name = name;
            }

            @Override
            public void received(Wire from, ByteBuf in) {
                in.skipBytes(in.readableBytes());
            }

            @Override
            public void ended(Wire from, ByteBuf in) {
                events.add("ended " + name);
            }

            @Override
            public void readComplete() {
            }

            @Override
            public void failed(Wire from, Throwable cause) {
                events.add("failed " + name);
            }

            @Override
            public void closed(Wire from) {
                events.add("closed " + name);
                if (events.stream().filter(e -> e.startsWith("closed")).count() == 2) {
                    bothClosed.complete(null);
                }
            }
        }
        // the loop is kept busy until the peer has answered and closed both (both wires' sockets have
        // the FIN, after the reply), so one epoll wait reports both ends
        CompletableFuture<Void> held = new CompletableFuture<>();
        Wire a = connect(peerAddress(), new Logging("a"), false);
        Wire b = connect(peerAddress(), new Logging("b"), false);
        io().execute(() -> {
            held.complete(null);
            await("both ends reached the wires' sockets").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(5))
                    .until(() -> TcpSockets.withRemotePort(peer.getLocalPort()).stream()
                            .filter(s -> s.state() == TcpSockets.CLOSE_WAIT).count() == 2);
        });
        held.get(5, TimeUnit.SECONDS);
        loopHeld.countDown();
        bothClosed.get(10, TimeUnit.SECONDS);
        assertEquals(4, events.size(), events.toString());
        assertTrue(events.get(0).startsWith("ended") && events.get(1).startsWith("ended"),
                "both ends before either close report: " + events);
        assertFalse(a.isActive());
        assertFalse(b.isActive());
    }
}
