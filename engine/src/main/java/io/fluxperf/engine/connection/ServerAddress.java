package io.fluxperf.engine.connection;

import io.fluxperf.engine.UserError;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;

/** Turns {@code HOST:PORT}, {@code [IPv6]:PORT} or {@code unix:/path} into a socket address. */
public final class ServerAddress {
    private ServerAddress() {
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
