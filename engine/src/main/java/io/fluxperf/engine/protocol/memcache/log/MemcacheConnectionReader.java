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

import static io.fluxperf.engine.protocol.memcache.log.MemcacheReplyReader.K_BINARY;
import static io.fluxperf.engine.protocol.memcache.log.MemcacheReplyReader.K_GET;
import static io.fluxperf.engine.protocol.memcache.log.MemcacheReplyReader.K_LINE;
import static io.fluxperf.engine.protocol.memcache.log.MemcacheReplyReader.K_LIST;
import static io.fluxperf.engine.protocol.memcache.log.MemcacheReplyReader.K_QUIET;

/**
 * Reads one captured memcached connection, text and binary protocol alike (each command is told by
 * its first byte, 0x80 for binary, as real clients mix them on one port): the client's commands
 * into log entries as the raw-stream reader makes them (values are the logged bytes, {@code noreply}
 * is dropped, meta commands become the text commands whose work they do, admin commands are
 * skipped), and the server's replies into each command's original outcome
 * ({@link MemcacheReplyReader}).
 *
 * <p>A resumable state machine over the bytes: a command line or binary header is gathered across
 * segments, a data block is copied into the entry as it comes.
 * Gaps: inside a data block (text) or a binary body, whose lengths the protocol states, the
 * command is cut and the stream goes on; anywhere else it cannot be read on. A connection picked up
 * mid-stream starts at the first segment that begins with a whole command.
 */
final class MemcacheConnectionReader extends AbstractConnectionReader {
    /** The longest command line read (a get of many keys is long). */
    static final int MAX_LINE = 1 << 20;
    static final String TOO_BIG = "commands larger than 64 MiB (read past, not held)";
    private static final int MAX_TOKENS = 256;

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
    private final MemcacheBinaryRequest bin = new MemcacheBinaryRequest();
    private int binValueAt;

    // a command waits with its kind (K_*, and a binary one's opcode << 8) and its key count, a quiet
    // one's silence, or a binary one's opaque

    private final MemcacheReplyReader replies;

    MemcacheConnectionReader(ReaderContext ctx) {
        super(TOO_BIG);
        this.ctx = ctx;
        this.meta = new MetaRequests(ctx, null);
        this.replies = new MemcacheReplyReader(waiting);
    }

    @Override
    public void reset(boolean fromStart) {
        super.reset(fromStart);
        rState = R_START;
        line.clear();
        quietMeta = false;
        replies.reset();
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
                    bin.start();
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
                p = bin.feedHeader(b, p, to);
                if (bin.headerWhole()) {
                    String bad = bin.parseHeader();
                    if (bad != null) {
                        return fail(out, b, p, to, bad);
                    }
                    if (bin.headWhole()) {
                        startBinaryValue();
                        if (bin.valueLeft == 0) {
                            binaryDone(out);
                        }
                    } else {
                        rState = R_BIN_HEAD;
                    }
                }
                return p;
            }
            case R_BIN_HEAD -> {
                p = bin.feedHead(b, p, to);
                if (bin.headWhole()) {
                    startBinaryValue();
                    if (bin.valueLeft == 0) {
                        binaryDone(out);
                    }
                }
                return p;
            }
            case R_BIN_VALUE -> {
                int n = (int) Math.min(bin.valueLeft, to - p);
                if (dataKept && !cut) {
                    System.arraycopy(b, p, e.value, binValueAt, n);
                    binValueAt += n;
                }
                bin.valueLeft -= n;
                p += n;
                if (bin.valueLeft == 0) {
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
        if ((rState == R_BIN_HEAD || rState == R_BIN_VALUE) && n <= bin.bodyLeft()) {
            cut = true;
            long rest = bin.skipHead(n);
            if (rState == R_BIN_HEAD && bin.headWhole()) {
                startBinaryValue();
            }
            bin.valueLeft -= rest;
            if (bin.headWhole() && bin.valueLeft == 0) {
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
        boolean noreply = last > 1 && MemcacheReplyReader.is(b, from[last - 1], to[last - 1], "noreply");
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
            boolean metadump = verb.equals("lru_crawler") && tokens > 1 && MemcacheReplyReader.is(b, from[1], to[1], "metadump");
            byte kind = verb.equals("stats") || metadump
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
     * connection's original outcomes from there on are unknown ({@link MemcacheReplyReader#K_QUIET}).
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

    /** A quiet meta command waits in the FIFO as such, with what its silence means ({@link MemcacheReplyReader#K_QUIET}). */
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

    private void startBinaryValue() {
        rState = R_BIN_VALUE;
        dataKept = bin.valueLeft <= HOLD_LIMIT && MemcacheBinaryOps.carriesValue(bin.opcode);
        tooBig = bin.valueLeft > HOLD_LIMIT;
        if (dataKept && !cut) {
            e.valueBuffer((int) bin.valueLeft);
        }
        binValueAt = 0;
    }

    /** A whole binary command. */
    private void binaryDone(CommandSink out) {
        rState = R_START;
        pickedUp(out);
        int op = bin.opcode;
        long handle;
        if (dropped()) {
            handle = drop(out);
        } else {
            String skip = MemcacheBinaryOps.skipReason(op, ctx.allowFlush);
            if (skip != null) {
                handle = out.skip(skip);
            } else {
                bin.fill(e, ctx);
                handle = out.complete();
            }
        }
        e = null;
        waiting.add(handle, K_BINARY | op << 8, bin.opaque);
    }

    // ================= replies =================

    @Override
    public void reply(byte[] b, int from, int to, CommandSink out) {
        replies.reply(b, from, to, out);
    }

    @Override
    public void replyGap(long n, CommandSink out) {
        replies.replyGap(n, out);
    }
}
