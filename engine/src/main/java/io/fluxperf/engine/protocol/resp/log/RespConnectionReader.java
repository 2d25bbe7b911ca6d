package io.fluxperf.engine.protocol.resp.log;

import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.log.ReaderContext;
import io.fluxperf.engine.log.capture.CommandSink;
import io.fluxperf.engine.log.capture.AbstractConnectionReader;
import io.fluxperf.engine.log.capture.LineBuffer;
import io.fluxperf.engine.log.capture.StatedLength;
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
final class RespConnectionReader extends AbstractConnectionReader {
    /** redis' own limit for an inline command (PROTO_INLINE_MAX_SIZE). */
    static final int MAX_INLINE = 64 << 10;
    /** redis' proto-max-bulk-len default. */
    static final long MAX_BULK = 512L << 20;
    static final String TOO_BIG = "commands larger than 64 MiB (read past, not held)";
    private static final int MAX_ARGS = 1 << 20;
    private static final Command[] COMMANDS = Command.values();

    private static final int R_START = 1;
    private static final int R_COUNT = 2;
    private static final int R_BULK_HEAD = 3;
    private static final int R_BULK_LENGTH = 4;
    private static final int R_BULK_DATA = 5;
    private static final int R_INLINE = 6;

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
    private final NumberLine requestNumber = new NumberLine();
    private long argsLeft;
    private final StatedLength bulk = new StatedLength();
    private int argEnd;
    private long held;
    private final LineBuffer line = new LineBuffer();

    // ---- the server's side ----
    private int tState;
    private final NumberLine replyNumber = new NumberLine();
    private byte valueType;
    private int lineBytes;
    private boolean lineZero;
    private boolean lineCr;
    private final StatedLength replyBulk = new StatedLength();
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
        super(TOO_BIG);
        this.ctx = ctx;
        this.verbs = new RedisVerbs(ctx, "AUTH/HELLO (a connection's setup: give --password, --user or --resp)");
        this.prefixer = ctx.keyPrefix == null ? null : new RedisMonitorReader.Prefixer(ctx.keyPrefix);
    }

    @Override
    public void reset(boolean fromStart) {
        super.reset(fromStart);
        rState = R_START;
        held = 0;
        tState = T_TYPE;
        depth = 0;
        clearShape();
    }

    // ================= requests =================

    @Override
    protected boolean mayStartCommand(byte[] b, int from, int to) {
        return b[from] == '*';
    }

    @Override
    protected void atCommandStart() {
        rState = R_START;
    }

    @Override
    protected int step(byte[] b, int p, int to, CommandSink out) {
        switch (rState) {
            case R_START -> {
                byte c = b[p];
                if (c == '*') {
                    startCommand(out);
                    requestNumber.clear();
                    rState = R_COUNT;
                    return p + 1;
                }
                if (c == '\r' || c == '\n') {
                    return p + 1; // an empty inline command: redis ignores it
                }
                if (tentative()) {
                    return fail(out, b, p, to, null);
                }
                startCommand(out);
                line.clear();
                rState = R_INLINE;
                return p;
            }
            case R_COUNT -> {
                p = requestNumber.feed(b, p, to);
                if (!requestNumber.done) {
                    return p;
                }
                if (requestNumber.bad || requestNumber.value > MAX_ARGS) {
                    return fail(out, b, p, to, null);
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
                    return fail(out, b, p, to, null);
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
                    return fail(out, b, p, to, null);
                }
                bulk.start(n, 2);
                held += n;
                if (!tooBig && held > HOLD_LIMIT) {
                    tooBig = true;
                }
                if (!dropped()) {
                    argEnd = e.beginArg((int) n);
                }
                rState = R_BULK_DATA;
                return p;
            }
            case R_BULK_DATA -> {
                if (bulk.inData()) {
                    int n = bulk.take(to - p);
                    if (!dropped()) {
                        System.arraycopy(b, p, e.args, argEnd, n);
                        argEnd += n;
                    }
                    return p + n;
                }
                if (!bulk.takeLineEnd(b[p])) {
                    return fail(out, b, p, to, null);
                }
                bulkDone(out);
                return p + 1;
            }
            case R_INLINE -> {
                int q = line.feed(b, p, to, MAX_INLINE);
                if (line.tooLong()) {
                    return fail(out, b, p, to, null);
                }
                if (!line.done()) {
                    return q;
                }
                if (!RedisInline.split(line.bytes(), line.length(), e)) {
                    return fail(out, b, p, to, null);
                }
                if (e.argCount == 0) {
                    rState = R_START; // blank: nothing to run
                    e = null;
                    out.abandon();
                } else {
                    finish(out);
                }
                return q;
            }
            default -> throw new IllegalStateException("request state " + rState);
        }
    }

    private void startCommand(CommandSink out) {
        begin(out);
        held = 0;
    }

    /** The bulk string being read has all its bytes and its CRLF: one argument more, maybe the last. */
    private void bulkDone(CommandSink out) {
        if (!bulk.done()) {
            return;
        }
        if (!dropped()) {
            e.endArg(argEnd);
        }
        if (--argsLeft > 0) {
            rState = R_BULK_HEAD;
        } else {
            finish(out);
        }
    }

    @Override
    protected String notACommand(byte[] b, int p, int to, String what) {
        return "bytes that are no redis command ('" + printable(b, p, to, 16) + "')";
    }

    @Override
    protected boolean skipInCommand(long n, CommandSink out) {
        if (rState != R_BULK_DATA || !bulk.skip(n)) {
            return false;
        }
        cut = true;
        bulkDone(out);
        return true;
    }

    /** A whole command: replayed, skipped or counted as cut; its reply is waited for. */
    private void finish(CommandSink out) {
        LogEntry entry = e;
        e = null;
        rState = R_START;
        pickedUp(out);
        Command replyRule = null;
        boolean changesReplies = false;
        long handle;
        if (dropped()) {
            handle = drop(out);
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
        waiting.add(handle, replyRule == null ? 0 : replyRule.ordinal() + 1, 0);
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
                        replyBulk.start(replyNumber.value, 2);
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
                    if (replyBulk.inData()) {
                        p += replyBulk.take(to - p);
                    } else if (replyBulk.takeLineEnd(b[p])) {
                        p++;
                    } else {
                        tState = T_DEAD;
                        out.repliesLost();
                        return;
                    }
                    if (replyBulk.done()) {
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
        if (tState == T_BULK && replyBulk.skip(n)) {
            if (replyBulk.done()) {
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
            if (!waiting.noneFor(out)) {
                int rule = waiting.kind();
                Outcome o = RespOutcome.of(rule == 0 ? null : COMMANDS[rule - 1], type, topNil, topZero, elements, nilElements,
                        zeroElements);
                out.settle(waiting.take(), o == Outcome.OK ? LogEntry.REPLY_OK : o == Outcome.MISS ? LogEntry.REPLY_MISS
                        : LogEntry.REPLY_ERROR);
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
}
