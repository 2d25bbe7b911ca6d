package io.fluxperf.engine.transport;

import io.fluxperf.engine.config.ConfigResolver;
import io.fluxperf.engine.config.RunSettings;
import io.fluxperf.engine.load.LoadRun;
import io.fluxperf.engine.load.RunListener;
import io.fluxperf.engine.metrics.OutcomeCounts;
import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.engine.target.TargetOptions;
import io.fluxperf.engine.target.TargetServer;
import io.fluxperf.testkit.SelfSignedCertificate;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.Arrays;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The embedded memcache target's UDP, Unix-socket and TLS listeners, seen from plain JDK clients and from the engine. */
class EmbeddedListenersTest {
    @TempDir
    Path dir;

    private static byte[] datagram(int id, int seq, int total, String body) {
        byte[] text = body.getBytes(StandardCharsets.US_ASCII);
        return ByteBuffer.allocate(8 + text.length).putShort((short) id).putShort((short) seq).putShort((short) total)
                .putShort((short) 0).put(text).array();
    }

    private static DatagramPacket receive(DatagramSocket socket) throws IOException {
        byte[] buffer = new byte[65536];
        DatagramPacket p = new DatagramPacket(buffer, buffer.length);
        socket.receive(p);
        return p;
    }

    @Test
    void udpRepliesCarryTheRequestIdAndAreSplitIntoNumberedDatagramsOfAtMost1400Bytes() throws Exception {
        try (TargetServer target = Protocols.startTarget("memcache", TargetOptions.builder().udpPort(0).build());
             DatagramSocket client = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            client.connect(target.udpAddress());
            client.setSoTimeout(2000);
            String value = "v".repeat(5000);
            byte[] set = datagram(0x1234, 0, 1, "set big 0 0 5000\r\n" + value + "\r\n");
            client.send(new DatagramPacket(set, set.length));
            DatagramPacket stored = receive(client);
            assertEquals("STORED\r\n", new String(stored.getData(), 8, stored.getLength() - 8, StandardCharsets.US_ASCII));
            assertEquals(0x1234, ByteBuffer.wrap(stored.getData()).getShort() & 0xFFFF);

            byte[] get = datagram(0xBEEF, 0, 1, "get big\r\n");
            client.send(new DatagramPacket(get, get.length));
            ByteArrayOutputStream reply = new ByteArrayOutputStream();
            int total = -1;
            for (int seq = 0; total < 0 || seq < total; seq++) {
                DatagramPacket p = receive(client);
                assertTrue(p.getLength() <= 1400, "datagram of " + p.getLength() + " bytes");
                ByteBuffer h = ByteBuffer.wrap(p.getData());
                assertEquals(0xBEEF, h.getShort() & 0xFFFF);
                assertEquals(seq, h.getShort() & 0xFFFF, "in order on loopback");
                total = h.getShort() & 0xFFFF;
                assertEquals(0, h.getShort());
                reply.write(p.getData(), 8, p.getLength() - 8);
            }
            assertEquals(4, total, "5000-byte value + framing in 1392-byte pieces");
            assertEquals("VALUE big 0 5000\r\n" + value + "\r\nEND\r\n", reply.toString(StandardCharsets.US_ASCII));
        }
    }

    @Test
    void udpDropsMultiDatagramRequestsAndRuntDatagramsAsMemcachedDoes() throws Exception {
        try (TargetServer target = Protocols.startTarget("memcache", TargetOptions.builder().udpPort(0).build());
             DatagramSocket client = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            client.connect(target.udpAddress());
            client.setSoTimeout(300);
            byte[] multi = datagram(1, 0, 2, "get a\r\n");
            client.send(new DatagramPacket(multi, multi.length));
            client.send(new DatagramPacket(new byte[] {1, 2, 3}, 3));
            byte[] incomplete = datagram(2, 0, 1, "set k 0 0 10\r\nabc"); // an unfinished set must not swallow the next datagram
            client.send(new DatagramPacket(incomplete, incomplete.length));
            byte[] version = datagram(3, 0, 1, "version\r\n");
            client.send(new DatagramPacket(version, version.length));
            DatagramPacket p = receive(client);
            assertEquals(3, ByteBuffer.wrap(p.getData()).getShort(), "only the version request is answered");
            assertTrue(new String(p.getData(), 8, p.getLength() - 8, StandardCharsets.US_ASCII).startsWith("VERSION "));
            assertThrows(SocketTimeoutException.class, () -> receive(client));
        }
    }

    private static String unixExchange(Path socket, String request, String until) throws IOException {
        try (SocketChannel ch = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
            OutputStream out = Channels.newOutputStream(ch);
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = Channels.newInputStream(ch);
            StringBuilder reply = new StringBuilder();
            while (!reply.toString().endsWith(until)) {
                int b = in.read();
                if (b < 0) {
                    break;
                }
                reply.append((char) b);
            }
            return reply.toString();
        }
    }

    @Test
    void unixSocketListenerServesTheSameStoreAndReplacesAStaleSocketFile() throws Exception {
        Path socket = dir.resolve("mc.sock");
        try (TargetServer target = Protocols.startTarget("memcache", TargetOptions.builder().unixPath(socket).build())) {
            assertEquals(socket, target.unixPath());
            assertTrue(target.describe().contains("Unix socket " + socket), target.describe());
            assertEquals("STORED\r\n", unixExchange(socket, "set k 0 0 2\r\nhi\r\n", "\r\n"));
        }
        assertFalse(Files.exists(socket), "close() removes the socket file");
        // a socket file left behind (a crashed server) is replaced, as memcached does
        try (java.nio.channels.ServerSocketChannel stale = java.nio.channels.ServerSocketChannel.open(java.net.StandardProtocolFamily.UNIX)) {
            stale.bind(UnixDomainSocketAddress.of(socket));
        }
        assertTrue(Files.exists(socket));
        try (TargetServer target = Protocols.startTarget("memcache", TargetOptions.builder().unixPath(socket).build())) {
            assertEquals("END\r\n", unixExchange(socket, "get k\r\n", "END\r\n"));
        }
    }

    @Test
    void aFileInTheWayOfTheUnixSocketOrABusyUdpPortIsOneClearMessage() throws Exception {
        Path file = Files.writeString(dir.resolve("not-a-socket"), "data");
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> Protocols.startTarget("memcache", TargetOptions.builder().unixPath(file).build()));
        assertTrue(e.getMessage().contains("Unix socket " + file) && e.getMessage().contains("not a socket"), e.getMessage());
        assertEquals("data", Files.readString(file), "never removed");
        try (DatagramSocket busy = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            IllegalStateException u = assertThrows(IllegalStateException.class,
                    () -> Protocols.startTarget("memcache", TargetOptions.builder().udpPort(busy.getLocalPort()).build()));
            assertTrue(u.getMessage().startsWith("cannot listen on UDP 127.0.0.1:" + busy.getLocalPort() + ": "), u.getMessage());
            assertTrue(u.getMessage().toLowerCase().contains("in use"), u.getMessage());
        }
    }

    @Test
    void tlsListenerHandshakesWithTheTestCertificate() throws Exception {
        SelfSignedCertificate cert = SelfSignedCertificate.create(dir, "server");
        try (TargetServer target = Protocols.startTarget("memcache",
                TargetOptions.builder().tls(cert.certificate(), cert.privateKey()).build())) {
            assertTrue(target.tls());
            assertTrue(target.describe().contains("(TLS)"), target.describe());
            KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
            trust.load(null, null);
            try (InputStream in = Files.newInputStream(cert.certificate())) {
                trust.setCertificateEntry("server", CertificateFactory.getInstance("X.509").generateCertificate(in));
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, tmf.getTrustManagers(), null);
            try (SSLSocket s = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", target.address().getPort())) {
                s.setSoTimeout(5000);
                s.getOutputStream().write("version\r\n".getBytes(StandardCharsets.US_ASCII));
                byte[] buffer = new byte[64];
                int n = s.getInputStream().read(buffer);
                assertTrue(new String(Arrays.copyOf(buffer, n), StandardCharsets.US_ASCII).startsWith("VERSION "));
            }
        }
    }

    @Test
    void tlsFilesThatCannotBeUsedAreNamed() throws Exception {
        Path cert = Files.writeString(dir.resolve("cert.pem"), "not a certificate");
        Path key = Files.writeString(dir.resolve("key.pem"), "not a key");
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> Protocols.startTarget("memcache", TargetOptions.builder().tls(cert, key).build()));
        assertTrue(e.getMessage().startsWith("TLS certificate " + cert), e.getMessage());
        IllegalStateException missing = assertThrows(IllegalStateException.class,
                () -> Protocols.startTarget("memcache", TargetOptions.builder().tls(dir.resolve("none.pem"), key).build()));
        assertTrue(missing.getMessage().contains("does not exist"), missing.getMessage());
        assertThrows(IllegalArgumentException.class, () -> TargetOptions.builder().tls(cert, null).build());
        assertThrows(IllegalArgumentException.class, () -> TargetOptions.builder().udpPort(-2).build());
    }

    @Test
    void defaultsAddNoListeners() {
        TargetOptions o = TargetOptions.defaults();
        assertEquals(-1, o.udpPort());
        assertNull(o.unixPath());
        assertFalse(o.tls());
        assertEquals(o, o.toBuilder().build(), "toBuilder keeps every option");
        TargetOptions all = TargetOptions.builder().udpPort(0).unixPath(Path.of("/tmp/x.sock"))
                .tls(Path.of("c.pem"), Path.of("k.pem")).build();
        assertEquals(all, all.toBuilder().build());
    }

    @Test
    void theEngineLoadsTheUnixAndTlsListeners() {
        SelfSignedCertificate cert = SelfSignedCertificate.create(dir, "engine");
        Path socket = dir.resolve("engine.sock");
        try (TargetServer target = Protocols.startTarget("memcache", TargetOptions.builder()
                .unixPath(socket).tls(cert.certificate(), cert.privateKey()).build())) {
            RunSettings unix = settings("unix:" + socket);
            OutcomeCounts viaUnix = new LoadRun(ConfigResolver.resolve(unix.toFlags()), new RunListener() { })
                    .execute(new io.netty.channel.unix.DomainSocketAddress(socket.toString()), unix.server)
                    .total().total().outcomes();
            assertEquals(300, viaUnix.ok(), viaUnix.toString());

            RunSettings tls = settings("127.0.0.1:" + target.address().getPort());
            tls.tls = true;
            tls.tlsCa = cert.certificate();
            OutcomeCounts viaTls = new LoadRun(ConfigResolver.resolve(tls.toFlags()), new RunListener() { })
                    .execute(target.address(), tls.server).total().total().outcomes();
            assertEquals(300, viaTls.ok(), viaTls.toString());
            assertEquals(600, target.stats().command("set"));
        }
    }

    @Test
    void withSeveralThreadsEveryThreadHasAUdpSocketOnTheSamePort() {
        try (TargetServer target = Protocols.startTarget("memcache", TargetOptions.builder().threads(2).udpPort(0).build())) {
            RunSettings s = settings("127.0.0.1:" + target.udpAddress().getPort());
            s.udp = true;
            s.connections = 8; // eight client ports: the kernel spreads them over both sockets
            s.requests = 2000L;
            OutcomeCounts o = new LoadRun(ConfigResolver.resolve(s.toFlags()), new RunListener() { })
                    .execute(target.udpAddress(), s.server).total().total().outcomes();
            assertEquals(2000, o.ok(), o.toString());
            assertEquals(2000, target.stats().command("set"));
        }
    }

    private static RunSettings settings(String server) {
        RunSettings s = new RunSettings();
        s.server = server;
        s.method = "set";
        s.connections = 3;
        s.requests = 300L;
        s.duration = Duration.ofSeconds(20);
        return s;
    }
}
