package io.fluxperf.engine.protocol.http;

import io.fluxperf.engine.Version;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * The part of every request that follows the path, encoded once per connection:
 * {@code " HTTP/1.1\r\n"}, {@code Host}, {@code User-Agent} and the user's headers, each line
 * ended by CRLF (the blank line that ends the head is written by the codec, after a
 * {@code Content-Length} when there is a body).
 *
 * <p>A {@code Host} or {@code User-Agent} among the user's headers replaces the default one.
 * {@code Content-Length} and {@code Transfer-Encoding} given by the user are left out: the codec
 * frames each body itself, and a second framing header would make the server read the stream
 * differently from us.
 */
record HttpRequestHead(byte[] afterPath, String host) {
    /** Host when none is given: the codec does not know the server's name (see {@link HttpProtocol}). */
    static final String DEFAULT_HOST = "localhost";
    static final String USER_AGENT = "fluxperf/" + Version.get();

    static HttpRequestHead of(List<String> userHeaders, String defaultHost) {
        StringBuilder s = new StringBuilder(" HTTP/1.1\r\n");
        String host = defaultHost;
        boolean userAgent = false;
        StringBuilder user = new StringBuilder();
        for (String header : userHeaders) {
            int colon = header.indexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException("'" + header + "' is not a header; write Name: value");
            }
            String name = header.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = header.substring(colon + 1).trim();
            switch (name) {
                case "host" -> host = value;
                case "content-length", "transfer-encoding" -> {
                    continue;
                }
                case "user-agent" -> {
                    userAgent = true;
                    user.append(header.substring(0, colon).trim()).append(": ").append(value).append("\r\n");
                }
                default -> user.append(header.substring(0, colon).trim()).append(": ").append(value).append("\r\n");
            }
        }
        s.append("Host: ").append(host).append("\r\n");
        if (!userAgent) {
            s.append("User-Agent: ").append(USER_AGENT).append("\r\n");
        }
        s.append(user);
        return new HttpRequestHead(s.toString().getBytes(StandardCharsets.ISO_8859_1), host);
    }
}
