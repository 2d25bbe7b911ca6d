package io.fluxperf.replay.testkit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.awaitility.Awaitility;

/** memcached's {@code watch} logger on its own connection, recording every line it prints. */
public final class MemcachedWatch implements AutoCloseable {
    private final Socket socket;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Thread reader;

    public MemcachedWatch(int port, String streams) {
        try {
            socket = new Socket(InetAddress.getLoopbackAddress(), port);
            socket.getOutputStream().write(("watch " + streams + "\r\n").getBytes(StandardCharsets.US_ASCII));
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.ISO_8859_1));
            String ok = in.readLine();
            if (!"OK".equals(ok)) {
                throw new IllegalStateException("watch answered " + ok);
            }
            lines.add(ok);
            reader = new Thread(() -> {
                try {
                    String l;
                    while ((l = in.readLine()) != null) {
                        lines.add(l);
                    }
                } catch (IOException closed) {
                    // closed
                }
            }, "memcached-watch");
            reader.setDaemon(true);
            reader.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Lines so far, the leading OK included (as a captured log has it). */
    public List<String> lines() {
        return List.copyOf(lines);
    }

    /** Waits until {@code n} lines that start with "ts=" have come; fails after {@code timeout}. */
    public void await(int n, Duration timeout) {
        Awaitility.await("memcached watch lines: " + n).atMost(timeout).pollInterval(Duration.ofMillis(10))
                .until(() -> lines.stream().filter(l -> l.startsWith("ts=")).count(), count -> count >= n);
    }

    public void writeTo(Path file) throws IOException {
        Files.write(file, lines, StandardCharsets.ISO_8859_1);
    }

    @Override
    public void close() {
        try {
            socket.close();
            reader.join(5_000);
        } catch (IOException | InterruptedException ignored) {
            // closing
        }
    }
}
