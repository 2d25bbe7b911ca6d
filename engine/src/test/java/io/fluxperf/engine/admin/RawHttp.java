package io.fluxperf.engine.admin;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/**
 * HTTP at the byte level, for what a well-behaved client never sends: a request as raw bytes on a
 * fresh connection, and what came back until the server closed or went quiet.
 */
final class RawHttp {
    private RawHttp() {
    }

    /** What came back: the status line's code (-1 for none), the whole answer, and whether the server closed. */
    record Answer(int status, String statusLine, String body, String raw, boolean closed) {
        /** The body is one sentence: one line, ends in a full stop, no second sentence and no class name. */
        boolean oneSentence() {
            String b = body.strip();
            return !b.isEmpty() && b.endsWith(".") && !b.contains("\n") && !b.contains(". ") && !b.contains("Exception");
        }
    }

    /** Sends {@code request} (ISO-8859-1 text, so any byte can be written) and reads the answer. */
    static Answer exchange(InetSocketAddress server, String request) throws IOException {
        return exchange(server, request.getBytes(StandardCharsets.ISO_8859_1));
    }

    static Answer exchange(InetSocketAddress server, byte[] request) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(server, 2000);
            s.setSoTimeout(10_000);
            s.getOutputStream().write(request);
            s.getOutputStream().flush();
            return read(s.getInputStream());
        }
    }

    /** Reads one answer: the head, then Content-Length bytes of body (or until the server closes). */
    static Answer read(InputStream in) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        boolean closed = false;
        int headEnd = -1;
        long length = -1;
        try {
            byte[] buf = new byte[8192];
            while (true) {
                if (headEnd >= 0 && length >= 0 && all.size() >= headEnd + length) {
                    break;
                }
                int n = in.read(buf);
                if (n < 0) {
                    closed = true;
                    break;
                }
                all.write(buf, 0, n);
                if (headEnd < 0) {
                    String text = all.toString(StandardCharsets.ISO_8859_1);
                    int i = text.indexOf("\r\n\r\n");
                    if (i >= 0) {
                        headEnd = i + 4;
                        length = contentLength(text.substring(0, i));
                    }
                }
            }
        } catch (SocketTimeoutException quiet) {
            // the server neither answered in full nor closed
        }
        String raw = all.toString(StandardCharsets.UTF_8);
        int lineEnd = raw.indexOf("\r\n");
        String statusLine = lineEnd >= 0 ? raw.substring(0, lineEnd) : raw;
        int status = -1;
        String[] parts = statusLine.split(" ");
        if (parts.length >= 2 && parts[0].startsWith("HTTP/")) {
            try {
                status = Integer.parseInt(parts[1]);
            } catch (NumberFormatException e) {
                status = -1;
            }
        }
        int bodyAt = raw.indexOf("\r\n\r\n");
        return new Answer(status, statusLine, bodyAt >= 0 ? raw.substring(bodyAt + 4) : "", raw, closed);
    }

    private static long contentLength(String head) {
        for (String line : head.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase("content-length")) {
                return Long.parseLong(line.substring(colon + 1).trim());
            }
        }
        return -1;
    }
}
