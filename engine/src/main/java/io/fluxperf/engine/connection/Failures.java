package io.fluxperf.engine.connection;

/** How a failed connect or a broken connection is told to the user: the innermost cause's message, without Netty's decorations. */
public final class Failures {
    private Failures() {
    }

    /** E.g. "Connection refused" for Netty's "connect(..) failed with error(-111): Connection refused: /127.0.0.1:1". */
    public static String describe(Throwable error) {
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage();
        if (message == null || message.isBlank()) {
            message = root.getClass().getSimpleName();
        }
        // Netty's native transport prefixes the syscall: "recvAddress(..) failed with error(-104): Connection reset by peer"
        int errno = message.indexOf("failed with error(");
        if (errno >= 0 && message.indexOf("): ", errno) > 0) {
            message = message.substring(message.indexOf("): ", errno) + 3);
        }
        if (root instanceof io.netty.handler.ssl.NotSslRecordException) {
            // Netty quotes the plain bytes in hex: say what that means
            return "the server does not speak TLS (it answered in plain text)";
        }
        // and appends the address ("Connection refused: /127.0.0.1:1"); the caller names it already
        int colon = message.indexOf(": /");
        return colon > 0 ? message.substring(0, colon) : message;
    }
}
