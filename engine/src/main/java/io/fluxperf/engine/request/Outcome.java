package io.fluxperf.engine.request;

/**
 * How one issued request ended. Every request ends in exactly one of these (invariant 1);
 * the ordinal is the outcome code that traces store.
 */
public enum Outcome {
    /** A success; for reads, a hit. */
    OK,
    /** A read that found nothing (or a conditional write whose condition failed). */
    MISS,
    /** The server answered with an error, or with something that is not a valid reply. */
    ERROR,
    /** No reply within the per-request timeout. */
    TIMEOUT,
    /** The connection closed (or failed) while the request was in flight. */
    CLOSED;

    private static final Outcome[] VALUES = values();

    public static Outcome of(int code) {
        return VALUES[code];
    }

    public static int count() {
        return VALUES.length;
    }
}
