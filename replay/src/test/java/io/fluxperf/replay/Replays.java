package io.fluxperf.replay;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** Test helpers: run a replay in this JVM and keep what it printed; a small memcache client. */
final class Replays {
    private Replays() {
    }

    record Run(ReplayResult result, String out, String err) {
        /** The first report line starting with {@code prefix} after "Total:". */
        String totalLine(String prefix) {
            return out.lines().dropWhile(l -> !l.equals("Total:")).filter(l -> l.startsWith(prefix)).findFirst()
                    .orElseThrow(() -> new AssertionError("no '" + prefix + "' line after Total: in\n" + out + err));
        }

        String line(String prefix) {
            return out.lines().filter(l -> l.startsWith(prefix)).findFirst()
                    .orElseThrow(() -> new AssertionError("no '" + prefix + "' line in\n" + out + err));
        }
    }

    static Run run(ReplayOptions options) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        ReplayResult result;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            result = new Replay(options).run(o, e);
        }
        return new Run(result, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** A blocking memcache text-protocol connection. */
    static final class Memcache implements AutoCloseable {
        private final Socket socket;
        private final OutputStream out;
        private final InputStream in;

        Memcache(int port) {
            try {
                socket = new Socket(InetAddress.getLoopbackAddress(), port);
                socket.setSoTimeout(5_000);
                socket.setTcpNoDelay(true);
                out = socket.getOutputStream();
                in = socket.getInputStream();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** Sends {@code request} and reads until the reply ends with {@code terminator} (e.g. "END\r\n"). */
        String call(String request, String... terminators) {
            try {
                out.write(request.getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
                StringBuilder reply = new StringBuilder();
                byte[] buf = new byte[4096];
                while (true) {
                    for (String t : terminators) {
                        if (reply.toString().endsWith(t)) {
                            return reply.toString();
                        }
                    }
                    int n = in.read(buf);
                    if (n < 0) {
                        throw new IOException("closed after " + reply);
                    }
                    reply.append(new String(buf, 0, n, StandardCharsets.ISO_8859_1));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        String get(String keys) {
            return call("get " + keys + "\r\n", "END\r\n");
        }

        String store(String verb, String key, String value) {
            return call(verb + " " + key + " 0 0 " + value.length() + "\r\n" + value + "\r\n", "STORED\r\n", "NOT_STORED\r\n");
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
}
