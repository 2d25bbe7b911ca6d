package io.fluxperf.engine.protocol.memcache.target;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A raw text-protocol connection for tests, as telnet would be: writes bytes exactly as given and
 * reads replies line by line (ISO-8859-1, so any byte round-trips), with a timeout so that a
 * missing reply fails the test instead of hanging it.
 */
final class TextSession implements AutoCloseable {
    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;

    TextSession(InetSocketAddress address) {
        try {
            socket = new Socket();
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(5_000);
            socket.connect(address, 5_000);
            out = socket.getOutputStream();
            in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot connect to " + address, e);
        }
    }

    TextSession(int port) {
        this(new InetSocketAddress("127.0.0.1", port));
    }

    void send(String text) {
        send(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    void send(byte[] bytes) {
        try {
            out.write(bytes);
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The next line without its CRLF, or null at end of stream. */
    String readLine() {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        try {
            int b;
            while ((b = in.read()) != -1) {
                if (b == '\n') {
                    byte[] bytes = line.toByteArray();
                    int n = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
                    return new String(bytes, 0, n, StandardCharsets.ISO_8859_1);
                }
                line.write(b);
            }
            return line.size() == 0 ? null : line.toString(StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    byte[] readBytes(int n) {
        try {
            return in.readNBytes(n);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * One command's reply: a single line, or VALUE blocks up to END (data read by its length, so
     * values may hold any bytes), or STAT lines up to END.
     */
    List<String> readReply() {
        List<String> lines = new ArrayList<>();
        while (true) {
            String line = readLine();
            if (line == null) {
                lines.add("<EOF>");
                return lines;
            }
            lines.add(line);
            if (line.startsWith("VALUE ")) {
                String[] parts = line.split(" ");
                int length = Integer.parseInt(parts[3]);
                lines.add(new String(readBytes(length), StandardCharsets.ISO_8859_1));
                readBytes(2);
            } else if (!line.startsWith("STAT ")) {
                return lines;
            }
        }
    }

    /** Sends one command and reads its reply. */
    List<String> call(String command) {
        send(command);
        return readReply();
    }

    /** Whether the server has closed the connection (reads end of stream within the timeout). */
    boolean closedByServer() {
        try {
            return in.read() == -1;
        } catch (IOException e) {
            return true; // reset
        }
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing a test socket cannot fail in a way that matters
        }
    }
}
