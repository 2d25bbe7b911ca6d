package io.fluxperf.engine.target;

import io.fluxperf.engine.protocol.Protocols;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.Collections;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Options are checked where they enter, and the server is safe by default: loopback only. */
class TargetOptionsTest {
    private TargetServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void defaultsAreLoopbackEphemeralOneThread64MiBAndNoKnobs() {
        TargetOptions o = TargetOptions.defaults();
        assertEquals("127.0.0.1", o.bindAddress());
        assertEquals(0, o.port());
        assertEquals(1, o.threads());
        assertEquals(64L << 20, o.memoryLimitBytes());
        assertEquals(Duration.ZERO, o.responseDelay());
        assertFalse(o.pacesReplies());
        assertEquals(o, o.toBuilder().build());
        assertTrue(o.toBuilder().responseDelay(Duration.ofMillis(2)).build().pacesReplies());
    }

    @Test
    void aDefaultServerListensOnLoopbackOnlyAndDescribesItself() throws IOException {
        server = Protocols.startTarget("memcache", TargetOptions.defaults());
        InetSocketAddress address = server.address();
        assertTrue(address.getAddress().isLoopbackAddress(), address.toString());
        assertTrue(address.getPort() > 0);
        assertEquals("embedded memcache on 127.0.0.1:" + address.getPort(), server.describe());
        Optional<InetAddress> external = externalIPv4();
        if (external.isPresent()) {
            try (Socket s = new Socket()) {
                assertThrows(IOException.class, () -> s.connect(new InetSocketAddress(external.get(), address.getPort()), 1000),
                        "reachable on " + external.get());
            }
        }
        try (Socket s = new Socket()) {
            s.connect(address, 1000); // and reachable on loopback
        }
    }

    @Test
    void aSecondServerOnTheSamePortFailsWithTheAddressInTheMessage() {
        server = Protocols.startTarget("memcache", TargetOptions.defaults());
        int port = server.address().getPort();
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> Protocols.startTarget("memcache", TargetOptions.builder().port(port).build()));
        assertTrue(e.getMessage().startsWith("cannot listen on 127.0.0.1:" + port + ": "), e.getMessage());
    }

    @Test
    void badOptionsAreRefusedWhereTheyEnter() {
        assertThrows(IllegalArgumentException.class, () -> TargetOptions.builder().port(65536).build());
        assertThrows(IllegalArgumentException.class, () -> TargetOptions.builder().threads(0).build());
        assertThrows(IllegalArgumentException.class, () -> TargetOptions.builder().memoryLimitBytes(1000).build());
        assertThrows(IllegalArgumentException.class, () -> TargetOptions.builder().bindAddress(" ").build());
        assertThrows(IllegalArgumentException.class, () -> TargetOptions.builder().responseDelay(Duration.ofMillis(-1)).build());
        assertThrows(IllegalArgumentException.class,
                () -> TargetOptions.builder().stall(Duration.ofMillis(100), Duration.ZERO).build());
        assertThrows(IllegalArgumentException.class,
                () -> TargetOptions.builder().stall(Duration.ofMillis(100), Duration.ofMillis(100)).build());
        assertThrows(IllegalArgumentException.class, () -> Protocols.startTarget("gopher", TargetOptions.defaults()));
    }

    private static Optional<InetAddress> externalIPv4() throws SocketException {
        for (NetworkInterface nif : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (!nif.isUp() || nif.isLoopback()) {
                continue;
            }
            for (InetAddress a : Collections.list(nif.getInetAddresses())) {
                if (a instanceof Inet4Address && !a.isLoopbackAddress()) {
                    return Optional.of(a);
                }
            }
        }
        return Optional.empty();
    }
}
