package io.fluxperf.engine.config;

import java.net.InetSocketAddress;

/**
 * Where the admin endpoint listens: {@code [ADDR:]PORT}, loopback (127.0.0.1) unless an address is
 * given, as every listener of fluxperf (invariant 7); port 0 takes a free one.
 *
 * @param host an address or host name to bind
 * @param port 0 to 65535
 */
public record AdminAddress(String host, int port) {
    public static final String LOOPBACK = "127.0.0.1";

    /**
     * Parses {@code 9090}, {@code 127.0.0.1:9090}, {@code 0.0.0.0:9090} or {@code [::1]:9090}.
     *
     * @throws IllegalArgumentException with the reason, for the flag's or key's message
     */
    public static AdminAddress parse(String text) {
        String t = text == null ? "" : text.strip();
        if (t.isEmpty()) {
            throw new IllegalArgumentException("expected [ADDR:]PORT, e.g. 9090 or 0.0.0.0:9090, not an empty value");
        }
        String host = LOOPBACK;
        String port = t;
        if (t.startsWith("[")) {
            int close = t.indexOf("]:");
            if (close < 0) {
                throw new IllegalArgumentException("expected [IPv6]:PORT, e.g. [::1]:9090, not '" + t + "'");
            }
            host = t.substring(1, close);
            port = t.substring(close + 2);
        } else if (t.contains(":")) {
            int colon = t.lastIndexOf(':');
            if (t.indexOf(':') != colon) {
                throw new IllegalArgumentException("write an IPv6 address in brackets, e.g. [::1]:9090, not '" + t + "'");
            }
            host = t.substring(0, colon);
            port = t.substring(colon + 1);
        }
        if (host.isEmpty()) {
            throw new IllegalArgumentException("the address before ':' is empty in '" + t + "'");
        }
        int p;
        try {
            p = Integer.parseInt(port);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("the port must be a number from 0 to 65535, not '" + port + "'");
        }
        if (p < 0 || p > 65535) {
            throw new IllegalArgumentException("the port must be a number from 0 to 65535, not " + p);
        }
        return new AdminAddress(host, p);
    }

    public InetSocketAddress socketAddress() {
        return new InetSocketAddress(host, port);
    }
}
