package io.fluxperf.testkit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A real memcached on a free 127.0.0.1 port, with its own {@code stats} read over a socket. */
public final class MemcachedProcess extends ExternalServer {

    private MemcachedProcess(List<String> command, int port) {
        super("memcached", command, port);
    }

    /** memcached -l 127.0.0.1 -p PORT -U 0 (TCP only), 64 MB, one worker thread. */
    public static MemcachedProcess start(String... extraArgs) {
        return start(FreePorts.tcp(), extraArgs);
    }

    public static MemcachedProcess start(int port, String... extraArgs) {
        List<String> command = new ArrayList<>(List.of(executable("memcached"),
                "-l", "127.0.0.1", "-p", Integer.toString(port), "-m", "64", "-t", "1"));
        if (!List.of(extraArgs).contains("-U")) {
            command.addAll(List.of("-U", "0"));
        }
        if ("root".equals(System.getProperty("user.name"))) {
            command.addAll(List.of("-u", "root")); // memcached refuses to run as root otherwise
        }
        command.addAll(List.of(extraArgs));
        MemcachedProcess server = new MemcachedProcess(command, port);
        server.awaitTcp(10_000);
        return server;
    }

    /** The server's own counters ({@code stats}), e.g. cmd_get, cmd_set, get_hits. */
    public Map<String, Long> stats() {
        Map<String, Long> stats = new LinkedHashMap<>();
        for (String line : command("stats")) {
            String[] parts = line.split(" ");
            if (parts.length == 3 && parts[0].equals("STAT")) {
                try {
                    stats.put(parts[1], Long.parseLong(parts[2]));
                } catch (NumberFormatException notANumber) {
                    // version strings, rusage with fractions: not needed by tests
                }
            }
        }
        return stats;
    }

    /** Sends one text command and returns the reply lines up to END / a one-line reply. */
    public List<String> command(String line) {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port())) {
            socket.setSoTimeout(5_000);
            OutputStream out = socket.getOutputStream();
            out.write((line + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.ISO_8859_1));
            List<String> reply = new ArrayList<>();
            String l;
            while ((l = in.readLine()) != null) {
                reply.add(l);
                if (l.equals("END") || l.equals("OK") || l.startsWith("ERROR") || l.startsWith("CLIENT_ERROR")
                        || l.startsWith("SERVER_ERROR") || l.equals("STORED") || l.equals("NOT_STORED")
                        || l.equals("DELETED") || l.equals("NOT_FOUND") || l.startsWith("VERSION")) {
                    if (!l.startsWith("VALUE")) {
                        break;
                    }
                }
            }
            return reply;
        } catch (IOException e) {
            throw new UncheckedIOException("memcached on " + address() + " did not answer '" + line + "'", e);
        }
    }

    /** The value stored under key, as bytes (ISO-8859-1 round trip), or null on a miss. */
    public byte[] get(String key) {
        List<String> reply = command("get " + key);
        if (reply.size() >= 2 && reply.get(0).startsWith("VALUE ")) {
            return reply.get(1).getBytes(StandardCharsets.ISO_8859_1);
        }
        return null;
    }
}
