package io.fluxperf.engine.protocol.resp;

import io.fluxperf.engine.protocol.ServerClock;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * redis' {@code TIME}: an array of two bulk strings, the seconds and the microseconds of the
 * server's clock ({@code *2 $10 1796526000 $6 123456}).
 */
final class RespServerClock implements ServerClock {
    private static final byte[] TIME = "*1\r\n$4\r\nTIME\r\n".getBytes(StandardCharsets.US_ASCII);

    @Override
    public long epochMicros(InetSocketAddress server, Duration timeout) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(server, (int) timeout.toMillis());
            s.setSoTimeout((int) timeout.toMillis());
            s.setTcpNoDelay(true);
            s.getOutputStream().write(TIME);
            InputStream in = s.getInputStream();
            String head = line(in);
            if (!head.equals("*2")) {
                throw new IOException("TIME answered " + head);
            }
            long seconds = Long.parseLong(bulk(in));
            long micros = Long.parseLong(bulk(in));
            return seconds * 1_000_000L + micros;
        } catch (NumberFormatException e) {
            throw new IOException("TIME answered a number that is none: " + e.getMessage(), e);
        }
    }

    private static String bulk(InputStream in) throws IOException {
        String length = line(in);
        if (!length.startsWith("$")) {
            throw new IOException("TIME answered " + length);
        }
        return line(in);
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder b = new StringBuilder();
        int c;
        while ((c = in.read()) != '\n') {
            if (c < 0) {
                throw new IOException("the connection closed in TIME's reply");
            }
            if (c != '\r') {
                b.append((char) c);
            }
            if (b.length() > 64) {
                throw new IOException("TIME's reply is too long a line");
            }
        }
        return b.toString();
    }
}
