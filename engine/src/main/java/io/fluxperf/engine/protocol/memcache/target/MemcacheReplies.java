package io.fluxperf.engine.protocol.memcache.target;

import java.nio.charset.StandardCharsets;

/**
 * The server's words on the wire, encoded once: command names to match and replies to copy, with
 * memcached 1.6's exact error texts.
 */
final class MemcacheReplies {
    private MemcacheReplies() {
    }

    /** What {@code version} answers: memcached's protocol level, marked as ours. */
    static final String VERSION = "1.6.18-fluxperf";

    // commands
    static final byte[] GET = ascii("get");
    static final byte[] GETS = ascii("gets");
    static final byte[] GAT = ascii("gat");
    static final byte[] GATS = ascii("gats");
    static final byte[] BGET = ascii("bget");
    static final byte[] SET = ascii("set");
    static final byte[] ADD = ascii("add");
    static final byte[] REPLACE = ascii("replace");
    static final byte[] APPEND = ascii("append");
    static final byte[] PREPEND = ascii("prepend");
    static final byte[] CAS = ascii("cas");
    static final byte[] DELETE = ascii("delete");
    static final byte[] INCR = ascii("incr");
    static final byte[] DECR = ascii("decr");
    static final byte[] TOUCH = ascii("touch");
    static final byte[] FLUSH_ALL = ascii("flush_all");
    static final byte[] STATS = ascii("stats");
    static final byte[] VERSION_CMD = ascii("version");
    static final byte[] VERBOSITY = ascii("verbosity");
    static final byte[] QUIT = ascii("quit");
    static final byte[] SHUTDOWN = ascii("shutdown");
    static final byte[] NOREPLY = ascii("noreply");
    static final byte[] ZERO = ascii("0");
    static final byte[] HTTP = ascii("HTTP/");

    // replies
    static final byte[] CRLF = ascii("\r\n");
    static final byte[] VALUE = ascii("VALUE ");
    static final byte[] END = ascii("END\r\n");
    static final byte[] STORED = ascii("STORED\r\n");
    static final byte[] NOT_STORED = ascii("NOT_STORED\r\n");
    static final byte[] EXISTS = ascii("EXISTS\r\n");
    static final byte[] NOT_FOUND = ascii("NOT_FOUND\r\n");
    static final byte[] DELETED = ascii("DELETED\r\n");
    static final byte[] TOUCHED = ascii("TOUCHED\r\n");
    static final byte[] OK = ascii("OK\r\n");
    static final byte[] RESET = ascii("RESET\r\n");
    static final byte[] VERSION_REPLY = ascii("VERSION " + VERSION + "\r\n");
    static final byte[] ERROR = ascii("ERROR\r\n");
    static final byte[] SHUTDOWN_DISABLED = ascii("ERROR: shutdown not enabled\r\n");
    static final byte[] BAD_FORMAT = ascii("CLIENT_ERROR bad command line format\r\n");
    static final byte[] DELETE_USAGE = ascii("CLIENT_ERROR bad command line format.  Usage: delete <key> [noreply]\r\n");
    static final byte[] BAD_DATA_CHUNK = ascii("CLIENT_ERROR bad data chunk\r\n");
    static final byte[] INVALID_EXPTIME = ascii("CLIENT_ERROR invalid exptime argument\r\n");
    static final byte[] INVALID_DELTA = ascii("CLIENT_ERROR invalid numeric delta argument\r\n");
    static final byte[] NON_NUMERIC = ascii("CLIENT_ERROR cannot increment or decrement non-numeric value\r\n");
    static final byte[] TOO_LARGE = ascii("SERVER_ERROR object too large for cache\r\n");
    static final byte[] LINE_TOO_LONG = ascii("SERVER_ERROR out of memory reading request\r\n");

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
