package io.fluxperf.engine.protocol.resp.log;

import io.fluxperf.engine.log.ClientTable;
import io.fluxperf.engine.log.LineLogReader;
import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.log.LogInput;
import io.fluxperf.engine.log.ReaderContext;
import io.fluxperf.engine.protocol.Ascii;
import io.fluxperf.engine.request.Command;
import java.io.IOException;

/**
 * Reads {@code redis-cli monitor} output. Each line is
 * {@code <seconds>.<microseconds> [<db> <client>] "<word>" "<word>" …}, where the client is
 * {@code ip:port}, {@code [ipv6]:port}, {@code unix:<socket path>} or {@code lua}, and each word is
 * quoted and escaped as redis' {@code sdscatrepr} does: {@code \\ \" \n \r \t \a \b} and
 * {@code \xHH} for every other byte that is not printable. Words are unescaped byte for byte.
 *
 * <p>Not replayed (counted as skipped): commands run inside a script ({@code [0 lua]}; the
 * script's EVAL runs them again), AUTH and HELLO (MONITOR hides their passwords; use
 * {@code --password}), commands that change what a connection is (MONITOR, SUBSCRIBE …, QUIT,
 * RESET, replication), SHUTDOWN, and FLUSHALL/FLUSHDB unless {@code --allow-flush}. redis-cli's
 * leading {@code OK} line is ignored.
 */
final class RedisMonitorReader extends LineLogReader {
    static final String SCRIPT = "run inside a script (its EVAL or FCALL runs it again)";
    private static final byte[] LUA = {'l', 'u', 'a'};

    private final ClientTable clients;
    /** What is known of each verb id, told once: a log has few verbs and many lines. */
    private final RedisVerbs verbs;
    private final int[] client = new int[2];
    private final Prefixer prefixer;

    RedisMonitorReader(LogInput input, ReaderContext ctx) {
        super(input, 512 << 20, ctx);
        this.clients = ctx.newClientTable();
        this.prefixer = ctx.keyPrefix == null ? null : new Prefixer(ctx.keyPrefix);
        this.verbs = new RedisVerbs(ctx, "AUTH/HELLO (MONITOR hides the password; use --password)");
    }

    @Override
    public boolean next(LogEntry e) throws IOException {
        while (nextLine()) {
            long n = lines.lineNumber();
            byte[] b = lines.buffer();
            int from = lines.start();
            int to = lines.end();
            if (from == to || (n == 1 && to - from == 2 && b[from] == 'O' && b[from + 1] == 'K')) {
                continue;
            }
            e.reset();
            String error = parse(b, from, to, e, client);
            if (error != null) {
                ctx.bad.add(ctx.place(n), error);
                continue;
            }
            if (client[1] - client[0] == 3 && java.util.Arrays.equals(b, client[0], client[1], LUA, 0, 3)) {
                ctx.stats.skip(SCRIPT);
                continue;
            }
            int verb = ctx.verbs.id(e.args, 0, e.argLength(0));
            RedisVerbs.Verb v = verbs.verb(verb);
            if (v.skip != null) {
                ctx.stats.skip(v.skip);
                continue;
            }
            e.verb = verb;
            e.command(v.command);
            e.client = clients.id(b, client[0], client[1]);
            e.sortKey = e.timeNanos;
            e.line = n;
            e.position = input.filePosition();
            if (prefixer != null) {
                prefixer.apply(v.keys, e);
            }
            // every key: a replay to several servers or a cluster places the command by all of them
            for (int i = 1; i < e.argCount; i++) {
                if (RedisKeys.isKey(v.keys, i, e)) {
                    e.addKey(null, e.args, e.argStart(i), e.argLength(i));
                }
            }
            e.valueArg = v.valueWord < e.argCount ? v.valueWord : -1;
            return true;
        }
        input.reportEnd(ctx);
        return false;
    }

    /**
     * Parses one MONITOR line {@code b[from, to)} into {@code e}: its time and its words, unescaped.
     * {@code client} receives the start and end of the client's address in {@code b}.
     *
     * @return null when the line parsed, else what is wrong with it
     */
    static String parse(byte[] b, int from, int to, LogEntry e, int[] client) {
        int p = from;
        long seconds = 0;
        int digits = 0;
        while (p < to && b[p] >= '0' && b[p] <= '9' && digits < 12) {
            seconds = seconds * 10 + (b[p++] - '0');
            digits++;
        }
        if (digits == 0 || p >= to || b[p] != '.') {
            return "not a MONITOR line (no timestamp)";
        }
        p++;
        long fraction = 0;
        int fractionDigits = 0;
        while (p < to && b[p] >= '0' && b[p] <= '9') {
            if (fractionDigits < 9) {
                fraction = fraction * 10 + (b[p] - '0');
                fractionDigits++;
            }
            p++;
        }
        if (fractionDigits == 0) {
            return "not a MONITOR line (no timestamp)";
        }
        for (int k = fractionDigits; k < 9; k++) {
            fraction *= 10;
        }
        e.timeNanos = seconds * 1_000_000_000L + fraction;
        if (p + 1 >= to || b[p] != ' ' || b[p + 1] != '[') {
            return p >= to - 1 ? "truncated line" : "not a MONITOR line (no [db client] after the timestamp)";
        }
        p += 2;
        int dbStart = p;
        while (p < to && b[p] >= '0' && b[p] <= '9') {
            p++;
        }
        if (p == dbStart || p >= to || b[p] != ' ') {
            return p >= to ? "truncated line" : "not a MONITOR line (no database number)";
        }
        p++;
        int addressStart = p;
        int addressEnd = -1;
        for (int k = p; k < to; k++) {
            if (b[k] == ']' && (k + 1 == to || b[k + 1] == ' ')) {
                addressEnd = k;
                break;
            }
        }
        if (addressEnd < 0) {
            return "truncated line";
        }
        client[0] = addressStart;
        client[1] = addressEnd;
        p = addressEnd + 1;
        if (p >= to) {
            return "truncated line (no command)";
        }
        p++; // the space
        while (p < to) {
            if (b[p] != '"') {
                return "word " + (e.argCount + 1) + " is not quoted";
            }
            p++;
            int out = e.beginArg(to - p);
            byte[] a = e.args;
            boolean closed = false;
            while (p < to) {
                byte c = b[p++];
                if (c == '"') {
                    closed = true;
                    break;
                }
                if (c != '\\') {
                    a[out++] = c;
                    continue;
                }
                if (p >= to) {
                    break;
                }
                byte x = b[p++];
                switch (x) {
                    case 'n' -> a[out++] = '\n';
                    case 'r' -> a[out++] = '\r';
                    case 't' -> a[out++] = '\t';
                    case 'a' -> a[out++] = 7;
                    case 'b' -> a[out++] = '\b';
                    case 'x' -> {
                        int hi = p + 1 < to ? Ascii.hexDigit(b[p]) : -1;
                        int lo = p + 1 < to ? Ascii.hexDigit(b[p + 1]) : -1;
                        if (hi >= 0 && lo >= 0) {
                            a[out++] = (byte) (hi << 4 | lo);
                            p += 2;
                        } else {
                            a[out++] = 'x';
                        }
                    }
                    default -> a[out++] = x; // \" \\ and anything else stand for themselves
                }
            }
            if (!closed) {
                return "truncated line (word " + (e.argCount + 1) + " has no closing quote)";
            }
            e.endArg(out);
            if (p < to) {
                if (b[p] != ' ') {
                    return "word " + e.argCount + " is followed by '" + (char) (b[p] & 0xFF) + "', not a space";
                }
                p++;
                if (p == to) {
                    return "truncated line";
                }
            }
        }
        if (e.argCount == 0) {
            return "truncated line (no command)";
        }
        if (e.argLength(0) == 0) {
            return "empty command name";
        }
        return null;
    }

    /** Rewrites the key words of an entry's arguments with the prefix in front (--key-prefix). */
    static final class Prefixer {
        private final byte[] prefix;
        private byte[] scratch = new byte[256];
        private int[] ends = new int[8];

        Prefixer(byte[] prefix) {
            this.prefix = prefix;
        }

        void apply(RedisKeys.Rule keys, LogEntry e) {
            int n = e.argCount;
            int total = e.argStart(n) + n * prefix.length;
            if (scratch.length < total) {
                scratch = new byte[Math.max(total, scratch.length * 2)];
            }
            if (ends.length < n) {
                ends = new int[Math.max(n, ends.length * 2)];
            }
            int out = 0;
            for (int i = 0; i < n; i++) {
                if (RedisKeys.isKey(keys, i, e)) {
                    System.arraycopy(prefix, 0, scratch, out, prefix.length);
                    out += prefix.length;
                }
                int len = e.argLength(i);
                System.arraycopy(e.args, e.argStart(i), scratch, out, len);
                out += len;
                ends[i] = out;
            }
            e.argCount = 0;
            int start = e.beginArg(out);
            System.arraycopy(scratch, 0, e.args, start, out);
            for (int i = 0; i < n; i++) {
                e.endArg(ends[i]);
            }
        }
    }
}
