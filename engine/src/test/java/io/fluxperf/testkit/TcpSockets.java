package io.fluxperf.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The kernel's view of this machine's TCP sockets (Linux's /proc/net/tcp and /proc/net/tcp6), for
 * what a test must wait for that no API shows: request bytes that reached a stopped server but
 * were not read, a peer's FIN that reached a socket the loop has not looked at yet.
 */
public final class TcpSockets {
    /** Linux's TCP states, as the st column numbers them. */
    public static final int ESTABLISHED = 0x01;
    public static final int CLOSE_WAIT = 0x08;

    private TcpSockets() {
    }

    /**
     * One socket.
     *
     * @param localPort    this end's port
     * @param remotePort   the other end's port (0 for a listener)
     * @param state        the TCP state, e.g. {@link #ESTABLISHED}
     * @param receiveQueue bytes that arrived and the owner has not read
     */
    public record Socket(int localPort, int remotePort, int state, long receiveQueue) {
    }

    /** Every IPv4 and IPv6 TCP socket of the machine now. */
    public static List<Socket> all() {
        List<Socket> sockets = new ArrayList<>();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            Path file = Path.of(table);
            if (!Files.exists(file)) {
                continue;
            }
            List<String> lines;
            try {
                lines = Files.readAllLines(file);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + table, e);
            }
            for (String line : lines.subList(1, lines.size())) {
                // "sl local_address rem_address st tx_queue:rx_queue ...", addresses as HEXADDR:HEXPORT
                String[] f = line.trim().split("\\s+");
                String queues = f[4];
                sockets.add(new Socket(port(f[1]), port(f[2]), Integer.parseInt(f[3], 16),
                        Long.parseLong(queues.substring(queues.indexOf(':') + 1), 16)));
            }
        }
        return sockets;
    }

    /** The sockets whose own port is {@code port} (a server's side of its connections, and its listener). */
    public static List<Socket> withLocalPort(int port) {
        return all().stream().filter(s -> s.localPort() == port).toList();
    }

    /** The sockets connected to {@code port} (clients' sides of their connections to a server on that port). */
    public static List<Socket> withRemotePort(int port) {
        return all().stream().filter(s -> s.remotePort() == port).toList();
    }

    private static int port(String address) {
        return Integer.parseInt(address.substring(address.lastIndexOf(':') + 1), 16);
    }
}
