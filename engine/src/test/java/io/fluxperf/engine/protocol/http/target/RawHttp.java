package io.fluxperf.engine.protocol.http.target;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A plain-socket HTTP/1.1 client for tests of the embedded server: writes whatever bytes a test
 * gives (several requests at once, a half request), and reads responses one at a time,
 * independently of fluxperf's own decoder.
 */
final class RawHttp implements AutoCloseable {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    /** One response: status, headers (names lower-cased), the body (de-chunked), and the trailers. */
    record Response(int status, String statusLine, Map<String, String> headers, byte[] body, Map<String, String> trailers,
                    String rawChunkSizes) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        String text() {
            return new String(body, StandardCharsets.ISO_8859_1);
        }
    }

    RawHttp(InetSocketAddress address) throws IOException {
        socket = new Socket();
        socket.connect(address, 2000);
        socket.setSoTimeout(5000);
        socket.setTcpNoDelay(true);
        in = socket.getInputStream();
        out = socket.getOutputStream();
    }

    RawHttp send(String text) throws IOException {
        return send(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    RawHttp send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
        return this;
    }

    /** Sends one request with a body (Content-Length) or none. */
    RawHttp request(String method, String path, String body, String... headers) throws IOException {
        StringBuilder s = new StringBuilder(method).append(' ').append(path).append(" HTTP/1.1\r\nHost: test\r\n");
        for (String h : headers) {
            s.append(h).append("\r\n");
        }
        if (body != null) {
            s.append("Content-Length: ").append(body.getBytes(StandardCharsets.ISO_8859_1).length).append("\r\n");
        }
        s.append("\r\n");
        if (body != null) {
            s.append(body);
        }
        return send(s.toString());
    }

    /** Reads one response (a HEAD's: {@code bodyless}). */
    Response read(boolean bodyless) throws IOException {
        String statusLine = line();
        if (statusLine == null) {
            throw new IOException("connection closed before a response");
        }
        int status = Integer.parseInt(statusLine.substring(9, 12));
        Map<String, String> headers = fields();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        Map<String, String> trailers = Map.of();
        StringBuilder sizes = new StringBuilder();
        boolean noBody = bodyless || status == 204 || status == 304 || status < 200;
        if (!noBody && "chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            while (true) {
                String sizeLine = line();
                sizes.append(sizeLine).append('|');
                int semi = sizeLine.indexOf(';');
                int size = Integer.parseInt((semi < 0 ? sizeLine : sizeLine.substring(0, semi)).trim(), 16);
                if (size == 0) {
                    trailers = fields();
                    break;
                }
                body.write(in.readNBytes(size));
                if (!line().isEmpty()) {
                    throw new IOException("chunk not followed by CRLF");
                }
            }
        } else if (!noBody && headers.containsKey("content-length")) {
            body.write(in.readNBytes(Integer.parseInt(headers.get("content-length"))));
        }
        return new Response(status, statusLine, headers, body.toByteArray(), trailers, sizes.toString());
    }

    Response read() throws IOException {
        return read(false);
    }

    /** True when the server closed the connection (end of stream within the socket timeout). */
    boolean closedByServer() throws IOException {
        try {
            return in.read() < 0;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }

    /** True when nothing arrives within {@code millis} and the connection is still open. */
    boolean silentFor(int millis) throws IOException {
        socket.setSoTimeout(millis);
        try {
            in.read(); // a byte, or the end of the stream: not silent
            return false;
        } catch (SocketTimeoutException e) {
            return true;
        } finally {
            socket.setSoTimeout(5000);
        }
    }

    private Map<String, String> fields() throws IOException {
        Map<String, String> headers = new LinkedHashMap<>();
        String l;
        while (!(l = line()).isEmpty()) {
            int colon = l.indexOf(':');
            headers.put(l.substring(0, colon).trim().toLowerCase(Locale.ROOT), l.substring(colon + 1).trim());
        }
        return headers;
    }

    /** A CRLF-ended line without its CRLF, or null at the end of the stream. */
    private String line() throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) >= 0) {
            if (c == '\n') {
                byte[] bytes = b.toByteArray();
                int n = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
                return new String(bytes, 0, n, StandardCharsets.ISO_8859_1);
            }
            b.write(c);
        }
        return b.size() == 0 ? null : b.toString(StandardCharsets.ISO_8859_1);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
