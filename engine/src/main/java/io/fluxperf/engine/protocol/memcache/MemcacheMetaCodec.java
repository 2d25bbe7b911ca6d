package io.fluxperf.engine.protocol.memcache;

import io.fluxperf.engine.protocol.Ascii;
import io.fluxperf.engine.protocol.Base64Keys;
import io.fluxperf.engine.protocol.ProtocolCodec;
import io.fluxperf.engine.protocol.ProtocolException;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Outcome;
import io.fluxperf.engine.request.Request;
import io.fluxperf.engine.request.ValueCheck;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import static io.fluxperf.engine.protocol.Ascii.bytes;

/**
 * Client side of memcached's meta protocol for one connection, as a meta client writes it.
 *
 * <p>Requests: get {@code mg KEY v} (the return flags of {@link MetaOptions#getFlags()}; gets adds
 * {@code c}); a get of several keys is a quiet pipeline, one {@code mg KEY … q O<token>} per key and
 * {@code mn}, whose {@code MN} ends the request; set {@code ms KEY LEN T<ttl>}, add, replace,
 * append and prepend the same with the mode {@code ME}, {@code MR}, {@code MA}, {@code MP}, cas with
 * {@code C<cas>}; delete {@code md KEY}; incr {@code ma KEY}, decr {@code ma KEY MD}, a delta other
 * than 1 as {@code D<delta>} (and {@code N0 J0} with the option to create a missing key); touch
 * {@code mg KEY T<ttl>}; exists {@code me KEY}; flush {@code flush_all}, the text command, which
 * memcached takes on the same connection. With base64 keys every key goes encoded with {@code b}.
 *
 * <p>Outcomes: {@code VA} and {@code HD} are OK; {@code EN}, {@code NF}, {@code NS} and {@code EX}
 * are MISS (not found, not stored, or the cas did not match); a get of several keys is OK when
 * every key was found; {@code ERROR}, {@code CLIENT_ERROR} and {@code SERVER_ERROR} are ERROR. A
 * get whose value is not the one the run wrote is an ERROR marked as a mismatch, read whole: the
 * connection stays.
 *
 * <p>Quiet mode and the {@code mn} barrier. Assumptions: the server answers in request order,
 * leaves out only the replies that quiet mode lets it (a get's {@code EN}, any other command's
 * success), echoes every opaque token, and answers {@code mn} with {@code MN} after everything
 * before it. Guarantees: each request ends in exactly one outcome and consumes exactly its own reply.
 * A quiet request carries an opaque token (one a connection, counting up); every batch that
 * holds a quiet request not yet followed by a barrier ends with {@code mn} ({@link #writeBatchEnd}),
 * and this codec remembers after which request it went. Deciding the oldest request: its reply is
 * the next one that echoes its token; a reply with a later token, or without one, or the
 * {@code MN}, means that the server left its reply out, and it ends with the outcome of that
 * (MISS for a get, OK for the rest) without consuming anything; the request that a barrier
 * followed consumes the {@code MN} as the end of its reply. An error line carries no token: it ends
 * the oldest request still waiting that could have given it (memcached's non-numeric error only an
 * ma, its too-large and out-of-memory-storing errors only an ms; the others any request). In quiet
 * mode that may be an earlier request of the same kind whose success was left out (the protocol
 * does not say), so the counts stay exact while the error may be charged to another request. A reply that fits none of this (a token older than the oldest request's, an
 * {@code MN} that no barrier explains) is a {@link ProtocolException}: the connection is out of step.
 */
final class MemcacheMetaCodec implements ProtocolCodec {
    /** A reply line longer than this without a line end is garbage, not a partial reply. */
    static final int MAX_LINE = 8192;

    private static final byte[] MG = bytes("mg ");
    private static final byte[] MS = bytes("ms ");
    private static final byte[] MD = bytes("md ");
    private static final byte[] MA = bytes("ma ");
    private static final byte[] ME = bytes("me ");
    private static final byte[] MN = bytes("mn\r\n");
    private static final byte[] FLUSH_ALL = bytes("flush_all\r\n");
    private static final byte[] BASE64 = bytes(" b");
    private static final byte[] CAS_FLAG = bytes(" c");
    private static final byte[] QUIET = bytes(" q");
    private static final byte[] OPAQUE = bytes(" O");
    private static final byte[] TTL = bytes(" T");
    private static final byte[] CAS_VALUE = bytes(" C");
    private static final byte[] DECR_MODE = bytes(" MD");
    private static final byte[] DELTA = bytes(" D");
    private static final byte[] CREATE = bytes(" N0 J0");
    private static final byte[] ADD_MODE = bytes(" ME");
    private static final byte[] REPLACE_MODE = bytes(" MR");
    private static final byte[] APPEND_MODE = bytes(" MA");
    private static final byte[] PREPEND_MODE = bytes(" MP");
    private static final short CRLF = ('\r' << 8) | '\n';

    // what a reply line is
    private static final int UNKNOWN = 0;
    private static final int HD = 1;
    private static final int VA = 2;
    private static final int EN = 3;
    private static final int NF = 4;
    private static final int NS = 5;
    private static final int EX = 6;
    private static final int MN_REPLY = 7;
    private static final int ME_REPLY = 8;
    private static final int OK = 9;
    private static final int ERROR = 10;

    // what the codec remembers of each request in flight
    private static final byte MARK_QUIET = 1;
    private static final byte MARK_TOKEN = 2;
    private static final byte MARK_BARRIER_AFTER = 4;
    private static final byte MARK_PIPELINE = 8;

    private static final byte[] ERROR_LINE = bytes("ERROR");
    private static final byte[] CLIENT_ERROR = bytes("CLIENT_ERROR ");
    private static final byte[] SERVER_ERROR = bytes("SERVER_ERROR ");
    // memcached's errors that only one kind of command gives (proto_text.c)
    private static final byte[] NON_NUMERIC = bytes("CLIENT_ERROR cannot increment or decrement");
    private static final byte[] TOO_LARGE = bytes("SERVER_ERROR object too large");
    private static final byte[] NO_MEMORY_STORING = bytes("SERVER_ERROR out of memory storing");

    private final MetaOptions options;

    /** Requests in flight, oldest at {@code head}: their first token and marks; a ring that grows by doubling. */
    private int[] tokens = new int[16];
    private byte[] marks = new byte[16];
    private int head;
    private int size;
    private int nextToken;
    /** A quiet request was written since the last {@code mn}. */
    private boolean quietSinceBarrier;

    /** Readable bytes needed before another decode attempt can succeed (avoids rescanning big values). */
    private int needed;
    /** Where the decode under way started, for {@link #needed}. */
    private int decodeStart;
    // the reply framed last by frame(): its kind, echoed token (-1: none), value
    private int kind;
    private long echoed;
    private int valueFrom;
    private int valueLength;

    MemcacheMetaCodec(MetaOptions options) {
        this.options = options;
    }

    @Override
    public boolean hasHandshake() {
        return false;
    }

    @Override
    public boolean resetForNewConnection() {
        head = 0;
        size = 0;
        nextToken = 0;
        quietSinceBarrier = false;
        needed = 0;
        return true;
    }

    // ---- requests ----

    @Override
    public void encode(Request r, ByteBuf out) {
        Command c = r.command();
        boolean quiet = options.quiet();
        boolean token = options.tokens();
        int first = nextToken;
        byte mark;
        switch (c) {
            case GET, GETS -> {
                if (r.keyCount() > 1) {
                    for (int i = 0; i < r.keyCount(); i++) {
                        get(r, i, c == Command.GETS, out);
                        out.writeBytes(QUIET);
                        writeToken(out, nextToken++);
                        out.writeShort(CRLF);
                    }
                    out.writeBytes(MN);
                    push(first, (byte) (MARK_PIPELINE | MARK_TOKEN | MARK_BARRIER_AFTER));
                    quietSinceBarrier = false; // this request's own mn is a barrier for those before it too
                    return;
                }
                get(r, 0, c == Command.GETS, out);
            }
            case TOUCH -> {
                start(MG, r, out);
                out.writeBytes(TTL);
                Ascii.writeLong(out, r.ttlSeconds());
            }
            case SET, ADD, REPLACE, APPEND, PREPEND, CAS -> {
                out.writeBytes(MS);
                writeKey(r, 0, out);
                out.writeByte(' ');
                Ascii.writeLong(out, r.valueLength()); // the data length comes right after the key
                base64Flag(out);
                out.writeBytes(TTL);
                Ascii.writeLong(out, r.ttlSeconds());
                switch (c) {
                    case ADD -> out.writeBytes(ADD_MODE);
                    case REPLACE -> out.writeBytes(REPLACE_MODE);
                    case APPEND -> out.writeBytes(APPEND_MODE);
                    case PREPEND -> out.writeBytes(PREPEND_MODE);
                    case CAS -> {
                        out.writeBytes(CAS_VALUE);
                        Ascii.writeUnsignedLong(out, r.numeric());
                    }
                    default -> {
                        // set: memcached's default mode
                    }
                }
            }
            case DELETE -> start(MD, r, out);
            case INCR, DECR -> {
                start(MA, r, out);
                if (c == Command.DECR) {
                    out.writeBytes(DECR_MODE);
                }
                if (r.numeric() != 1) {
                    out.writeBytes(DELTA);
                    Ascii.writeUnsignedLong(out, r.numeric());
                }
                if (options.autoCreate()) {
                    out.writeBytes(CREATE);
                }
            }
            case EXISTS -> {
                // me takes no quiet mode and echoes no token: its reply comes, in order
                start(ME, r, out);
                out.writeShort(CRLF);
                push(0, (byte) 0);
                return;
            }
            case FLUSH -> {
                out.writeBytes(FLUSH_ALL);
                push(0, (byte) 0);
                return;
            }
            default -> throw new IllegalArgumentException("memcache-meta cannot encode " + c);
        }
        mark = 0;
        if (quiet) {
            out.writeBytes(QUIET);
            mark |= MARK_QUIET;
            quietSinceBarrier = true;
        }
        if (token) {
            writeToken(out, nextToken++);
            mark |= MARK_TOKEN;
        }
        out.writeShort(CRLF);
        if (c.carriesValue()) {
            out.writeBytes(r.value(), r.valueOffset(), r.valueLength());
            out.writeShort(CRLF);
        }
        push(first, mark);
    }

    private void get(Request r, int key, boolean withCas, ByteBuf out) {
        out.writeBytes(MG);
        writeKey(r, key, out);
        base64Flag(out);
        out.writeBytes(options.getFlags());
        if (withCas && !options.getFlagsHaveCas()) {
            out.writeBytes(CAS_FLAG);
        }
    }

    /** The verb and the key, and {@code b} when keys go base64-encoded. */
    private void start(byte[] verb, Request r, ByteBuf out) {
        out.writeBytes(verb);
        writeKey(r, 0, out);
        base64Flag(out);
    }

    private void writeKey(Request r, int i, ByteBuf out) {
        if (options.base64()) {
            Base64Keys.encode(r.keyBytes(), r.keyOffset(i), r.keyLength(i), out);
        } else {
            out.writeBytes(r.keyBytes(), r.keyOffset(i), r.keyLength(i));
        }
    }

    private void base64Flag(ByteBuf out) {
        if (options.base64()) {
            out.writeBytes(BASE64);
        }
    }

    private static void writeToken(ByteBuf out, int token) {
        out.writeBytes(OPAQUE);
        Ascii.writeLong(out, Integer.toUnsignedLong(token));
    }

    /** Ends a batch that holds quiet requests with {@code mn}: its {@code MN} accounts for the replies left out. */
    @Override
    public void writeBatchEnd(ByteBuf out) {
        if (!quietSinceBarrier) {
            return;
        }
        out.writeBytes(MN);
        quietSinceBarrier = false;
        int tail = (head + size - 1) & (marks.length - 1);
        marks[tail] |= MARK_BARRIER_AFTER;
    }

    private void push(int token, byte mark) {
        if (size == marks.length) {
            grow();
        }
        int tail = (head + size) & (marks.length - 1);
        tokens[tail] = token;
        marks[tail] = mark;
        size++;
    }

    /** Doubles the ring; at most once per doubling of the requests in flight, so not per request. */
    private void grow() {
        int[] t = new int[tokens.length * 2];
        byte[] m = new byte[marks.length * 2];
        for (int i = 0; i < size; i++) {
            t[i] = tokens[(head + i) & (tokens.length - 1)];
            m[i] = marks[(head + i) & (marks.length - 1)];
        }
        tokens = t;
        marks = m;
        head = 0;
    }

    // ---- replies ----

    @Override
    public int decode(ByteBuf in, Request r) throws ProtocolException {
        int start = in.readerIndex();
        int limit = in.writerIndex();
        if (limit - start < needed) {
            return NEED_MORE;
        }
        if (size == 0) {
            throw new ProtocolException("memcache-meta reply to " + r + ", which this connection did not send");
        }
        decodeStart = start;
        int mark = marks[head];
        int result = (mark & MARK_PIPELINE) != 0 ? decodePipeline(in, start, limit, r, tokens[head])
                : decodeOne(in, start, limit, r, mark, tokens[head]);
        if (result != NEED_MORE) {
            needed = 0;
            head = (head + 1) & (marks.length - 1);
            size--;
        }
        return result;
    }

    private int decodeOne(ByteBuf in, int start, int limit, Request r, int mark, int token) throws ProtocolException {
        int end = frame(in, start, limit, r);
        if (end < 0) {
            return NEED_MORE;
        }
        boolean quiet = (mark & MARK_QUIET) != 0;
        boolean barrierAfter = (mark & MARK_BARRIER_AFTER) != 0;
        Command c = r.command();
        Outcome outcome;
        int consumed;
        if (kind == MN_REPLY) {
            if (!quiet) {
                throw new ProtocolException("memcache-meta reply MN where the reply to " + r + " was due: out of step");
            }
            outcome = leftOut(c);
            consumed = barrierAfter ? end : start;
        } else if (kind == ERROR) {
            if (quiet && !barrierAfter && notItsError(in, start, end, c)) {
                outcome = leftOut(c); // an ma's or ms's error, and this is neither: its reply was left out
                consumed = start;
            } else {
                outcome = Outcome.ERROR;
                consumed = end;
            }
        } else if ((mark & MARK_TOKEN) == 0 || echoed == Integer.toUnsignedLong(token)) {
            outcome = outcome(c, kind);
            if (outcome == null) {
                throw malformed(in, start, r);
            }
            if (kind == VA && c.isRead() && !valueMatches(in, r, 0)) {
                r.valueMismatch(); // a whole reply with another value: an error of its own, the connection stays
                outcome = Outcome.ERROR;
            }
            consumed = end;
        } else {
            // a reply without a token answers a later request that takes none (me, flush_all)
            if (!quiet || barrierAfter || echoed == -2 || (echoed >= 0 && !later(echoed, token))) {
                throw new ProtocolException("memcache-meta reply with token " + (echoed < 0 ? "none" : "O" + echoed)
                        + " to " + r + " (O" + Integer.toUnsignedLong(token) + "): out of step");
            }
            outcome = leftOut(c); // its reply was left out: this one is a later request's
            consumed = start;
        }
        if (barrierAfter && consumed == end && kind != MN_REPLY) {
            // the mn written after this request: its MN ends this reply
            int mnEnd = frame(in, end, limit, r);
            if (mnEnd < 0) {
                return NEED_MORE;
            }
            if (kind != MN_REPLY) {
                throw new ProtocolException("memcache-meta reply after " + r + " is not the MN of the mn sent after it: "
                        + "out of step");
            }
            consumed = mnEnd;
        }
        in.readerIndex(consumed);
        return outcome.ordinal();
    }

    /** A get of several keys: one quiet mg per key with tokens from {@code first}, ended by its own MN. */
    private int decodePipeline(ByteBuf in, int start, int limit, Request r, int first) throws ProtocolException {
        int pos = start;
        int hits = 0;
        boolean error = false;
        boolean mismatch = false;
        long firstToken = Integer.toUnsignedLong(first);
        while (true) {
            int end = frame(in, pos, limit, r);
            if (end < 0) {
                return NEED_MORE;
            }
            if (kind == MN_REPLY) {
                in.readerIndex(end);
                if (mismatch && !error) {
                    r.valueMismatch();
                }
                return error || mismatch ? Outcome.ERROR.ordinal()
                        : hits == r.keyCount() ? Outcome.OK.ordinal() : Outcome.MISS.ordinal();
            }
            if (kind == ERROR) {
                error = true; // a quiet get still answers its errors; the MN ends the request
            } else {
                long k = echoed - firstToken;
                if (echoed < 0 || k < 0 || k >= r.keyCount() || (kind != VA && kind != HD && kind != EN)) {
                    throw new ProtocolException("memcache-meta reply '" + text(in, pos, end) + "' within the gets of "
                            + r + " (tokens O" + firstToken + " to O" + (firstToken + r.keyCount() - 1) + "): out of step");
                }
                if (kind != EN) {
                    if (kind == VA) {
                        mismatch |= !valueMatches(in, r, (int) k);
                    }
                    hits++;
                }
            }
            pos = end;
        }
    }

    /**
     * Frames the reply at {@code pos}: sets {@link #kind}, {@link #echoed} and, for VA, the value's
     * place, and returns where the reply ends; -1 when it is incomplete ({@link #needed} says how
     * much must be there before trying again).
     */
    private int frame(ByteBuf in, int pos, int limit, Request r) throws ProtocolException {
        int lf = lineEnd(in, pos, limit);
        if (lf < 0) {
            needed = limit - decodeStart + 1;
            return -1;
        }
        int lineEnd = lf - 1;
        kind = kindOf(in, pos, lineEnd);
        echoed = -1;
        switch (kind) {
            case UNKNOWN -> throw malformed(in, pos, r);
            case HD, EN, NF, NS, EX -> echoed = token(in, pos + 2, lineEnd);
            case VA -> {
                int sizeFrom = pos + 3;
                int sizeEnd = in.indexOf(sizeFrom, lineEnd, (byte) ' ');
                if (sizeEnd < 0) {
                    sizeEnd = lineEnd;
                }
                long length = Ascii.parseNonNegative(in, sizeFrom, sizeEnd);
                if (length < 0 || length > Integer.MAX_VALUE - 64) {
                    throw malformed(in, pos, r);
                }
                echoed = token(in, sizeEnd, lineEnd);
                long blockEnd = lf + 1L + length + 2;
                if (blockEnd > limit) {
                    needed = (int) Math.min(Integer.MAX_VALUE, blockEnd - decodeStart);
                    return -1;
                }
                if (in.getShort((int) blockEnd - 2) != CRLF) {
                    throw new ProtocolException("memcache-meta value of " + length + " bytes for " + r
                            + " does not end in \\r\\n");
                }
                valueFrom = lf + 1;
                valueLength = (int) length;
                return (int) blockEnd;
            }
            default -> {
                // MN, ME, OK and errors carry no token
            }
        }
        return lf + 1;
    }

    /** The kind of the reply line {@code in[from, end)}. */
    private static int kindOf(ByteBuf in, int from, int end) {
        int length = end - from;
        if (length >= 2 && (length == 2 || in.getByte(from + 2) == ' ')) {
            int code = in.getByte(from) << 8 | in.getByte(from + 1);
            switch (code) {
                case 'H' << 8 | 'D' -> {
                    return HD;
                }
                case 'V' << 8 | 'A' -> {
                    return length > 3 ? VA : UNKNOWN;
                }
                case 'E' << 8 | 'N' -> {
                    return EN;
                }
                case 'N' << 8 | 'F' -> {
                    return NF;
                }
                case 'N' << 8 | 'S' -> {
                    return NS;
                }
                case 'E' << 8 | 'X' -> {
                    return EX;
                }
                case 'M' << 8 | 'N' -> {
                    return length == 2 ? MN_REPLY : UNKNOWN;
                }
                case 'M' << 8 | 'E' -> {
                    return length > 3 ? ME_REPLY : UNKNOWN;
                }
                case 'O' << 8 | 'K' -> {
                    return length == 2 ? OK : UNKNOWN;
                }
                default -> {
                    // not a code; maybe an error line
                }
            }
        }
        if ((length == ERROR_LINE.length && Ascii.startsWith(in, from, end, ERROR_LINE))
                || Ascii.startsWith(in, from, end, CLIENT_ERROR) || Ascii.startsWith(in, from, end, SERVER_ERROR)) {
            return ERROR;
        }
        return UNKNOWN;
    }

    /** The token an {@code O} flag among {@code in[from, end)} echoes, -1 for none, -2 for one that is no number of ours. */
    private static long token(ByteBuf in, int from, int end) {
        int p = from;
        while (p < end) {
            if (in.getByte(p) == ' ') {
                p++;
                continue;
            }
            int flagEnd = in.indexOf(p, end, (byte) ' ');
            if (flagEnd < 0) {
                flagEnd = end;
            }
            if (in.getByte(p) == 'O') {
                long v = Ascii.parseNonNegative(in, p + 1, flagEnd);
                return v < 0 || v > 0xffffffffL ? -2 : v;
            }
            p = flagEnd;
        }
        return -1;
    }

    /** Whether the error line at {@code from} is one that only another kind of command than {@code c} gives. */
    private static boolean notItsError(ByteBuf in, int from, int end, Command c) {
        if (Ascii.startsWith(in, from, end, NON_NUMERIC)) {
            return c != Command.INCR && c != Command.DECR;
        }
        if (Ascii.startsWith(in, from, end, TOO_LARGE) || Ascii.startsWith(in, from, end, NO_MEMORY_STORING)) {
            return !c.carriesValue();
        }
        return false;
    }

    /** Whether {@code echoed} is a token written after {@code token} (tokens count up and wrap at 2^32). */
    private static boolean later(long echoed, int token) {
        return echoed >= 0 && (int) echoed - token > 0;
    }

    private static Outcome outcome(Command c, int kind) {
        return switch (c) {
            case GET, GETS, TOUCH -> kind == VA || kind == HD ? Outcome.OK : kind == EN ? Outcome.MISS : null;
            case SET, ADD, REPLACE, APPEND, PREPEND, CAS, DELETE ->
                    kind == HD ? Outcome.OK : kind == NS || kind == EX || kind == NF ? Outcome.MISS : null;
            case INCR, DECR -> kind == HD || kind == VA ? Outcome.OK
                    : kind == NF || kind == NS || kind == EX ? Outcome.MISS : null;
            case EXISTS -> kind == ME_REPLY ? Outcome.OK : kind == EN ? Outcome.MISS : null;
            case FLUSH -> kind == OK ? Outcome.OK : null;
            default -> null;
        };
    }

    /** The outcome of a quiet request whose reply the server left out: a get's miss, anything else's success. */
    private static Outcome leftOut(Command c) {
        return c.isRead() || c == Command.TOUCH ? Outcome.MISS : Outcome.OK;
    }

    /** Whether the value just framed is the one the run wrote for key {@code key} (true when nothing is checked). */
    private boolean valueMatches(ByteBuf in, Request r, int key) {
        ValueCheck check = r.valueCheck();
        return check == null || check.matches(r.keyBytes(), r.keyOffset(key), r.keyLength(key), in, valueFrom, valueLength);
    }

    /** The index of the '\n' ending the line at {@code from} (which must follow '\r'), or -1 when incomplete. */
    private static int lineEnd(ByteBuf in, int from, int limit) throws ProtocolException {
        int lf = in.indexOf(from, Math.min(limit, from + MAX_LINE), (byte) '\n');
        if (lf < 0) {
            if (limit - from >= MAX_LINE) {
                throw new ProtocolException("memcache-meta reply line longer than " + MAX_LINE + " bytes");
            }
            return -1;
        }
        if (lf == from || in.getByte(lf - 1) != '\r') {
            throw new ProtocolException("memcache-meta reply line not ended by \\r\\n: '" + text(in, from, lf) + "'");
        }
        return lf;
    }

    private static ProtocolException malformed(ByteBuf in, int from, Request r) {
        int lf = in.indexOf(from, in.writerIndex(), (byte) '\n');
        return new ProtocolException("unexpected memcache-meta reply '" + text(in, from, lf < 0 ? in.writerIndex() : lf)
                + "' to " + r);
    }

    private static String text(ByteBuf in, int from, int end) {
        int length = Math.min(end - from, 80);
        String s = in.toString(from, Math.max(0, length), StandardCharsets.ISO_8859_1);
        return s.replace("\r", "\\r").replace("\n", "\\n") + (end - from > 80 ? "…" : "");
    }
}
