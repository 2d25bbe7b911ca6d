package io.fluxperf.engine.protocol.memcache.log;

import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.log.ReaderContext;
import io.fluxperf.engine.log.SpaceTokens;
import io.fluxperf.engine.log.capture.CommandSink;
import io.fluxperf.engine.log.capture.AbstractConnectionReader;
import io.fluxperf.engine.log.capture.LineBuffer;
import io.fluxperf.engine.log.capture.StatedLength;
import io.fluxperf.engine.request.Command;
import java.util.Set;

/**
 * Reads one captured memcached connection, text and binary protocol alike (each command is told by
 * its first byte, 0x80 for binary, as real clients mix them on one port): the client's commands
 * into log entries as the raw-stream reader makes them (values are the logged bytes, {@code noreply}
 * is dropped, meta commands become the text commands whose work they do, admin commands are
 * skipped), and the server's replies into each command's
 * original outcome by the rules of fluxperf's own codecs (a get is a hit when every key was found;
 * NOT_STORED, EXISTS and NOT_FOUND and binary statuses 1, 2 and 5 are misses; error replies are
 * errors). Binary replies are matched by opaque and opcode: a quiet command (GetQ, SetQ, …) that a
 * later reply passes over was answered by silence (a get's miss, a write's success).
 *
 * <p>Resumable state machines over the bytes: a command line or binary header is gathered across
 * segments, a data block is copied into the entry as it comes, a reply's value is only counted.
 * Gaps: inside a data block (text) or a binary body, whose lengths the protocol states, the
 * command is cut and the stream goes on; anywhere else it cannot be read on. A connection picked up
 * mid-stream starts at the first segment that begins with a whole command.
 */
final class MemcacheConnectionReader extends AbstractConnectionReader {
    /** The longest command line read (a get of many keys is long). */
    static final int MAX_LINE = 1 << 20;
    /** The longest reply line. */
    static final int MAX_REPLY_LINE = 64 << 10;
    static final String TOO_BIG = "commands larger than 64 MiB (read past, not held)";
    private static final int MAX_TOKENS = 256;
    private static final int BINARY_HEADER = 24;

    static final Set<String> ADMIN = Set.of("version", "stats", "verbosity", "quit", "watch", "lru_crawler",
            "slabs", "lru", "shutdown", "cache_memlimit", "misbehave", "debugtime", "extstore");
    static final Set<String> META = Set.of("mg", "ms", "md", "ma", "mn", "me");

    // request states
    private static final int R_START = 1;
    private static final int R_LINE = 2;
    private static final int R_DATA = 3;
    private static final int R_BIN_HEADER = 4;
    private static final int R_BIN_HEAD = 5;
    private static final int R_BIN_VALUE = 6;

    // reply kinds the FIFO remembers
    private static final byte K_GET = 0;
    private static final byte K_LINE = 1;
    private static final byte K_LIST = 2; // stats, lru_crawler metadump: lines until END
    private static final byte K_BINARY = 3;
    /**
     * A quiet meta command: answered only for some outcomes. An {@code MN} (the reply to the
     * {@code mn} a client ends a quiet batch with) reaching it means silence: a get's miss, a
     * write's success. Any other reply reaching it no longer pairs with the commands, and the
     * connection's outcomes from there on are unknown.
     */
    private static final byte K_QUIET = 4;

    // reply states
    private static final int T_LINE = 0;
    private static final int T_DATA = 1;
    private static final int T_BIN_HEADER = 2;
    private static final int T_BIN_BODY = 3;
    private static final int T_DEAD = 4;

    private final ReaderContext ctx;
    private final SpaceTokens words = new SpaceTokens(MAX_TOKENS);
    private final MetaRequests meta;

    // ---- the client's side ----
    private int rState;
    private final LineBuffer line = new LineBuffer();
    // a text data block
    private final StatedLength data = new StatedLength();
    private int dataAt;
    private boolean dataKept;
    /** What the command whose data block is being read becomes: null to replay it, else why it is skipped. */
    private String dataSkip;
    private boolean dataNoreply;
    /** The command being read is a meta command with the {@code q} flag (its noreply). */
    private boolean quietMeta;
    /** What a quiet meta command's silence means: a get's miss, a write's success. */
    private byte quietSilence;
    // a binary command
    private final byte[] header = new byte[BINARY_HEADER];
    private int headerLength;
    private byte[] binHead = new byte[256];
    private int binHeadLength;
    private int binHeadNeeded;
    private long binValueLeft;
    private int binValueAt;

    // a command waits with its kind (K_*, and a binary one's opcode << 8) and its key count, a quiet
    // one's silence, or a binary one's opaque

    // ---- the server's side ----
    private int tState;
    private final LineBuffer reply = new LineBuffer();
    private int hits;
    private boolean inList;
    private final StatedLength replyData = new StatedLength();
    private boolean replyValueEnds;
    private final byte[] replyHeader = new byte[BINARY_HEADER];
    private int replyHeaderLength;
    private long replyBodyLeft;

    MemcacheConnectionReader(ReaderContext ctx) {
        super(TOO_BIG);
        this.ctx = ctx;
        this.meta = new MetaRequests(ctx, null);
    }

    @Override
    public void reset(boolean fromStart) {
        super.reset(fromStart);
        rState = R_START;
        line.clear();
        quietMeta = false;
        tState = T_LINE;
        reply.clear();
        hits = 0;
        inList = false;
        replyHeaderLength = 0;
    }

    // ================= requests =================

    @Override
    protected void atCommandStart() {
        rState = R_START;
    }

    /** A segment of a connection picked up mid-stream that may begin a command: a binary request header or a verb. */
    @Override
    protected boolean mayStartCommand(byte[] b, int from, int to) {
        if (b[from] == (byte) 0x80) {
            return to - from >= 2 && MemcacheBinaryOps.known(b[from + 1]);
        }
        int p = from;
        while (p < to && b[p] >= 'a' && b[p] <= 'z' || p < to && b[p] == '_') {
            p++;
        }
        return p > from && p < to && (b[p] == ' ' || b[p] == '\r' || b[p] == '\n')
                && isCommand(new String(b, from, p - from, java.nio.charset.StandardCharsets.ISO_8859_1));
    }

    /** A verb this reader replays: a text command's or a meta command's. */
    private static boolean isCommand(String verb) {
        return MemcacheVerbs.command(verb) != null || META.contains(verb);
    }

    @Override
    protected int step(byte[] b, int p, int to, CommandSink out) {
        switch (rState) {
            case R_START -> {
                byte c = b[p];
                if (c == '\r' || c == '\n') {
                    return p + 1; // memcached skips empty lines
                }
                begin(out);
                quietMeta = false;
                if (c == (byte) 0x80) {
                    headerLength = 0;
                    rState = R_BIN_HEADER;
                } else {
                    line.clear();
                    rState = R_LINE;
                }
                return p;
            }
            case R_LINE -> {
                int q = line.feed(b, p, to, MAX_LINE);
                if (line.tooLong()) {
                    return fail(out, b, p, to, "a line longer than 1 MiB");
                }
                if (!line.done()) {
                    return q;
                }
                String bad = textCommand(line.bytes(), line.length(), out);
                if (bad != null) {
                    return fail(out, b, q - 1, to, bad);
                }
                return q;
            }
            case R_DATA -> {
                if (data.inData()) {
                    int n = data.take(to - p);
                    if (dataKept && !cut) {
                        System.arraycopy(b, p, e.value, dataAt, n);
                        dataAt += n;
                    }
                    return p + n;
                }
                if (!data.takeLineEnd(b[p])) {
                    return fail(out, b, p, to, "a data block that does not end where its length says");
                }
                if (data.done()) {
                    dataDone(out);
                }
                return p + 1;
            }
            case R_BIN_HEADER -> {
                int n = Math.min(BINARY_HEADER - headerLength, to - p);
                System.arraycopy(b, p, header, headerLength, n);
                headerLength += n;
                p += n;
                if (headerLength == BINARY_HEADER) {
                    String bad = binaryHeader();
                    if (bad != null) {
                        return fail(out, b, p, to, bad);
                    }
                    if (binHeadNeeded == 0 && binValueLeft == 0) {
                        binaryDone(out);
                    }
                }
                return p;
            }
            case R_BIN_HEAD -> {
                int n = Math.min(binHeadNeeded - binHeadLength, to - p);
                System.arraycopy(b, p, binHead, binHeadLength, n);
                binHeadLength += n;
                p += n;
                if (binHeadLength == binHeadNeeded) {
                    startBinaryValue();
                    if (binValueLeft == 0) {
                        binaryDone(out);
                    }
                }
                return p;
            }
            case R_BIN_VALUE -> {
                int n = (int) Math.min(binValueLeft, to - p);
                if (dataKept && !cut) {
                    System.arraycopy(b, p, e.value, binValueAt, n);
                    binValueAt += n;
                }
                binValueLeft -= n;
                p += n;
                if (binValueLeft == 0) {
                    binaryDone(out);
                }
                return p;
            }
            default -> throw new IllegalStateException("request state " + rState);
        }
    }

    @Override
    protected String notACommand(byte[] b, int p, int to, String what) {
        return "bytes that are no memcache command: " + what + " ('"
                + printable(line.bytes(), 0, Math.min(line.length(), 24), 24) + "')";
    }

    @Override
    protected boolean skipInCommand(long n, CommandSink out) {
        if (rState == R_DATA && data.skip(n)) {
            cut = true;
            if (data.done()) {
                dataDone(out);
            }
            return true;
        }
        if ((rState == R_BIN_HEAD || rState == R_BIN_VALUE) && n <= binHeadNeeded - binHeadLength + binValueLeft) {
            cut = true;
            long fromHead = Math.min(n, binHeadNeeded - binHeadLength);
            binHeadLength += (int) fromHead;
            long rest = n - fromHead;
            if (rState == R_BIN_HEAD && binHeadLength == binHeadNeeded) {
                startBinaryValue();
            }
            binValueLeft -= rest;
            if (binHeadLength == binHeadNeeded && binValueLeft == 0) {
                binaryDone(out);
            }
            return true;
        }
        return false;
    }

    // ---- text commands ----

    /**
     * A whole command line {@code b[0, end)}: fills the entry, or starts reading its data block.
     * Returns null, or what makes the bytes no memcache command.
     */
    private String textCommand(byte[] b, int end, CommandSink out) {
        int tokens = words.split(b, 0, end);
        if (tokens == 0) {
            rState = R_START;
            out.abandon();
            e = null;
            return null;
        }
        int[] from = words.from;
        int[] to = words.to;
        for (int i = from[0]; i < to[0]; i++) {
            if ((b[i] < 'a' || b[i] > 'z') && b[i] != '_') {
                return "no verb";
            }
        }
        if (tentative()) {
            // proving a boundary: a command line a client writes holds no control bytes
            for (int i = 0; i < end; i++) {
                if ((b[i] & 0xff) < 0x20 || b[i] == 0x7f) {
                    return "a control byte in a command line";
                }
            }
        }
        int verbId = ctx.verbs.id(b, from[0], to[0]);
        String verb = ctx.verbs.name(verbId);
        int last = tokens;
        boolean noreply = last > 1 && is(b, from[last - 1], to[last - 1], "noreply");
        if (noreply) {
            last--;
        }
        Command c = MemcacheVerbs.command(verb);
        if (c == null) {
            return otherTextCommand(verb, b, tokens, noreply, out);
        }
        e.command(c);
        e.verb = verbId;
        switch (c) {
            case GET, GETS -> {
                if (last < 2) {
                    return skipLine("truncated commands (" + verb + " without a key)", K_LINE, 0, false, out);
                }
                for (int i = 1; i < last; i++) {
                    e.addKey(ctx.keyPrefix, b, from[i], to[i] - from[i]);
                }
                return completeLine(K_GET, last - 1, false, out);
            }
            case SET, ADD, REPLACE, APPEND, PREPEND, CAS -> {
                int needed = c == Command.CAS ? 6 : 5;
                long bytes = last >= 5 ? MemcacheWatchReader.number(b, from[4], to[4]) : -1;
                if (last != needed || bytes < 0) {
                    // memcached answers CLIENT_ERROR and, with a length it can read, swallows the block
                    return bytes >= 0 ? startData(bytes, "malformed storage commands", noreply, out)
                            : skipLine("malformed storage commands", K_LINE, 0, noreply, out);
                }
                long exptime = MemcacheWatchReader.number(b, from[3], to[3]);
                if (c == Command.CAS) {
                    e.numeric = MemcacheWatchReader.number(b, from[5], to[5]);
                }
                e.addKey(ctx.keyPrefix, b, from[1], to[1] - from[1]);
                e.ttlSeconds = (int) Math.max(0, Math.min(Integer.MAX_VALUE, exptime));
                return startData(bytes, null, noreply, out);
            }
            case DELETE -> {
                if (last < 2) {
                    return skipLine("truncated commands (delete without a key)", K_LINE, 0, noreply, out);
                }
                e.addKey(ctx.keyPrefix, b, from[1], to[1] - from[1]);
                return completeLine(K_LINE, 0, noreply, out);
            }
            case INCR, DECR -> {
                long delta = last == 3 ? MemcacheWatchReader.number(b, from[2], to[2]) : -1;
                if (delta < 0) {
                    return skipLine("malformed " + verb + " commands", K_LINE, 0, noreply, out);
                }
                e.addKey(ctx.keyPrefix, b, from[1], to[1] - from[1]);
                e.numeric = delta;
                return completeLine(K_LINE, 0, noreply, out);
            }
            case TOUCH -> {
                long exptime = last == 3 ? MemcacheWatchReader.number(b, from[2], to[2]) : Long.MIN_VALUE;
                if (exptime == Long.MIN_VALUE) {
                    return skipLine("malformed touch commands", K_LINE, 0, noreply, out);
                }
                e.addKey(ctx.keyPrefix, b, from[1], to[1] - from[1]);
                e.ttlSeconds = (int) Math.max(0, Math.min(Integer.MAX_VALUE, exptime));
                return completeLine(K_LINE, 0, noreply, out);
            }
            case FLUSH -> {
                if (!ctx.allowFlush) {
                    return skipLine("flush (replayed only with --allow-flush)", K_LINE, 0, noreply, out);
                }
                return completeLine(K_LINE, 0, noreply, out);
            }
            default -> throw new IllegalStateException(c.toString());
        }
    }

    /** A text command fluxperf does not replay: admin, meta, gat, or a word memcached answers ERROR to. */
    private String otherTextCommand(String verb, byte[] b, int tokens, boolean noreply, CommandSink out) {
        int[] from = words.from;
        int[] to = words.to;
        if (META.contains(verb)) {
            return metaCommand(verb, b, tokens, out);
        }
        if (verb.equals("gat") || verb.equals("gats")) {
            return skipLine("get-and-touch commands (" + verb + ")", K_GET, Math.max(0, tokens - 2), false, out);
        }
        if (ADMIN.contains(verb) || verb.equals("flush_all")) {
            byte kind = verb.equals("stats") || verb.equals("lru_crawler") && tokens > 1 && is(b, from[1], to[1], "metadump")
                    ? K_LIST : K_LINE;
            String r = skipLine("admin commands (" + verb + ")", kind, 0, noreply || verb.equals("quit"), out);
            if (verb.equals("watch")) {
                out.repliesLost(); // watch turns the connection into a stream of log lines
            }
            return r;
        }
        return skipLine("unknown commands ('" + printable(b, from[0], to[0], 24) + "', answered ERROR)", K_LINE, 0, false, out);
    }

    /**
     * A meta command ({@link MetaRequests}): sent as the text command whose work it does, its data
     * block read as a set's. A quiet one ({@code q}) is answered only when it fails (a get only when
     * it hits): when the server's replies reach it they no longer pair with the commands, and the
     * connection's original outcomes from there on are unknown ({@link #K_QUIET}).
     */
    private String metaCommand(String verb, byte[] b, int tokens, CommandSink out) {
        String error = meta.line(b, words.from, words.to, tokens, e);
        boolean quiet = meta.quiet();
        long length = meta.dataLength();
        if (verb.equals("ms") && length < 0) {
            return error; // no data length: what follows the line cannot be told from the next command
        }
        String skip = error == null ? null : error.isEmpty() ? meta.skipped() : "malformed meta commands (" + verb + ")";
        quietMeta = quiet;
        quietSilence = verb.equals("mg") ? LogEntry.REPLY_MISS : LogEntry.REPLY_OK;
        if (length >= 0) {
            startData(length, skip, quiet, out);
        } else if (skip != null) {
            skipLine(skip, K_LINE, 0, quiet, out);
        } else {
            completeLine(K_LINE, 0, quiet, out);
        }
        return null;
    }

    private String completeLine(byte kind, int keys, boolean noreply, CommandSink out) {
        if (noreply) {
            ctx.stats.adjust(quietMeta ? "quiet flag dropped (every reply is timed)" : "noreply dropped (every reply is timed)");
        }
        pickedUp(out);
        long handle = out.complete();
        e = null;
        rState = R_START;
        if (quietMeta) {
            quietWait(handle);
        } else if (noreply) {
            out.settle(handle, LogEntry.REPLY_UNKNOWN);
        } else {
            waiting.add(handle, kind, keys);
        }
        return null;
    }

    private String skipLine(String why, byte kind, int keys, boolean noreply, CommandSink out) {
        pickedUp(out);
        long handle = out.skip(why);
        e = null;
        rState = R_START;
        if (!noreply) {
            waiting.add(handle, kind, keys);
        } else {
            quietWait(handle);
        }
        return null;
    }

    /** A quiet meta command waits in the FIFO as such, with what its silence means ({@link #K_QUIET}). */
    private void quietWait(long handle) {
        if (quietMeta) {
            waiting.add(handle, K_QUIET, quietSilence);
        }
    }

    /** Reads the data block of {@code bytes} next; the command is skipped for {@code skip} unless null. */
    private String startData(long bytes, String skip, boolean noreply, CommandSink out) {
        data.start(bytes, 2);
        dataSkip = skip;
        dataNoreply = noreply;
        dataKept = skip == null && bytes <= HOLD_LIMIT;
        tooBig = skip == null && !dataKept;
        if (dataKept) {
            e.valueBuffer((int) bytes);
        }
        dataAt = 0;
        rState = R_DATA;
        return null;
    }

    private void dataDone(CommandSink out) {
        rState = R_START;
        if (cut) {
            long handle = out.cut();
            e = null;
            if (!dataNoreply) {
                waiting.add(handle, K_LINE, 0);
            } else {
                quietWait(handle);
            }
            return;
        }
        if (tooBig) {
            skipLine(TOO_BIG, K_LINE, 0, dataNoreply, out);
            return;
        }
        if (dataSkip != null) {
            skipLine(dataSkip, K_LINE, 0, dataNoreply, out);
            return;
        }
        completeLine(K_LINE, 0, dataNoreply, out);
    }

    // ---- binary commands ----

    private int binOpcode;
    private int binKeyLength;
    private int binExtrasLength;
    private long binBody;
    private int binOpaque;
    private long binCas;

    /** The 24-byte request header is whole: checks it and sets up reading the body. */
    private String binaryHeader() {
        if (header[0] != (byte) 0x80) {
            return "a binary header without the request magic 0x80";
        }
        binOpcode = header[1] & 0xff;
        binKeyLength = (header[2] & 0xff) << 8 | header[3] & 0xff;
        binExtrasLength = header[4] & 0xff;
        binBody = int32(header, 8) & 0xffffffffL;
        binOpaque = int32(header, 12);
        binCas = (int32(header, 16) & 0xffffffffL) << 32 | int32(header, 20) & 0xffffffffL;
        if (binKeyLength + binExtrasLength > binBody) {
            return "a binary header whose key and extras are longer than its body";
        }
        binHeadNeeded = binKeyLength + binExtrasLength;
        binHeadLength = 0;
        if (binHead.length < binHeadNeeded) {
            binHead = new byte[Math.max(binHeadNeeded, binHead.length * 2)];
        }
        binValueLeft = binBody - binHeadNeeded;
        rState = binHeadNeeded > 0 ? R_BIN_HEAD : R_BIN_VALUE;
        if (binHeadNeeded == 0) {
            startBinaryValue();
        }
        return null;
    }

    private void startBinaryValue() {
        rState = R_BIN_VALUE;
        dataKept = binValueLeft <= HOLD_LIMIT && MemcacheBinaryOps.carriesValue(binOpcode);
        tooBig = binValueLeft > HOLD_LIMIT;
        if (dataKept && !cut) {
            e.valueBuffer((int) binValueLeft);
        }
        binValueAt = 0;
    }

    /** A whole binary command. */
    private void binaryDone(CommandSink out) {
        rState = R_START;
        pickedUp(out);
        int op = binOpcode;
        long handle;
        if (dropped()) {
            handle = drop(out);
        } else {
            String skip = MemcacheBinaryOps.skipReason(op, ctx.allowFlush);
            if (skip != null) {
                handle = out.skip(skip);
            } else {
                handle = binaryEntry(op, out);
            }
        }
        e = null;
        waiting.add(handle, K_BINARY | op << 8, binOpaque);
    }

    private long binaryEntry(int op, CommandSink out) {
        Command c = MemcacheBinaryOps.command(op, binCas);
        String verb = c == Command.FLUSH ? "flush_all" : c.label();
        byte[] v = MemcacheBinaryOps.VERB_BYTES[c.ordinal()];
        e.verb = ctx.verbs.id(v, 0, v.length);
        e.command(c);
        if (binKeyLength > 0) {
            e.addKey(ctx.keyPrefix, binHead, binExtrasLength, binKeyLength);
        }
        switch (c) {
            case SET, ADD, REPLACE, CAS -> {
                if (binExtrasLength >= 8) {
                    e.ttlSeconds = (int) Math.min(Integer.MAX_VALUE, int32(binHead, 4) & 0xffffffffL);
                }
                if (c == Command.CAS) {
                    e.numeric = binCas;
                }
            }
            case INCR, DECR -> {
                if (binExtrasLength >= 20) {
                    e.numeric = (int32(binHead, 0) & 0xffffffffL) << 32 | int32(binHead, 4) & 0xffffffffL;
                    if (int32(binHead, 16) != -1) {
                        ctx.stats.adjust("binary " + verb + " that would create a missing key sent as " + verb
                                + ", which does not");
                    }
                }
            }
            case TOUCH -> {
                if (binExtrasLength >= 4) {
                    e.ttlSeconds = (int) Math.min(Integer.MAX_VALUE, int32(binHead, 0) & 0xffffffffL);
                }
            }
            default -> {
                // get, delete, append, prepend, flush: key and value only
            }
        }
        if (!MemcacheBinaryOps.carriesValue(op)) {
            e.valueLogged = false;
            e.valueLength = 0;
        }
        if (MemcacheBinaryOps.quiet(op)) {
            ctx.stats.adjust("quiet binary commands sent as their loud kind (every reply is timed)");
        }
        return out.complete();
    }

    // ================= replies =================

    @Override
    public void reply(byte[] b, int from, int to, CommandSink out) {
        int p = from;
        while (p < to && tState != T_DEAD) {
            switch (tState) {
                case T_LINE -> {
                    if (reply.length() == 0 && b[p] == (byte) 0x81) {
                        replyHeaderLength = 0;
                        tState = T_BIN_HEADER;
                        break;
                    }
                    p = reply.feed(b, p, to, MAX_REPLY_LINE);
                    if (reply.tooLong()) {
                        lose(out);
                        return;
                    }
                    if (reply.done()) {
                        replyLine(reply.bytes(), reply.length(), out);
                        reply.clear();
                    }
                }
                case T_DATA -> {
                    p += replyData.take(to - p);
                    if (replyData.done()) {
                        replyDataDone(out);
                    }
                }
                case T_BIN_HEADER -> {
                    int n = Math.min(BINARY_HEADER - replyHeaderLength, to - p);
                    System.arraycopy(b, p, replyHeader, replyHeaderLength, n);
                    replyHeaderLength += n;
                    p += n;
                    if (replyHeaderLength == BINARY_HEADER) {
                        replyBodyLeft = int32(replyHeader, 8) & 0xffffffffL;
                        tState = T_BIN_BODY;
                        if (replyBodyLeft == 0) {
                            binaryReply(out);
                        }
                    }
                }
                case T_BIN_BODY -> {
                    int n = (int) Math.min(replyBodyLeft, to - p);
                    replyBodyLeft -= n;
                    p += n;
                    if (replyBodyLeft == 0) {
                        binaryReply(out);
                    }
                }
                default -> throw new IllegalStateException("reply state " + tState);
            }
        }
    }

    @Override
    public void replyGap(long n, CommandSink out) {
        if (tState == T_DATA && replyData.skip(n)) {
            if (replyData.done()) {
                replyDataDone(out);
            }
        } else if (tState == T_BIN_BODY && n <= replyBodyLeft) {
            replyBodyLeft -= n;
            if (replyBodyLeft == 0) {
                binaryReply(out);
            }
        } else if (tState != T_DEAD) {
            lose(out);
        }
    }

    private void lose(CommandSink out) {
        tState = T_DEAD;
        out.repliesLost();
    }

    /** A whole text reply line {@code r[0, end)}. */
    private void replyLine(byte[] r, int end, CommandSink out) {
        if (!waiting.isEmpty() && waiting.kind() == K_QUIET) {
            if (!(end == 2 && r[0] == 'M' && r[1] == 'N')) {
                lose(out); // the quiet command's reply, or a later one's: they no longer pair
                return;
            }
            while (!waiting.isEmpty() && waiting.kind() == K_QUIET) {
                byte silence = (byte) waiting.value();
                out.settle(waiting.take(), silence);
            }
        }
        if (startsWith(r, end, "VALUE ")) {
            int tokens = words.split(r, 0, end);
            long bytes = tokens >= 4 ? MemcacheWatchReader.number(r, words.from[3], words.to[3]) : -1;
            if (bytes < 0) {
                lose(out);
                return;
            }
            hits++;
            inList = true;
            replyData.start(bytes + 2, 0);
            replyValueEnds = false;
            tState = T_DATA;
            return;
        }
        if (startsWith(r, end, "VA ")) { // a meta get's value: the reply ends after it
            int tokens = words.split(r, 0, end);
            long bytes = tokens >= 2 ? MemcacheWatchReader.number(r, words.from[1], words.to[1]) : -1;
            if (bytes < 0) {
                lose(out);
                return;
            }
            replyData.start(bytes + 2, 0);
            replyValueEnds = true;
            tState = T_DATA;
            return;
        }
        int kind = waiting.isEmpty() ? K_LINE : waiting.kind();
        boolean end3 = end == 3 && r[0] == 'E' && r[1] == 'N' && r[2] == 'D';
        if (kind == K_LIST && !end3 && !isError(r, end)) {
            return; // STAT … and metadump lines, until END
        }
        byte outcome;
        if (end3) {
            outcome = kind == K_GET && hits < waiting.value() ? LogEntry.REPLY_MISS : LogEntry.REPLY_OK;
            if (kind == K_GET && waiting.value() == 0) {
                outcome = hits > 0 ? LogEntry.REPLY_OK : LogEntry.REPLY_MISS;
            }
        } else {
            outcome = lineOutcome(r, end);
        }
        replyDone(outcome, out);
    }

    private void replyDataDone(CommandSink out) {
        tState = T_LINE;
        if (replyValueEnds) {
            replyDone(LogEntry.REPLY_OK, out);
        }
    }

    private void replyDone(byte outcome, CommandSink out) {
        hits = 0;
        inList = false;
        if (noneWaiting(out)) {
            return;
        }
        if ((waiting.kind() & 0xff) == K_BINARY) {
            lose(out); // a text reply to a binary command: the streams are out of step
            return;
        }
        out.settle(waiting.take(), outcome);
    }

    /** A whole binary reply: matched to its command by opaque and opcode; quiet commands passed over were answered by silence. */
    private void binaryReply(CommandSink out) {
        tState = T_LINE;
        int opcode = replyHeader[1] & 0xff;
        int status = (replyHeader[6] & 0xff) << 8 | replyHeader[7] & 0xff;
        int keyLength = (replyHeader[2] & 0xff) << 8 | replyHeader[3] & 0xff;
        int opaque = int32(replyHeader, 12);
        if (replyHeader[0] != (byte) 0x81) {
            lose(out);
            return;
        }
        while (!waiting.isEmpty()) {
            if ((waiting.kind() & 0xff) != K_BINARY) {
                lose(out);
                return;
            }
            int op = waiting.kind() >>> 8;
            if (waiting.value() == opaque && op == opcode) {
                if (op == MemcacheBinaryOps.STAT && keyLength > 0) {
                    return; // a STAT reply goes on until one with an empty key
                }
                out.settle(waiting.take(), MemcacheBinaryOps.outcome(op, status));
                return;
            }
            if (!MemcacheBinaryOps.quiet(op)) {
                lose(out); // a loud command that got no reply of its own: out of step
                return;
            }
            out.settle(waiting.take(), MemcacheBinaryOps.silence(op));
        }
        noneWaiting(out);
    }

    private static byte lineOutcome(byte[] r, int end) {
        if (isError(r, end)) {
            return LogEntry.REPLY_ERROR;
        }
        if (is(r, 0, end, "NOT_STORED") || is(r, 0, end, "EXISTS") || is(r, 0, end, "NOT_FOUND")
                || is(r, 0, end, "EN") || is(r, 0, end, "NF") || is(r, 0, end, "NS") || is(r, 0, end, "EX")) {
            return LogEntry.REPLY_MISS;
        }
        return LogEntry.REPLY_OK;
    }

    private static boolean isError(byte[] r, int end) {
        return is(r, 0, end, "ERROR") || startsWith(r, end, "ERROR ") || startsWith(r, end, "CLIENT_ERROR")
                || startsWith(r, end, "SERVER_ERROR");
    }

    private static boolean startsWith(byte[] r, int end, String prefix) {
        if (end < prefix.length()) {
            return false;
        }
        for (int i = 0; i < prefix.length(); i++) {
            if (r[i] != prefix.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static boolean is(byte[] b, int from, int to, String text) {
        if (to - from != text.length()) {
            return false;
        }
        for (int k = 0; k < text.length(); k++) {
            if (b[from + k] != text.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    private static int int32(byte[] b, int at) {
        return (b[at] & 0xff) << 24 | (b[at + 1] & 0xff) << 16 | (b[at + 2] & 0xff) << 8 | b[at + 3] & 0xff;
    }
}
