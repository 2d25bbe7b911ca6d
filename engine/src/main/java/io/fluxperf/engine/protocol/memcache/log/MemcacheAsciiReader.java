package io.fluxperf.engine.protocol.memcache.log;

import io.fluxperf.engine.log.LineLogReader;
import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.log.LogInput;
import io.fluxperf.engine.log.ReaderContext;
import io.fluxperf.engine.log.SpaceTokens;
import io.fluxperf.engine.request.Command;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Set;

/**
 * Reads a raw memcached text-protocol stream, as a client sent it (e.g. captured with
 * {@code tcpflow}): {@code get}/{@code gets} with one or more keys, the storage commands with
 * their data blocks (the logged bytes are sent, byte for byte), {@code cas}, {@code delete},
 * {@code incr}/{@code decr}, {@code touch}, and the meta commands ({@link MetaRequests}): a stream
 * may mix them, as memcached takes both on one connection. {@code noreply} is dropped, since every command's
 * reply is timed. Admin commands ({@code version}, {@code stats}, {@code verbosity}, {@code quit}, …)
 * are skipped, {@code flush_all} too unless {@code --allow-flush}.
 *
 * <p>Send times come from a sidecar CSV ({@link SendTimes}), row {@code i} for command {@code i};
 * without one the stream has no timing and replays as fast as allowed.
 */
final class MemcacheAsciiReader extends LineLogReader {
    private static final int MAX_TOKENS = 256;
    private static final Set<String> ADMIN = Set.of("version", "stats", "verbosity", "quit", "watch", "lru_crawler",
            "slabs", "lru", "shutdown", "cache_memlimit", "misbehave", "debugtime");

    private final SendTimes times;
    private final MetaRequests meta;
    private final SpaceTokens words = new SpaceTokens(MAX_TOKENS);
    private final int[] tokenFrom = words.from;
    private final int[] tokenTo = words.to;
    private long sequence;
    private boolean timesEnded;

    MemcacheAsciiReader(LogInput input, ReaderContext ctx, Path timesCsv) {
        super(input, 1 << 20, ctx);
        this.times = timesCsv == null ? null : new SendTimes(timesCsv, ctx);
        this.meta = new MetaRequests(ctx, lines);
    }

    @Override
    public boolean next(LogEntry e) throws IOException {
        while (nextLine()) {
            long n = lines.lineNumber();
            byte[] b = lines.buffer();
            int tokens = words.split(b, lines.start(), lines.end());
            if (tokens == 0) {
                continue;
            }
            e.reset();
            e.line = n;
            sequence++;
            if (times != null && !timesEnded) {
                if (times.next()) {
                    e.timeNanos = times.timeNanos();
                    e.client = times.client();
                } else {
                    timesEnded = true;
                    ctx.bad.add(ctx.place(n), "the send times end after " + times.rows()
                            + " rows; this and later commands are sent without a time of their own");
                }
            }
            e.sortKey = e.timeNanos != LogEntry.NO_TIME ? e.timeNanos : sequence;
            String error = command(b, tokens, e);
            e.position = input.filePosition();
            if (error == null) {
                return true;
            }
            if (!error.isEmpty()) {
                ctx.bad.add(ctx.place(n), error);
            }
        }
        input.reportEnd(ctx);
        return false;
    }

    /**
     * Fills {@code e} from the tokens of the command line (reading the data block of a store).
     * Returns null for a command to send, "" for a line skipped (counted), else what is wrong.
     */
    private String command(byte[] b, int tokens, LogEntry e) throws IOException {
        if (MetaRequests.isMeta(b, tokenFrom[0], tokenTo[0])) {
            return meta.read(b, tokenFrom, tokenTo, tokens, e);
        }
        int verbId = ctx.verbs.id(b, tokenFrom[0], tokenTo[0]);
        String verb = ctx.verbs.name(verbId);
        int last = tokens;
        if (last > 1 && is(b, last - 1, "noreply")) {
            last--;
            ctx.stats.adjust("noreply dropped (every reply is timed)");
        }
        Command c = MemcacheVerbs.command(verb);
        if (c == null) {
            if (ADMIN.contains(verb)) {
                ctx.stats.skip("admin command (" + verb + ")");
                return "";
            }
            return "unknown command '" + printable(verb) + "'";
        }
        e.command(c);
        e.verb = verbId;
        switch (c) {
            case GET, GETS -> {
                if (last < 2) {
                    return "truncated line (" + verb + " without a key)";
                }
                for (int i = 1; i < last; i++) {
                    e.addKey(ctx.keyPrefix, b, tokenFrom[i], tokenTo[i] - tokenFrom[i]);
                }
            }
            case SET, ADD, REPLACE, APPEND, PREPEND, CAS -> {
                int needed = c == Command.CAS ? 6 : 5;
                if (last != needed) {
                    return last < needed ? "truncated line (" + verb + " needs " + (needed - 1) + " arguments)"
                            : verb + " has " + (last - 1) + " arguments, not " + (needed - 1);
                }
                long exptime = number(b, 3);
                long bytes = number(b, 4);
                if (bytes < 0 || bytes > (1 << 30) || exptime == Long.MIN_VALUE) {
                    return "bad exptime or byte count in " + verb;
                }
                if (c == Command.CAS) {
                    long unique = number(b, 5);
                    if (unique == Long.MIN_VALUE) {
                        return "bad cas unique";
                    }
                    e.numeric = unique;
                }
                e.addKey(ctx.keyPrefix, b, tokenFrom[1], tokenTo[1] - tokenFrom[1]);
                e.ttlSeconds = (int) Math.max(0, Math.min(Integer.MAX_VALUE, exptime));
                int at = lines.block((int) bytes + 2);
                if (at < 0) {
                    return "truncated data block (" + bytes + " bytes announced)";
                }
                byte[] data = lines.buffer();
                if (data[at + (int) bytes] != '\r' || data[at + (int) bytes + 1] != '\n') {
                    return "data block of " + bytes + " bytes does not end in \\r\\n";
                }
                System.arraycopy(data, at, e.valueBuffer((int) bytes), 0, (int) bytes);
            }
            case DELETE -> {
                if (last < 2) {
                    return "truncated line (delete without a key)";
                }
                e.addKey(ctx.keyPrefix, b, tokenFrom[1], tokenTo[1] - tokenFrom[1]);
            }
            case INCR, DECR -> {
                if (last != 3 || number(b, 2) < 0) {
                    return last < 3 ? "truncated line (" + verb + " needs a key and a delta)" : "bad delta in " + verb;
                }
                e.addKey(ctx.keyPrefix, b, tokenFrom[1], tokenTo[1] - tokenFrom[1]);
                e.numeric = number(b, 2);
            }
            case TOUCH -> {
                if (last != 3 || number(b, 2) == Long.MIN_VALUE) {
                    return last < 3 ? "truncated line (touch needs a key and an exptime)" : "bad exptime in touch";
                }
                e.addKey(ctx.keyPrefix, b, tokenFrom[1], tokenTo[1] - tokenFrom[1]);
                e.ttlSeconds = (int) Math.max(0, Math.min(Integer.MAX_VALUE, number(b, 2)));
            }
            case FLUSH -> {
                if (!ctx.allowFlush) {
                    ctx.stats.skip("flush (replayed only with --allow-flush)");
                    return "";
                }
            }
            default -> throw new IllegalStateException(c.toString());
        }
        return null;
    }


    private boolean is(byte[] b, int i, String text) {
        int len = tokenTo[i] - tokenFrom[i];
        if (len != text.length()) {
            return false;
        }
        for (int k = 0; k < len; k++) {
            if (b[tokenFrom[i] + k] != text.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    private long number(byte[] b, int i) {
        return MemcacheWatchReader.number(b, tokenFrom[i], tokenTo[i]);
    }

    static String printable(String s) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < s.length() && i < 40; i++) {
            char c = s.charAt(i);
            out.append(c >= 0x20 && c < 0x7f ? String.valueOf(c) : String.format("\\x%02x", (int) c));
        }
        return out.toString();
    }

    @Override
    public void close() {
        super.close();
        if (times != null) {
            times.close();
        }
    }
}
