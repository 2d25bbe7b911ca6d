package io.fluxperf.testkit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.awaitility.core.TerminalFailureException;

/** A real memcached on a free 127.0.0.1 port, with its own {@code stats} read over a socket. */
public final class MemcachedProcess extends ExternalServer {
    /** The Unix socket of a {@link #startUnix} instance, or null for TCP. */
    private final Path socket;

    private MemcachedProcess(List<String> command, int port, Path socket) {
        super("memcached", command, port);
        this.socket = socket;
    }

    /**
     * memcached -s PATH (a Unix socket; memcached then has no TCP or UDP listener), 64 MB, one
     * worker thread; returns once the socket accepts. {@link #stats()} and {@link #command} use the socket.
     */
    public static MemcachedProcess startUnix(Path path) {
        List<String> command = new ArrayList<>(List.of(executable("memcached"),
                "-s", path.toString(), "-m", "64", "-t", "1"));
        if ("root".equals(System.getProperty("user.name"))) {
            command.addAll(List.of("-u", "root"));
        }
        MemcachedProcess server = new MemcachedProcess(command, 0, path);
        try {
            // a memcached that exited (a bad argument, a path it may not use) will never listen: no use waiting
            Awaitility.await().atMost(Duration.ofSeconds(10)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20))
                    .dontCatchUncaughtExceptions().failFast(() -> !server.isAlive()).until(() -> acceptsOn(path));
        } catch (ConditionTimeoutException | TerminalFailureException e) {
            String log = server.logText();
            server.close();
            throw new IllegalStateException("memcached did not listen on " + path + ": " + log);
        }
        return server;
    }

    private static boolean acceptsOn(Path path) {
        if (!Files.exists(path)) {
            return false;
        }
        try (SocketChannel probe = SocketChannel.open(UnixDomainSocketAddress.of(path))) {
            return true;
        } catch (IOException notYet) {
            return false; // the file is there before memcached listens on it
        }
    }

    /**
     * Stops with SIGKILL: memcached notices SIGTERM only at its once-a-second clock tick, and a
     * test's server holds nothing worth a graceful stop.
     */
    @Override
    public void close() {
        kill();
        super.close();
    }

    /** The Unix socket of a {@link #startUnix} instance, or null. */
    public Path socket() {
        return socket;
    }

    /** {@code --server} for fluxperf: {@code unix:/path} or {@code 127.0.0.1:port}. */
    public String serverArgument() {
        return socket != null ? "unix:" + socket : address();
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
        MemcachedProcess server = new MemcachedProcess(command, port, null);
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
        try (AutoCloseable connection = connect()) {
            OutputStream out = connection instanceof Socket s ? s.getOutputStream()
                    : Channels.newOutputStream((SocketChannel) connection);
            InputStream input = connection instanceof Socket s ? s.getInputStream()
                    : Channels.newInputStream((SocketChannel) connection);
            out.write((line + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(input, StandardCharsets.ISO_8859_1));
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
            throw new UncheckedIOException("memcached on " + serverArgument() + " did not answer '" + line + "'", e);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private AutoCloseable connect() throws IOException {
        if (socket != null) {
            return SocketChannel.open(UnixDomainSocketAddress.of(socket)); // blocking; memcached answers at once
        }
        Socket s = new Socket(InetAddress.getLoopbackAddress(), port());
        s.setSoTimeout(5_000);
        return s;
    }

    /**
     * The keys memcached holds, from {@code lru_crawler metadump all} (one line per item, its key
     * first): the server's own list, not the client's idea of what it wrote.
     */
    public List<String> keys() {
        List<String> keys = new ArrayList<>();
        for (String line : command("lru_crawler metadump all")) {
            if (line.startsWith("key=")) {
                int end = line.indexOf(' ');
                keys.add(line.substring("key=".length(), end < 0 ? line.length() : end));
            }
        }
        return keys;
    }

    /**
     * Starts recording memcached's log of what it does to items ({@code watch fetchers mutations},
     * memcached's own per-command log) on a connection of its own; {@link Watch#close()} stops.
     */
    public Watch watch() {
        return new Watch(port());
    }

    /**
     * memcached's {@code watch} stream. Every command that looks up a key (get, set, add, delete,
     * incr, …) logs one {@code type=item_get} line with its key, so those lines count the
     * commands per key; {@code type=item_store} lines count the stores. memcached drops lines it
     * cannot send in time and says so in a {@code skipped=N} line ({@link #skipped()}).
     */
    public static final class Watch implements AutoCloseable {
        private final Socket socket;
        private final List<String> lines = new java.util.concurrent.CopyOnWriteArrayList<>();
        private final Thread reader;

        private Watch(int port) {
            try {
                socket = new Socket(InetAddress.getLoopbackAddress(), port);
                OutputStream out = socket.getOutputStream();
                out.write("watch fetchers mutations\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                        StandardCharsets.ISO_8859_1));
                socket.setSoTimeout(5_000);
                String ok = in.readLine();
                if (!"OK".equals(ok)) {
                    socket.close();
                    throw new IllegalStateException("watch answered " + ok);
                }
                socket.setSoTimeout(0);
                reader = new Thread(() -> {
                    try {
                        String l;
                        while ((l = in.readLine()) != null) {
                            lines.add(l);
                        }
                    } catch (IOException closed) {
                        // the connection closed: the capture ends
                    }
                }, "memcached-watch");
                reader.setDaemon(true);
                reader.start();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** The lines captured so far. */
        public List<String> lines() {
            return List.copyOf(lines);
        }

        /** Lines memcached reported it dropped. */
        public long skipped() {
            long n = 0;
            for (String l : lines) {
                int at = l.indexOf("skipped=");
                if (at >= 0) {
                    n += Long.parseLong(l.substring(at + "skipped=".length()).split(" ")[0]);
                }
            }
            return n;
        }

        /** The keys of the {@code type=item_get} lines: one per command, in order. */
        public List<String> commandKeys() {
            List<String> keys = new ArrayList<>();
            for (String l : lines) {
                if (l.contains(" type=item_get ")) {
                    int at = l.indexOf(" key=") + " key=".length();
                    int end = l.indexOf(' ', at);
                    keys.add(l.substring(at, end < 0 ? l.length() : end));
                }
            }
            return keys;
        }

        /** Waits until the capture holds {@code n} commands' lines (the log trails the replies a little). */
        public List<String> awaitCommands(long n, Duration timeout) {
            Awaitility.await("memcached watch: " + n + " commands").atMost(timeout).pollInterval(Duration.ofMillis(20))
                    .until(() -> commandKeys().size() + skipped() >= n);
            return commandKeys();
        }

        @Override
        public void close() {
            try {
                socket.close();
                reader.join(5_000);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
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
