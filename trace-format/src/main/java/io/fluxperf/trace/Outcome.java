package io.fluxperf.trace;

import java.util.List;
import java.util.Locale;

/**
 * The outcome codes a {@link TraceRecord} stores. Every issued request ends in exactly one of them.
 * The codes are part of the trace format: they never change meaning within a format version.
 */
public final class Outcome {
    /** A reply that answered the request: a hit, a stored value, an HTTP 2xx/3xx. */
    public static final byte OK = 0;
    /** A reply that says the key was not there (memcache END without VALUE, RESP nil, HTTP 404). */
    public static final byte MISS = 1;
    /** A server error reply, or a request that failed on its connection (refused, reset). */
    public static final byte ERROR = 2;
    /** No reply within the request timeout. */
    public static final byte TIMEOUT = 3;
    /** The connection closed before the reply arrived. */
    public static final byte CLOSED = 4;

    /** Number of outcome codes; codes are {@code 0 .. COUNT - 1}. */
    public static final int COUNT = 5;

    /** Names by code, as they appear in exports and reports ({@code ok, miss, error, timeout, closed}). */
    public static final List<String> NAMES = List.of("ok", "miss", "error", "timeout", "closed");

    private Outcome() {
    }

    /** The name of an outcome code, or {@code "outcome#N"} for a code outside the table. */
    public static String name(int code) {
        return code >= 0 && code < COUNT ? NAMES.get(code) : "outcome#" + code;
    }

    /** The code of an outcome name (case-insensitive; {@code hit} is accepted for ok), or -1. */
    public static int code(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT);
        if (n.equals("hit")) {
            return OK;
        }
        return NAMES.indexOf(n);
    }
}
