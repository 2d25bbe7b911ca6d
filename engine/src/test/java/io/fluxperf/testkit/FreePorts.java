package io.fluxperf.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/** Free loopback ports from the OS, and a wait for a port to accept. Tests never assume a fixed port. */
public final class FreePorts {
    private FreePorts() {
    }

    /** A TCP port on 127.0.0.1 that was free a moment ago (and whose UDP twin was free too). */
    public static int tcpAndUdp() {
        for (int attempt = 0; attempt < 50; attempt++) {
            int port = tcp();
            try (DatagramSocket udp = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), port))) {
                return port;
            } catch (IOException busy) {
                // try another
            }
        }
        throw new IllegalStateException("no free TCP+UDP port pair on 127.0.0.1");
    }

    /** A UDP port on 127.0.0.1 that was free a moment ago: a datagram sent there is refused (ICMP port unreachable). */
    public static int udp() {
        try (DatagramSocket socket = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static int tcp() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Waits until something accepts on 127.0.0.1:port, or fails after the timeout. */
    public static void awaitListening(int port, long timeoutMillis) {
        try {
            // about this port only: an exception another thread of the test left uncaught is not its failure
            Awaitility.await().atMost(Duration.ofMillis(timeoutMillis)).pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(20)).dontCatchUncaughtExceptions().until(() -> accepts(port));
        } catch (ConditionTimeoutException e) {
            throw new IllegalStateException("nothing listens on 127.0.0.1:" + port + " after " + timeoutMillis + " ms");
        }
    }

    private static boolean accepts(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
            return true;
        } catch (IOException notYet) {
            return false;
        }
    }
}
