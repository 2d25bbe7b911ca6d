package io.fluxperf.engine.load;

import io.fluxperf.engine.Printable;
import io.fluxperf.engine.connection.Failures;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * Errors that are not a request's outcome: failed connects, connection resets, replies that
 * break the protocol, a failing request source. Counted, and the first few kept for the report.
 * Written from every event loop.
 */
public final class RunErrors {
    private static final int KEEP = 5;

    private final AtomicLong connectFailures = new AtomicLong();
    /** Connects that failed for want of file descriptors (EMFILE, ENFILE): counted among the errors too. */
    private final AtomicLong outOfFiles = new AtomicLong();
    private final AtomicLong connectionErrors = new AtomicLong();
    private final AtomicLong protocolErrors = new AtomicLong();
    /** Requests that ended as errors without a reply (several servers: keys on different servers, a redirect nowhere). */
    private final AtomicLong requestErrors = new AtomicLong();
    /** Distinct messages, first seen first, with how often each came. */
    private final Map<String, Long> samples = new LinkedHashMap<>();
    private volatile String firstConnectFailure;
    private volatile Throwable sourceFailure;
    private volatile String fatal;
    /** A reply came from the target: from then on a refusal means it went away, not that nothing listens there. */
    private volatile boolean answered;
    /** The target refused a datagram before it ever answered. */
    private volatile boolean unreachable;
    private volatile Runnable whenUnreachable = () -> { };
    /** What the first unexpected reply said about the server ({@code UnexpectedReply.hint}); "" for nothing, null before one came. */
    private volatile String replyHint;

    /** Errors read back from a run's files (a run directory): the counts, and the messages with how often each came. */
    public static RunErrors restored(long protocolErrors, long connectionErrors, long requestErrors,
                                     Map<String, Long> messages) {
        return restored(protocolErrors, connectionErrors, requestErrors, messages, null);
    }

    /** As {@link #restored(long, long, long, Map)}, with the run's {@link #wrongServerHint()} (null: none). */
    public static RunErrors restored(long protocolErrors, long connectionErrors, long requestErrors,
                                     Map<String, Long> messages, String wrongServerHint) {
        RunErrors e = new RunErrors();
        if (wrongServerHint != null) {
            e.replyHint = Printable.quote(wrongServerHint); // a file's words, printed
        }
        e.protocolErrors.set(protocolErrors);
        e.connectionErrors.set(connectionErrors);
        e.requestErrors.set(requestErrors);
        messages.forEach((m, n) -> e.samples.merge(Printable.quote(m), n, Long::sum)); // a file's words, printed
        return e;
    }

    /** The distinct messages kept, first seen first, with how often each came. */
    public synchronized Map<String, Long> messages() {
        return new LinkedHashMap<>(samples);
    }

    void connectFailed(Throwable error) {
        connectFailures.incrementAndGet();
        boolean exhausted = io.fluxperf.engine.connection.OpenFiles.exhausted(error);
        String why = exhausted ? io.fluxperf.engine.connection.OpenFiles.describeExhausted() : describe(error);
        if (firstConnectFailure == null) {
            firstConnectFailure = Printable.quote(why);
        }
        if (exhausted) {
            // the host, not the server, refused: the run cannot open what was asked (fatal while connecting)
            outOfFiles.incrementAndGet();
            fatal("--connections: a connect failed with " + why + "; raise the limit or use fewer connections");
            keep("connect: " + why);
        }
    }

    /** A reply came from the target. Called for every reply: it writes once. */
    void answered() {
        if (!answered) {
            answered = true;
        }
    }

    /**
     * The target's host refused a datagram (ICMP port unreachable). Before any reply came, nothing
     * listens on that port: a failed connect, which ends the run ({@link #unreachable()}); after
     * one, the server went away for a while (a restart): a connection error, and the run goes on.
     *
     * @return true when it ends the run
     */
    boolean refused(Throwable error) {
        if (answered) {
            connectionError(error);
            return false;
        }
        connectFailures.incrementAndGet();
        if (firstConnectFailure == null) {
            firstConnectFailure = Printable.quote(describe(error));
        }
        if (!unreachable) {
            unreachable = true;
            whenUnreachable.run();
        }
        return true;
    }

    /** Whether the target refused a datagram before it ever answered: the run cannot go on ({@link #firstConnectFailure()} says why). */
    public boolean unreachable() {
        return unreachable;
    }

    /** What to do, once, when the target turns out unreachable (stop the run); called on an event loop. */
    void whenUnreachable(Runnable action) {
        this.whenUnreachable = action;
    }

    void connectionError(Throwable error) {
        connectionErrors.incrementAndGet();
        keep("connection: " + describe(error));
    }

    void protocolError(String reason) {
        protocolErrors.incrementAndGet();
        keep("protocol: " + reason);
    }

    /** Whether no unexpected reply came yet: the first one's hint is still to be worked out. */
    boolean replyHintPending() {
        return replyHint == null;
    }

    /**
     * A reply that could not be one: a protocol error; {@code hint}, what the first such reply
     * says about the server (null: nothing), is kept.
     */
    void unexpectedReply(String reason, String hint) {
        protocolError(reason);
        if (replyHint == null) {
            replyHint = hint == null ? "" : Printable.quote(hint);
        }
    }

    /**
     * When no reply of the run could be read (each was unexpected) and the first one said what kind
     * of server answered: e.g. {@code does the server speak memcache? That is how redis answers: try
     * --protocol redis}; else null.
     */
    public String wrongServerHint() {
        String hint = replyHint;
        return !answered && protocolErrors.get() > 0 && hint != null && !hint.isEmpty() ? hint : null;
    }

    /**
     * A request ended as an error without a reply of its server, for {@code reason} (a constant:
     * this may come for every request, and allocates nothing once a reason is known).
     */
    void requestError(String reason) {
        requestErrors.incrementAndGet();
        if (!requestReasons.contains(reason)) {
            requestReasons.add(reason);
            keep("request: " + reason);
        }
    }

    private final java.util.Set<String> requestReasons = java.util.concurrent.ConcurrentHashMap.newKeySet();

    public long requestErrors() {
        return requestErrors.get();
    }

    /** A mistake in the run's settings that the server revealed (e.g. a refused password): the run cannot go on. */
    void fatal(String message) {
        if (fatal == null) {
            fatal = Printable.quote(message);
        }
    }

    /** The message of a fatal error, or null. */
    public String fatal() {
        return fatal;
    }

    void sourceFailed(Throwable error) {
        if (sourceFailure == null) {
            sourceFailure = error;
        }
    }

    /** Keeps the first few distinct messages; a server's or a log's words in them are escaped ({@link Printable}). */
    private synchronized void keep(String message) {
        String printable = Printable.quote(message); // the same string when there is nothing to escape
        if (samples.containsKey(printable) || samples.size() < KEEP) {
            samples.merge(printable, 1L, Long::sum);
        }
    }

    public long connectFailures() {
        return connectFailures.get();
    }

    public long connectionErrors() {
        return connectionErrors.get();
    }

    public long protocolErrors() {
        return protocolErrors.get();
    }

    /** Why the first connect failed, e.g. "Connection refused", or null. */
    public String firstConnectFailure() {
        return firstConnectFailure;
    }

    public Throwable sourceFailure() {
        return sourceFailure;
    }

    /** True when a connection or protocol error happened, or a connect found no file descriptor left. */
    public boolean any() {
        return connectionErrors.get() + protocolErrors.get() + requestErrors.get() + outOfFiles.get() > 0;
    }

    /** The first error message seen, or "no error reply" when there was none. */
    public synchronized String summaryOrNone() {
        return samples.isEmpty() ? "no error reply" : samples.keySet().iterator().next();
    }

    /**
     * The report's lines of errors: counts, then the distinct messages with how often each came; and
     * a second line, {@code Hint: …}, when the run seems pointed at another kind of server
     * ({@link #wrongServerHint()}).
     */
    public synchronized String summary() {
        String messages = samples.entrySet().stream()
                .map(e -> e.getKey() + (e.getValue() > 1 ? " (x" + e.getValue() + ")" : ""))
                .collect(Collectors.joining("; "));
        long requests = requestErrors.get();
        long files = outOfFiles.get();
        String hint = wrongServerHint();
        return "Errors: " + protocolErrors.get() + " protocol, " + connectionErrors.get() + " connection"
                + (requests > 0 ? ", " + requests + " request" : "") + (files > 0 ? ", " + files + " connect" : "")
                + ": " + messages
                + (hint != null ? System.lineSeparator() + "Hint: no reply could be read, each was unexpected: " + hint : "");
    }

    static String describe(Throwable error) {
        return Failures.describe(error);
    }
}
