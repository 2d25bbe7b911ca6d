package io.fluxperf.engine.log.capture;

import io.fluxperf.engine.log.LogEntry;

/**
 * What every protocol's {@link ConnectionReader} does alike, so that a protocol's reader holds only
 * its parsing: finding a command boundary in a connection picked up mid-stream, giving up on a
 * stream that cannot be read on, counting a command cut by a gap or too large to hold, and the
 * commands that wait for their replies.
 *
 * <h2>Assumptions and guarantees</h2>
 * <ul>
 *   <li>A connection picked up mid-stream is <em>syncing</em>: its segments are passed over until
 *       one {@link #mayStartCommand may start a command}. From there the reader is
 *       <em>tentative</em> until its first command is whole: a {@link #fail failure} or a gap
 *       passes that segment over too and syncing starts again, and the command begun is
 *       {@linkplain CommandSink#abandon() abandoned}. The first whole command reports the bytes
 *       passed over ({@link #pickedUp}).</li>
 *   <li>Once not tentative, a failure or a gap outside a {@linkplain #skipInCommand stated length}
 *       ends the reading of requests for good ({@link CommandSink#requestsLost}); a reply that
 *       comes after that is counted as {@linkplain WaitingCommands#noneFor answering an unread command}.</li>
 *   <li>The subclass's {@link #step} runs only while requests are read, never while syncing.</li>
 * </ul>
 */
public abstract class AbstractConnectionReader implements ConnectionReader {
    /** A command holding more bytes than this is read past, not kept (and counted as skipped). */
    public static final long HOLD_LIMIT = 64L << 20;

    /** The entry of the command being read, from {@link CommandSink#begin()}; null between commands. */
    protected LogEntry e;
    /** A gap fell inside the command being read, where its length is stated. */
    protected boolean cut;
    /** The command being read holds more than {@link #HOLD_LIMIT} bytes: read past, not kept. */
    protected boolean tooBig;
    /** The commands waiting for their replies. */
    protected final WaitingCommands waiting = new WaitingCommands();

    private final String tooBigReason;
    private boolean requestsDone;
    private boolean syncing;
    private boolean tentative;
    private long tentativeBytes;
    private long syncSkipped;
    /** Where the segment being read started (a failed attempt at a boundary passes all of it over). */
    private int segmentFrom;

    /** @param tooBigReason how the report names commands larger than {@link #HOLD_LIMIT} ("commands larger than 64 MiB …") */
    protected AbstractConnectionReader(String tooBigReason) {
        this.tooBigReason = tooBigReason;
    }

    /** Readies for a new connection; a subclass resets its own states and then calls this. */
    @Override
    public void reset(boolean fromStart) {
        e = null;
        cut = false;
        tooBig = false;
        waiting.clear();
        requestsDone = false;
        syncing = !fromStart;
        tentative = false;
        tentativeBytes = 0;
        syncSkipped = 0;
    }

    // ---- what a protocol supplies ----

    /** Whether a segment of a connection picked up mid-stream, {@code b[from, to)}, may begin with a command. */
    protected abstract boolean mayStartCommand(byte[] b, int from, int to);

    /** The next byte starts a command: a boundary was found while syncing. */
    protected abstract void atCommandStart();

    /** Takes one step of the request state machine from {@code p}, {@code p < to}; returns where it stopped. */
    protected abstract int step(byte[] b, int p, int to, CommandSink out);

    /**
     * A gap of {@code n} bytes in the client's stream: true when it falls inside a length the
     * protocol states (the subclass sets {@link #cut} and reads on after it), false when the stream
     * cannot be read on.
     */
    protected abstract boolean skipInCommand(long n, CommandSink out);

    /**
     * What the bytes a failure stopped at are, for {@link CommandSink#requestsLost}: {@code b[p, to)},
     * and {@code what} the parser found.
     */
    protected abstract String notACommand(byte[] b, int p, int to, String what);

    // ---- requests ----

    @Override
    public final void request(byte[] b, int from, int to, CommandSink out) {
        if (requestsDone) {
            return;
        }
        if (syncing) {
            if (!mayStartCommand(b, from, to)) {
                syncSkipped += to - from;
                return;
            }
            syncing = false;
            tentative = true;
            tentativeBytes = 0;
            atCommandStart();
        }
        segmentFrom = from;
        int p = from;
        while (p < to && !requestsDone && !syncing) {
            p = step(b, p, to, out);
        }
        if (tentative) {
            tentativeBytes += to - from;
        }
    }

    @Override
    public final void requestGap(long n, CommandSink out) {
        if (requestsDone) {
            return;
        }
        if (syncing) {
            syncSkipped += n;
        } else if (tentative) {
            syncSkipped += tentativeBytes + n;
            resync(out);
        } else if (!skipInCommand(n, out)) {
            endRequests();
            e = null;
            out.requestsLost(null);
        }
    }

    /**
     * The bytes at {@code b[p, to)} are not a command: a failed attempt at a boundary (this
     * segment is passed over and the next one tried), or the end of what can be read of the client's
     * stream. Returns {@code to}, where the step stops.
     */
    protected final int fail(CommandSink out, byte[] b, int p, int to, String what) {
        if (tentative) {
            syncSkipped += tentativeBytes + (to - segmentFrom);
            resync(out);
            return to;
        }
        endRequests();
        e = null;
        out.requestsLost(notACommand(b, p, to, what));
        return to;
    }

    private void resync(CommandSink out) {
        tentative = false;
        tentativeBytes = 0;
        syncing = true;
        e = null;
        out.abandon();
    }

    /** Reads no more of the client's stream, without counting it lost (it now carries another protocol). */
    protected final void stopRequests() {
        endRequests();
    }

    private void endRequests() {
        requestsDone = true;
        waiting.requestsEnded();
    }

    /** Whether a boundary is being proved: the connection was picked up mid-stream and no command of it is whole yet. */
    protected final boolean tentative() {
        return tentative;
    }

    /** A command is whole: in a connection picked up mid-stream, the first one proves the boundary. */
    protected final void pickedUp(CommandSink out) {
        if (tentative) {
            tentative = false;
            tentativeBytes = 0;
            out.pickedUp(syncSkipped);
        }
    }

    /** Starts a command at the byte just given: its entry from the sink, neither cut nor too big. */
    protected final void begin(CommandSink out) {
        e = out.begin();
        cut = false;
        tooBig = false;
    }

    /** Whether the whole command is not replayed for what the capture did to it ({@link #cut} or {@link #tooBig}). */
    protected final boolean dropped() {
        return cut || tooBig;
    }

    /** A {@link #dropped()} command is whole: counted as cut or as too big; returns its handle. */
    protected final long drop(CommandSink out) {
        return cut ? out.cut() : out.skip(tooBigReason);
    }

    /** Up to {@code max} bytes of {@code b[from, to)} as text for a message: printable ASCII, the rest as {@code \xHH}. */
    public static String printable(byte[] b, int from, int to, int max) {
        StringBuilder s = new StringBuilder();
        for (int i = from; i < to && i < from + max; i++) {
            int c = b[i] & 0xff;
            s.append(c >= 0x20 && c < 0x7f && c != '\'' ? String.valueOf((char) c) : String.format("\\x%02x", c));
        }
        return s.toString();
    }
}
