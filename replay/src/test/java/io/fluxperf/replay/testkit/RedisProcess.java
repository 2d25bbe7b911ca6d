package io.fluxperf.replay.testkit;

import io.fluxperf.testkit.ExternalServer;
import io.fluxperf.testkit.FreePorts;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A real redis-server on a free 127.0.0.1 port ({@code --save '' --appendonly no}, its files in a
 * temporary directory), with a tiny RESP client for INFO, GET and friends, and a MONITOR capture
 * that records lines exactly as {@code redis-cli monitor} prints them.
 */
public final class RedisProcess extends ExternalServer {
    private final Path dir;

    private RedisProcess(List<String> command, int port, Path dir) {
        super("redis-server", command, port);
        this.dir = dir;
    }

    public static RedisProcess start() {
        int port = FreePorts.tcp();
        Path dir;
        try {
            dir = Files.createTempDirectory("fluxperf-redis-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> command = List.of(executable("redis-server"), "--port", Integer.toString(port), "--bind",
                "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir.toString());
        RedisProcess server = new RedisProcess(command, port, dir);
        server.awaitTcp(10_000);
        return server;
    }

    /** A new connection; close it when done. */
    public Client client() {
        return new Client(port());
    }

    /** {@code INFO commandstats} as command → calls, e.g. {"set": 12, "get": 30}. */
    public Map<String, Long> commandStats() {
        try (Client c = client()) {
            String info = new String((byte[]) c.call("INFO", "commandstats"), StandardCharsets.ISO_8859_1);
            Map<String, Long> calls = new LinkedHashMap<>();
            for (String line : info.split("\r\n")) {
                if (line.startsWith("cmdstat_")) {
                    String name = line.substring("cmdstat_".length(), line.indexOf(':'));
                    String rest = line.substring(line.indexOf("calls=") + 6);
                    calls.put(name, Long.parseLong(rest.substring(0, rest.indexOf(','))));
                }
            }
            return calls;
        }
    }

    /** Starts recording MONITOR output; {@link Monitor#close()} stops. */
    public Monitor monitor() {
        return new Monitor(port());
    }

    @Override
    public void close() {
        super.close();
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a leftover temp dir is harmless
        }
    }

    /** A blocking RESP2 client: arrays of bulk strings out; replies as String (status), byte[] (bulk), Long, List, or RespError. */
    public static final class Client implements AutoCloseable {
        private final Socket socket;
        private final OutputStream out;
        private final InputStream in;

        Client(int port) {
            try {
                socket = new Socket(InetAddress.getLoopbackAddress(), port);
                socket.setSoTimeout(10_000);
                socket.setTcpNoDelay(true);
                out = socket.getOutputStream();
                in = new BufferedInputStream(socket.getInputStream());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        public Object call(Object... args) {
            send(args);
            return read();
        }

        /** Writes a command without waiting for its reply. */
        public void send(Object... args) {
            try {
                ByteArrayOutputStream b = new ByteArrayOutputStream();
                b.write(("*" + args.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
                for (Object a : args) {
                    byte[] bytes = a instanceof byte[] raw ? raw : a.toString().getBytes(StandardCharsets.UTF_8);
                    b.write(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
                    b.write(bytes);
                    b.write('\r');
                    b.write('\n');
                }
                out.write(b.toByteArray());
                out.flush();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        public Object read() {
            try {
                int type = in.read();
                String line = line();
                switch (type) {
                    case '+':
                        return line;
                    case '-':
                        return new RespError(line);
                    case ':':
                        return Long.parseLong(line);
                    case '$': {
                        int n = Integer.parseInt(line);
                        if (n < 0) {
                            return null;
                        }
                        byte[] data = in.readNBytes(n);
                        in.readNBytes(2);
                        return data;
                    }
                    case '*': {
                        int n = Integer.parseInt(line);
                        if (n < 0) {
                            return null;
                        }
                        List<Object> items = new ArrayList<>();
                        for (int i = 0; i < n; i++) {
                            items.add(read());
                        }
                        return items;
                    }
                    default:
                        throw new IllegalStateException("unexpected RESP type " + type + ": " + line);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private String line() throws IOException {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            int c;
            while ((c = in.read()) != '\r') {
                if (c < 0) {
                    throw new IOException("connection closed");
                }
                b.write(c);
            }
            in.read();
            return b.toString(StandardCharsets.ISO_8859_1);
        }

        @Override
        public void close() {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing
            }
        }
    }

    public record RespError(String message) {
    }

    /** MONITOR on its own connection; {@link #lines()} are what redis-cli prints (after its "OK"). */
    public static final class Monitor implements AutoCloseable {
        private final Client client;
        private final List<String> lines = new CopyOnWriteArrayList<>();
        private final Thread reader;

        Monitor(int port) {
            client = new Client(port);
            Object ok = client.call("MONITOR");
            if (!"OK".equals(ok)) {
                throw new IllegalStateException("MONITOR answered " + ok);
            }
            reader = new Thread(() -> {
                try {
                    while (true) {
                        Object line = client.read();
                        lines.add((String) line);
                    }
                } catch (RuntimeException closed) {
                    // the connection closed
                }
            }, "redis-monitor");
            reader.setDaemon(true);
            reader.start();
        }

        public List<String> lines() {
            return List.copyOf(lines);
        }

        /** Waits until at least {@code n} lines were captured. */
        public List<String> await(int n, long timeoutMillis) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
            while (lines.size() < n && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            return lines();
        }

        /** Writes the capture as redis-cli's output: "OK", then one line per command. */
        public void writeTo(Path file) throws IOException {
            StringBuilder b = new StringBuilder("OK\n");
            for (String l : lines()) {
                b.append(l).append('\n');
            }
            Files.writeString(file, b, StandardCharsets.ISO_8859_1);
        }

        @Override
        public void close() {
            client.close();
            try {
                reader.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
