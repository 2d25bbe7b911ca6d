package io.fluxperf.engine.protocol.resp.log;

import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.log.ReaderContext;
import io.fluxperf.engine.log.capture.CommandSink;
import io.fluxperf.engine.log.capture.ConnectionReader;
import io.fluxperf.engine.protocol.resp.RespOutcome;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Outcome;
import java.util.Arrays;

/**
 * Reads one captured redis connection: the client's commands, RESP arrays of bulk strings
 * (pipelined or not) and inline commands, into log entries as the MONITOR reader makes them (the
 * same verbs are skipped, keys found and prefixed the same way), and the server's RESP2 and RESP3
 * replies into each command's original outcome, by the rule the client codec uses
 * ({@link RespOutcome}). Both are resumable state machines over the bytes: a bulk string is copied
 * into the entry as it comes and a reply's is only counted, never held; nothing is allocated per
 * command.
 *
 * <p>Gaps: one inside a bulk string (of a command or of a reply), whose length RESP states, is
 * skipped exactly and the command is cut; anywhere else the stream cannot be read on. A connection
 * picked up mid-stream starts at the first segment that begins with a whole RESP array.
 *
 * <p>After SUBSCRIBE, PSUBSCRIBE, SSUBSCRIBE, MONITOR or CLIENT REPLY the server's messages are no
 * longer one reply per command: the connection's later replies are not read.
 */
final class RespConnectionReader implements ConnectionReader {
    /** redis' own limit for an inline command (PROTO_INLINE_MAX_SIZE). */
    static final int MAX_INLINE = 64 << 10;
    /** redis' proto-max-bulk-len default. */
    static final long MAX_BULK = 512L << 20;
    /** A command holding more bytes than this is read past, not kept (and counted as skipped). */
    static final long HOLD_LIMIT = 64L << 20;
    static final String TOO_BIG = "commands larger than 64 MiB (read past, not held)";
    private static final int MAX_ARGS = 1 << 20;

    private static final int R_SYNC = 0;
    private static final int R_START = 1;
    private static final int R_COUNT = 2;
    private static final int R_BULK_HEAD = 3;
    private static final int R_BULK_LENGTH = 4;
    private static final int R_BULK_DATA = 5;
    private static final int R_INLINE = 6;
    private static final int R_DEAD = 7;

    private static final int T_TYPE = 0;
    private static final int T_LINE = 1;
    private static final int T_LENGTH = 2;
    private static final int T_BULK = 3;
    private static final int T_DEAD = 4;

    private final ReaderContext ctx;
    private final RedisVerbs verbs;
    private final RedisMonitorReader.Prefixer prefixer;

    // ---- the client's side ----
    private int rState;
    private LogEntry e;
    private final NumberLine requestNumber = new NumberLine();
    private long argsLeft;
    private long dataLeft;
    private int crlfLeft;
    private int argAt;
    private int argEnd;
    private long held;
    private boolean cut;
    private boolean tooBig;
    private boolean tentative;
    private long tentativeBytes;
    private long syncSkipped;
    /** Where the segment being read started (a failed attempt at a boundary skips all of it). */
    private int segmentFrom;
    private byte[] line = new byte[256];
    private int lineLength;

    // commands waiting for their replies
    private long[] waitingHandle = new long[16];
    private Command[] waitingCommand = new Command[16];
    private int waitingHead;
    private int waitingCount;

    // ---- the server's side ----
    private int tState;
    private final NumberLine replyNumber = new NumberLine();
    private byte valueType;
    private int lineBytes;
    private boolean lineZero;
    private boolean lineCr;
    private long replyLeft;
    private int replyCrlfLeft;
    private long[] left = new long[8];
    private byte[] types = new byte[8];
    private int depth;
    // the top-level reply's shape
    private int shapeDepth;
    private int skipFrom = -1;
    private byte topType;
    private boolean topNil;
    private boolean topZero;
    private long elements;
    private long nilElements;
    private long zeroElements;

    RespConnectionReader(ReaderContext ctx) {
        this.ctx = ctx;
        this.verbs = new RedisVerbs(ctx, "AUTH/HELLO (a connection's setup: give --password, --user or --resp)");
        this.prefixer = ctx.keyPrefix == null ? null : new RedisMonitorReader.Prefixer(ctx.keyPrefix);
    }

    @Override
    public void reset(boolean fromStart) {
        rState = fromStart ? R_START : R_SYNC;
        e = null;
        cut = false;
        tooBig = false;
        held = 0;
        tentative = false;
        tentativeBytes = 0;
        syncSkipped = 0;
        waitingHead = 0;
        waitingCount = 0;
        tState = T_TYPE;
        depth = 0;
        clearShape();
    }

    // ================= requests =================

    @Override
    public void request(byte[] b, int from, int to, CommandSink out) {
        if (rState == R_DEAD) {
            return;
        }
        if (rState == R_SYNC) {
            if (b[from] != '*') {
                syncSkipped += to - from;
                return;
            }
            tentative = true;
            tentativeBytes = 0;
            rState = R_START;
        }
        segmentFrom = from;
        int p = from;
        while (p < to && rState != R_DEAD && rState != R_SYNC) {
            p = step(b, p, to, out);
        }
        if (tentative) {
            tentativeBytes += to - from;
        }
    }

    /** Takes one step of the request state machine from {@code p}; returns where it stopped. */
    private int step(byte[] b, int p, int to, CommandSink out) {
        switch (rState) {
            case R_START -> {
                byte c = b[p];
                if (c == '*') {
                    begin(out);
                    requestNumber.clear();
                    rState = R_COUNT;
                    return p + 1;
                }
                if (c == '\r' || c == '\n') {
                    return p + 1; // an empty inline command: redis ignores it
                }
                if (tentative) {
                    return fail(out, b, p, to);
                }
                begin(out);
                lineLength = 0;
                rState = R_INLINE;
                return p;
            }
            case R_COUNT -> {
                p = requestNumber.feed(b, p, to);
                if (!requestNumber.done) {
                    return p;
                }
                if (requestNumber.bad || requestNumber.value > MAX_ARGS) {
                    return fail(out, b, p, to);
                }
                if (requestNumber.value <= 0) {
                    rState = R_START; // "*0" and "*-1": redis reads nothing and answers nothing
                    e = null;
                    out.abandon();
                    return p;
                }
                argsLeft = requestNumber.value;
                rState = R_BULK_HEAD;
                return p;
            }
            case R_BULK_HEAD -> {
                if (b[p] != '$') {
                    return fail(out, b, p, to);
                }
                requestNumber.clear();
                rState = R_BULK_LENGTH;
                return p + 1;
            }
            case R_BULK_LENGTH -> {
                p = requestNumber.feed(b, p, to);
                if (!requestNumber.done) {
                    return p;
                }
                long n = requestNumber.value;
                if (requestNumber.bad || requestNumber.negative || n > MAX_BULK) {
                    return fail(out, b, p, to);
                }
                dataLeft = n;
                crlfLeft = 2;
                held += n;
                if (!tooBig && held > HOLD_LIMIT) {
                    tooBig = true;
                }
                if (!tooBig && !cut) {
                    argAt = e.beginArg((int) n);
                    argEnd = argAt;
                }
                rState = R_BULK_DATA;
                return p;
            }
            case R_BULK_DATA -> {
                if (dataLeft > 0) {
                    int n = (int) Math.min(dataLeft, to - p);
                    if (!tooBig && !cut) {
                        System.arraycopy(b, p, e.args, argEnd, n);
                        argEnd += n;
                    }
                    dataLeft -= n;
                    p += n;
                    return p;
                }
                byte expected = crlfLeft == 2 ? (byte) '\r' : (byte) '\n';
                if (b[p] != expected) {
                    return fail(out, b, p, to);
                }
                crlfLeft--;
                p++;
                bulkDone(out);
                return p;
            }
            case R_INLINE -> {
                int nl = p;
                while (nl < to && b[nl] != '\n') {
                    nl++;
                }
                int n = nl - p;
                if (lineLength + n > MAX_INLINE) {
                    return fail(out, b, p, to);
                }
                if (lineLength + n > line.length) {
                    line = Arrays.copyOf(line, Math.max(lineLength + n, line.length * 2));
                }
                System.arraycopy(b, p, line, lineLength, n);
                lineLength += n;
                if (nl == to) {
                    return to;
                }
                int end = lineLength > 0 && line[lineLength - 1] == '\r' ? lineLength - 1 : lineLength;
                if (!splitInline(end)) {
                    return fail(out, b, p, to);
                }
                if (e.argCount == 0) {
                    rState = R_START; // blank: nothing to run
                    e = null;
                    out.abandon();
                } else {
                    finish(out);
                }
                return nl + 1;
            }
            default -> throw new IllegalStateException("request state " + rState);
        }
    }

    private void begin(CommandSink out) {
        e = out.begin();
        cut = false;
        tooBig = false;
        held = 0;
    }

    /** The bulk string being read has all its bytes and its CRLF: one argument more, maybe the last. */
    private boolean bulkDone(CommandSink out) {
        if (dataLeft > 0 || crlfLeft > 0) {
            return false;
        }
        if (!tooBig && !cut) {
            e.endArg(argEnd);
        }
        if (--argsLeft > 0) {
            rState = R_BULK_HEAD;
        } else {
            finish(out);
        }
        return true;
    }

    /** The bytes at {@code p} are not a redis command: a failed attempt at a boundary, or the stream's end. */
    private int fail(CommandSink out, byte[] b, int p, int to) {
        if (tentative) {
            // not a boundary after all: this segment is skipped too, and the next one is tried
            syncSkipped += tentativeBytes + (to - segmentFrom);
            tentative = false;
            tentativeBytes = 0;
            rState = R_SYNC;
            e = null;
            out.abandon();
            return to;
        }
        rState = R_DEAD;
        out.requestsLost("bytes that are no redis command ('" + printable(b, p, to) + "')");
        return to;
    }

    @Override
    public void requestGap(long n, CommandSink out) {
        switch (rState) {
            case R_DEAD -> {
            }
            case R_SYNC -> syncSkipped += n;
            default -> {
                if (tentative) {
                    syncSkipped += tentativeBytes + n;
                    tentative = false;
                    tentativeBytes = 0;
                    rState = R_SYNC;
                    e = null;
                    out.abandon();
                } else if (rState == R_BULK_DATA && n <= dataLeft + crlfLeft) {
                    cut = true;
                    long fromData = Math.min(n, dataLeft);
                    dataLeft -= fromData;
                    crlfLeft -= (int) (n - fromData);
                    bulkDone(out);
                } else {
                    rState = R_DEAD;
                    out.requestsLost(null);
                }
            }
        }
    }

    /** A whole command: replayed, skipped or counted as cut; its reply is waited for. */
    private void finish(CommandSink out) {
        LogEntry entry = e;
        e = null;
        rState = R_START;
        if (tentative) {
            tentative = false;
            out.pickedUp(syncSkipped);
        }
        Command replyRule = null;
        boolean changesReplies = false;
        long handle;
        if (cut) {
            handle = out.cut();
        } else if (tooBig) {
            handle = out.skip(TOO_BIG);
        } else {
            int verb = ctx.verbs.id(entry.args, 0, entry.argLength(0));
            RedisVerbs.Verb v = verbs.verb(verb);
            replyRule = v.replyRule;
            changesReplies = v.mayChangeReplies && changesReplies(v.name, entry);
            if (v.skip != null) {
                handle = out.skip(v.skip);
            } else {
                entry.verb = verb;
                entry.command(v.command);
                if (prefixer != null) {
                    prefixer.apply(v.keys, entry);
                }
                for (int i = 1; i < entry.argCount; i++) {
                    if (RedisKeys.isKey(v.keys, i, entry)) {
                        entry.addKey(null, entry.args, entry.argStart(i), entry.argLength(i));
                    }
                }
                entry.valueArg = v.valueWord < entry.argCount ? v.valueWord : -1;
                handle = out.complete();
            }
        }
        waitFor(handle, replyRule);
        if (changesReplies) {
            out.repliesLost();
        }
    }

    /** Whether after this command the server's messages are no longer one reply per command. */
    private static boolean changesReplies(String verb, LogEntry e) {
        return switch (verb) {
            case "subscribe", "psubscribe", "ssubscribe", "monitor" -> true;
            case "client" -> e.argCount > 1 && e.argLength(1) == 5 && (e.args[e.argStart(1)] | 0x20) == 'r'; // CLIENT REPLY
            default -> false;
        };
    }

    private void waitFor(long handle, Command rule) {
        if (waitingCount == waitingHandle.length) {
            int n = waitingHandle.length * 2;
            long[] h = new long[n];
            Command[] c = new Command[n];
            for (int i = 0; i < waitingCount; i++) {
                int slot = (waitingHead + i) & (waitingHandle.length - 1);
                h[i] = waitingHandle[slot];
                c[i] = waitingCommand[slot];
            }
            waitingHandle = h;
            waitingCommand = c;
            waitingHead = 0;
        }
        int slot = (waitingHead + waitingCount) & (waitingHandle.length - 1);
        waitingHandle[slot] = handle;
        waitingCommand[slot] = rule;
        waitingCount++;
    }

    /**
     * Splits an inline command {@code line[0, end)} into the entry's arguments as redis'
     * {@code sdssplitargs} does: words apart by blanks, "double quotes" with C escapes and \xHH,
     * 'single quotes' with \' only. False for unbalanced quotes (redis refuses the command).
     */
    private boolean splitInline(int end) {
        int p = 0;
        byte[] l = line;
        while (true) {
            while (p < end && (l[p] == ' ' || l[p] == '\t' || l[p] == '\r' || l[p] == '\n')) {
                p++;
            }
            if (p >= end) {
                return true;
            }
            int out = e.beginArg(end - p);
            byte[] a = e.args;
            boolean dq = false;
            boolean sq = false;
            while (true) {
                if (dq) {
                    if (p >= end) {
                        return false;
                    }
                    byte c = l[p];
                    if (c == '\\' && p + 3 < end && l[p + 1] == 'x' && hex(l[p + 2]) >= 0 && hex(l[p + 3]) >= 0) {
                        a[out++] = (byte) (hex(l[p + 2]) << 4 | hex(l[p + 3]));
                        p += 4;
                    } else if (c == '\\' && p + 1 < end) {
                        byte x = l[p + 1];
                        a[out++] = switch (x) {
                            case 'n' -> '\n';
                            case 'r' -> '\r';
                            case 't' -> '\t';
                            case 'b' -> '\b';
                            case 'a' -> 7;
                            default -> x;
                        };
                        p += 2;
                    } else if (c == '"') {
                        p++;
                        if (p < end && l[p] != ' ' && l[p] != '\t') {
                            return false;
                        }
                        break;
                    } else {
                        a[out++] = c;
                        p++;
                    }
                } else if (sq) {
                    if (p >= end) {
                        return false;
                    }
                    byte c = l[p];
                    if (c == '\\' && p + 1 < end && l[p + 1] == '\'') {
                        a[out++] = '\'';
                        p += 2;
                    } else if (c == '\'') {
                        p++;
                        if (p < end && l[p] != ' ' && l[p] != '\t') {
                            return false;
                        }
                        break;
                    } else {
                        a[out++] = c;
                        p++;
                    }
                } else {
                    if (p >= end) {
                        break;
                    }
                    byte c = l[p];
                    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
                        break;
                    } else if (c == '"') {
                        dq = true;
                        p++;
                    } else if (c == '\'') {
                        sq = true;
                        p++;
                    } else {
                        a[out++] = c;
                        p++;
                    }
                }
            }
            e.endArg(out);
        }
    }

    private static int hex(byte c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    // ================= replies =================

    @Override
    public void reply(byte[] b, int from, int to, CommandSink out) {
        int p = from;
        while (p < to && tState != T_DEAD) {
            switch (tState) {
                case T_TYPE -> {
                    valueType = b[p++];
                    switch (valueType) {
                        case '+', '-', ':', ',', '(', '#', '_' -> {
                            lineBytes = 0;
                            lineZero = false;
                            lineCr = false;
                            tState = T_LINE;
                        }
                        case '$', '=', '!', '*', '~', '%', '|', '>' -> {
                            replyNumber.clear();
                            tState = T_LENGTH;
                        }
                        default -> {
                            tState = T_DEAD;
                            out.repliesLost();
                            return;
                        }
                    }
                }
                case T_LINE -> {
                    while (p < to) {
                        byte c = b[p++];
                        if (c == '\n' && lineCr) {
                            tState = T_TYPE;
                            scalar(valueType, lineBytes == 1 && lineZero);
                            valueDone(false, out);
                            break;
                        }
                        if (lineCr) {
                            lineBytes++; // a CR inside the line
                        }
                        lineCr = c == '\r';
                        if (!lineCr) {
                            if (lineBytes == 0) {
                                lineZero = c == '0';
                            }
                            lineBytes++;
                        }
                    }
                }
                case T_LENGTH -> {
                    p = replyNumber.feed(b, p, to);
                    if (!replyNumber.done) {
                        break;
                    }
                    if (replyNumber.bad || replyNumber.negative && replyNumber.value != 1) {
                        tState = T_DEAD;
                        out.repliesLost();
                        return;
                    }
                    tState = T_TYPE;
                    byte t = valueType;
                    if (replyNumber.negative) { // -1: RESP2's nil
                        nil(t);
                        valueDone(false, out);
                    } else if (t == '$' || t == '=' || t == '!') {
                        replyLeft = replyNumber.value;
                        replyCrlfLeft = 2;
                        tState = T_BULK;
                    } else {
                        long count = replyNumber.value * (t == '%' || t == '|' ? 2 : 1);
                        aggregateStart(t);
                        if (count == 0) {
                            aggregateEnd();
                            valueDone(t == '|', out);
                        } else {
                            if (depth == left.length) {
                                left = Arrays.copyOf(left, depth * 2);
                                types = Arrays.copyOf(types, depth * 2);
                            }
                            left[depth] = count;
                            types[depth] = t;
                            depth++;
                        }
                    }
                }
                case T_BULK -> {
                    if (replyLeft > 0) {
                        int n = (int) Math.min(replyLeft, to - p);
                        replyLeft -= n;
                        p += n;
                    } else {
                        if (b[p] != (replyCrlfLeft == 2 ? '\r' : '\n')) {
                            tState = T_DEAD;
                            out.repliesLost();
                            return;
                        }
                        p++;
                        replyCrlfLeft--;
                    }
                    if (replyLeft == 0 && replyCrlfLeft == 0) {
                        tState = T_TYPE;
                        scalar(valueType, false);
                        valueDone(false, out);
                    }
                }
                default -> throw new IllegalStateException("reply state " + tState);
            }
        }
    }

    @Override
    public void replyGap(long n, CommandSink out) {
        if (tState == T_BULK && n <= replyLeft + replyCrlfLeft) {
            long fromData = Math.min(n, replyLeft);
            replyLeft -= fromData;
            replyCrlfLeft -= (int) (n - fromData);
            if (replyLeft == 0 && replyCrlfLeft == 0) {
                tState = T_TYPE;
                scalar(valueType, false);
                valueDone(false, out);
            }
            return;
        }
        if (tState != T_DEAD) {
            tState = T_DEAD;
            out.repliesLost();
        }
    }

    /** A value is complete: counts it in its aggregate; closes aggregates that are full; ends the frame at the top. */
    private void valueDone(boolean attribute, CommandSink out) {
        while (true) {
            if (attribute) {
                return; // an attribute annotates the value that follows it and is not one itself
            }
            if (depth == 0) {
                frameDone(out);
                return;
            }
            if (--left[depth - 1] > 0) {
                return;
            }
            byte t = types[--depth];
            aggregateEnd();
            attribute = t == '|';
        }
    }

    private void frameDone(CommandSink out) {
        byte type = topType;
        boolean push = type == '>';
        if (!push) {
            if (waitingCount > 0) {
                int slot = waitingHead;
                long handle = waitingHandle[slot];
                Command rule = waitingCommand[slot];
                waitingCommand[slot] = null;
                waitingHead = (waitingHead + 1) & (waitingHandle.length - 1);
                waitingCount--;
                Outcome o = RespOutcome.of(rule, type, topNil, topZero, elements, nilElements, zeroElements);
                out.settle(handle, o == Outcome.OK ? LogEntry.REPLY_OK : o == Outcome.MISS ? LogEntry.REPLY_MISS
                        : LogEntry.REPLY_ERROR);
            } else if (rState == R_DEAD) {
                out.unreadCommandAnswered();
            }
        }
        clearShape();
    }

    private void clearShape() {
        shapeDepth = 0;
        skipFrom = -1;
        topType = 0;
        topNil = false;
        topZero = false;
        elements = 0;
        nilElements = 0;
        zeroElements = 0;
    }

    // the shape of the top-level reply, as the client codec's ReplyShape sees it

    private void scalar(byte t, boolean zero) {
        if (skipFrom >= 0) {
            return;
        }
        if (shapeDepth == 0) {
            topType = t;
            topNil = t == '_';
            topZero = t == ':' && zero;
        } else if (shapeDepth == 1) {
            elements++;
            if (t == '_') {
                nilElements++;
            } else if (t == ':' && zero) {
                zeroElements++;
            }
        }
    }

    private void nil(byte t) {
        if (skipFrom >= 0) {
            return;
        }
        if (shapeDepth == 0) {
            topType = t;
            topNil = true;
        } else if (shapeDepth == 1) {
            elements++;
            nilElements++;
        }
    }

    private void aggregateStart(byte t) {
        if (skipFrom < 0) {
            if (t == '|') {
                skipFrom = shapeDepth;
            } else if (t == '>' && shapeDepth == 0) {
                skipFrom = 0;
                topType = '>';
            } else if (shapeDepth == 0) {
                topType = t;
            } else if (shapeDepth == 1) {
                elements++;
            }
        }
        shapeDepth++;
    }

    private void aggregateEnd() {
        shapeDepth--;
        if (skipFrom == shapeDepth) {
            skipFrom = -1;
        }
    }

    static String printable(byte[] b, int from, int to) {
        StringBuilder s = new StringBuilder();
        for (int i = from; i < to && i < from + 16; i++) {
            int c = b[i] & 0xff;
            s.append(c >= 0x20 && c < 0x7f && c != '\'' ? String.valueOf((char) c) : String.format("\\x%02x", c));
        }
        return s.toString();
    }

    /** A decimal number ended by CRLF, read a byte at a time across segments. */
    static final class NumberLine {
        long value;
        boolean negative;
        boolean bad;
        boolean done;
        private int digits;
        private boolean cr;

        void clear() {
            value = 0;
            negative = false;
            bad = false;
            done = false;
            digits = 0;
            cr = false;
        }

        /** Feeds bytes from {@code p}; returns where it stopped ({@link #done} once the line ended). */
        int feed(byte[] b, int p, int to) {
            while (p < to) {
                byte c = b[p++];
                if (cr) {
                    bad |= c != '\n' || digits == 0;
                    done = true;
                    return p;
                }
                if (c == '\r') {
                    cr = true;
                } else if (c >= '0' && c <= '9' && digits < 18) {
                    value = value * 10 + (c - '0');
                    digits++;
                } else if (c == '-' && digits == 0 && !negative) {
                    negative = true;
                } else {
                    bad = true;
                    done = true;
                    return p;
                }
            }
            return p;
        }
    }
}
