package io.fluxperf.engine.connection;

import io.fluxperf.engine.UserError;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;

/** Turns {@code HOST:PORT}, {@code [IPv6]:PORT} or {@code unix:/path} into a socket address, and back. */
public final class ServerAddress {
    private ServerAddress() {
    }

    /**
     * An address as {@code --server} takes it: {@code 127.0.0.1:11211}, or an IPv6 address in
     * brackets and in its short form (RFC 5952), {@code [::1]:11211}.
     */
    public static String format(InetSocketAddress address) {
        InetAddress ip = address.getAddress();
        if (ip instanceof java.net.Inet6Address v6) {
            return "[" + shortForm(v6) + "]:" + address.getPort();
        }
        return (ip != null ? ip.getHostAddress() : address.getHostString()) + ":" + address.getPort();
    }

    /** RFC 5952: lower-case hex groups without leading zeros, the longest run of two or more zero groups as {@code ::}. */
    static String shortForm(java.net.Inet6Address ip) {
        byte[] b = ip.getAddress();
        int[] groups = new int[8];
        for (int i = 0; i < 8; i++) {
            groups[i] = (b[2 * i] & 0xff) << 8 | (b[2 * i + 1] & 0xff);
        }
        int bestFrom = -1;
        int bestLength = 1;
        for (int i = 0; i < 8; ) {
            if (groups[i] != 0) {
                i++;
                continue;
            }
            int j = i;
            while (j < 8 && groups[j] == 0) {
                j++;
            }
            if (j - i > bestLength) {
                bestFrom = i;
                bestLength = j - i;
            }
            i = j;
        }
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestFrom) {
                s.append("::");
                i += bestLength - 1;
                continue;
            }
            if (s.length() > 0 && s.charAt(s.length() - 1) != ':') {
                s.append(':');
            }
            s.append(Integer.toHexString(groups[i]));
        }
        String scope = ip.getScopeId() != 0 ? "%" + ip.getScopeId() : "";
        return s + scope;
    }

    /** @param flag the flag or config key to name in messages */
    public static SocketAddress parse(String text, String flag) {
        if (text.startsWith("unix:")) {
            java.nio.file.Path path = java.nio.file.Path.of(text.substring("unix:".length()));
            if (!java.nio.file.Files.exists(path)) {
                throw new UserError(flag + ": " + text + ": no such socket file");
            }
            return new io.netty.channel.unix.DomainSocketAddress(path.toString());
        }
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new UserError(flag + ": '" + text + "' is not HOST:PORT");
        }
        String host = text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(text.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new UserError(flag + ": port '" + text.substring(colon + 1) + "' is not a number");
        }
        if (port < 1 || port > 65535) {
            throw new UserError(flag + ": port " + port + " is outside 1..65535");
        }
        try {
            return new InetSocketAddress(InetAddress.getByName(host), port);
        } catch (UnknownHostException e) {
            throw new UserError(flag + ": cannot resolve host '" + host + "'");
        }
    }
}
