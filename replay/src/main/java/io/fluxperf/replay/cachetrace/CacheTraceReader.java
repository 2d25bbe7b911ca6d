package io.fluxperf.replay.cachetrace;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.log.ClientTable;
import io.fluxperf.engine.log.InOrderStep;
import io.fluxperf.engine.log.LineLogReader;
import io.fluxperf.engine.log.LineReader;
import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.log.LogInput;
import io.fluxperf.engine.log.ReaderContext;
import io.fluxperf.engine.log.SecondCounts;
import io.fluxperf.engine.log.VerbTable;
import java.io.IOException;
import java.util.Arrays;

/**
 * Reads a Twitter cache trace, one request per line:
 * <pre>
 * timestamp,anonymized key,key size,value size,client id,operation,TTL
 * 0,nz:u:eeW511W3dcH3de3d15ec,24,0,12,get,0
 * 0,nz:u:eeW511W3dcH3de3d15ec,24,215,12,set,3600
 * </pre>
 * Each line becomes one command of its operation ({@link Operations}): the key padded with
 * {@value #PAD_CHAR} to the key size (a key longer than its size is kept whole), a write's value
 * synthesised at the value size with the TTL as its expiry, and a read's value size kept as the
 * size it returned (for {@code profile}). Each client id is an original client.
 *
 * <p>Timing: the timestamps are whole seconds, so the commands of each second are spread evenly
 * over it in file order (the k-th of n at k/n s); a first pass counts each second's commands
 * ({@link #countSeconds}). A line without exactly seven fields, or with a field that does not
 * parse, is a bad line, named with its line number.
 *
 * <p>The parse is one scan of the line's bytes for its six commas, then each field in place:
 * nothing is allocated per line once each client and operation has been seen.
 */
final class CacheTraceReader extends LineLogReader {
    static final int FIELDS = 7;
    static final String LAYOUT = "timestamp,key,key size,value size,client id,operation,TTL";
    static final char PAD_CHAR = '~';
    /** The longest key size taken; memcached's limit is 250. */
    static final int MAX_KEY_SIZE = 1 << 16;
    /** The largest value size taken (1 GiB). */
    static final int MAX_VALUE_SIZE = 1 << 30;
    /** Beyond this a timestamp's nanoseconds would not fit a long. */
    private static final long MAX_SECONDS = 9_000_000_000L;
    private static final byte[] EX = {'E', 'X'};

    /** Spreads each second's commands over it; null in a part's reader (the split reader does it in order). */
    private final InOrderStep spread;
    private final ClientTable clients;
    private final int[] commas = new int[FIELDS - 1];
    private Operations.Form[] forms = new Operations.Form[16];
    private boolean[] decided = new boolean[16];
    /** Bytes of the values a stand-in sends as a literal argument; grown to the largest value size met. */
    private byte[] values = new byte[0];

    /**
     * @param seconds commands per second from {@link #countSeconds}, shared by every pass; null for the
     *                reader of a part of the log, whose commands keep their whole second until
     *                {@link SecondCounts#spreading} completes them in the log's order
     */
    CacheTraceReader(LogInput input, ReaderContext ctx, SecondCounts seconds) {
        super(input, 1 << 16, ctx);
        Operations.check(ctx);
        this.spread = seconds == null ? null : seconds.spreading();
        this.clients = ctx.newClientTable();
    }

    /** Counts the commands of each second in one pass: lines of seven fields whose timestamp parses. */
    static SecondCounts countSeconds(LogInput input) {
        SecondCounts.Builder counts = new SecondCounts.Builder();
        try (input) {
            LineReader lines = new LineReader(input.stream(), 1 << 16);
            while (lines.next()) {
                byte[] b = lines.buffer();
                int from = lines.start();
                int to = lines.end();
                int comma = from;
                int fields = 1;
                for (int p = from; p < to; p++) {
                    if (b[p] == ',') {
                        if (fields == 1) {
                            comma = p;
                        }
                        fields++;
                    }
                }
                long second = fields == FIELDS ? number(b, from, comma) : -1;
                if (second >= 0 && second <= MAX_SECONDS) {
                    counts.add(second);
                }
            }
        } catch (IOException e) {
            throw new UserError(input.path() + ": cannot read: " + e.getMessage());
        }
        return counts.build();
    }

    @Override
    public boolean next(LogEntry e) throws IOException {
        while (nextLine()) {
            byte[] b = lines.buffer();
            int from = lines.start();
            int to = lines.end();
            if (from == to) {
                continue;
            }
            e.reset();
            String error = parse(b, from, to, e);
            if (error == null) {
                e.line = lines.lineNumber();
                e.position = input.filePosition();
                if (spread != null) {
                    spread.apply(e);
                }
                return true;
            }
            ctx.bad.add(ctx.place(lines.lineNumber()), error);
        }
        input.reportEnd(ctx);
        return false;
    }

    /** Fills {@code e} from the line {@code b[from, to)}; returns null, or what is wrong with the line. */
    private String parse(byte[] b, int from, int to, LogEntry e) {
        int fields = 1;
        for (int p = from; p < to; p++) {
            if (b[p] == ',') {
                if (fields < FIELDS) {
                    commas[fields - 1] = p;
                }
                fields++;
            }
        }
        if (fields != FIELDS) {
            return fields + " field" + (fields == 1 ? "" : "s") + ", not " + FIELDS + " (" + LAYOUT + ")";
        }
        int[] c = commas;
        long second = number(b, from, c[0]);
        if (second < 0 || second > MAX_SECONDS) {
            return "the timestamp '" + text(b, from, c[0]) + "' is not a whole number of seconds";
        }
        int keyFrom = c[0] + 1;
        int keyTo = c[1];
        if (keyFrom == keyTo) {
            return "empty key";
        }
        for (int p = keyFrom; p < keyTo; p++) {
            if ((b[p] & 0xff) <= ' ' || b[p] == 0x7f) {
                return "the key holds a space or a control byte at column " + (p - from + 1);
            }
        }
        long keySize = number(b, c[1] + 1, c[2]);
        if (keySize < 0 || keySize > MAX_KEY_SIZE) {
            return "the key size '" + text(b, c[1] + 1, c[2]) + "' is not a number of bytes up to " + MAX_KEY_SIZE;
        }
        long valueSize = number(b, c[2] + 1, c[3]);
        if (valueSize < 0 || valueSize > MAX_VALUE_SIZE) {
            return "the value size '" + text(b, c[2] + 1, c[3]) + "' is not a number of bytes up to " + MAX_VALUE_SIZE;
        }
        long ttl = number(b, c[5] + 1, to);
        if (ttl < 0 || ttl > Integer.MAX_VALUE) {
            return "the TTL '" + text(b, c[5] + 1, to) + "' is not a number of seconds";
        }
        int verb = ctx.verbs.id(b, c[4] + 1, c[5]);
        Operations.Form form = form(verb);
        if (form == null) {
            return "unknown operation '" + text(b, c[4] + 1, c[5]) + "' (expected one of "
                    + String.join(", ", Operations.NAMES) + ")";
        }
        e.command(form.command);
        e.verb = verb;
        int keyLength = key(b, keyFrom, keyTo, (int) keySize, e);
        if (form.literal != null) {
            literal(form, e, keyLength, (int) valueSize, (int) ttl);
        } else if (form.writes) {
            e.synthSize = (int) valueSize;
        }
        if (form.writes) {
            e.ttlSeconds = (int) ttl;
        }
        if (form.reads) {
            e.readSize = (int) valueSize;
        }
        e.numeric = form.numeric;
        e.client = c[3] + 1 == c[4] ? -1 : clients.id(b, c[3] + 1, c[4]);
        e.timeNanos = second * 1_000_000_000L; // the place in its second: SecondCounts.spreading()
        e.sortKey = e.timeNanos;
        return null;
    }

    /** Adds the key, with the --key-prefix before it and padding after it to its size; returns its length. */
    private int key(byte[] b, int from, int to, int size, LogEntry e) {
        byte[] prefix = ctx.keyPrefix;
        int p = prefix == null ? 0 : prefix.length;
        int n = to - from;
        int length = p + Math.max(n, size);
        int start = e.beginKey(length);
        byte[] k = e.keys;
        if (p > 0) {
            System.arraycopy(prefix, 0, k, start, p);
        }
        System.arraycopy(b, from, k, start + p, n);
        Arrays.fill(k, start + p + n, start + length, (byte) PAD_CHAR);
        e.endKey(start + length);
        return length;
    }

    /** A stand-in's words: {@code SET key value NX|XX [EX ttl]} or {@code APPEND key value}. */
    private void literal(Operations.Form form, LogEntry e, int keyLength, int valueSize, int ttl) {
        word(e, form.literal, 0, form.literal.length);
        word(e, e.keys, e.keyStart(0), keyLength);
        if (values.length < valueSize) {
            values = pattern(Math.max(valueSize, Math.min(MAX_VALUE_SIZE, values.length * 2)));
        }
        word(e, values, 0, valueSize);
        e.valueArg = 2;
        if (form.condition != null) {
            word(e, form.condition, 0, form.condition.length);
        }
        if (ttl > 0 && form.condition != null) { // a SET stand-in; redis' APPEND takes no expiry
            word(e, EX, 0, EX.length);
            int start = e.beginArg(10);
            int end = start + digits(ttl);
            for (int i = end - 1, v = ttl; i >= start; i--, v /= 10) {
                e.args[i] = (byte) ('0' + v % 10);
            }
            e.endArg(end);
        }
    }

    private static void word(LogEntry e, byte[] b, int from, int length) {
        int start = e.beginArg(length);
        System.arraycopy(b, from, e.args, start, length);
        e.endArg(start + length);
    }

    private Operations.Form form(int verb) {
        if (verb >= forms.length) {
            int n = Math.max(verb + 1, forms.length * 2);
            forms = Arrays.copyOf(forms, n);
            decided = Arrays.copyOf(decided, n);
        }
        if (!decided[verb]) {
            decided[verb] = true;
            forms[verb] = verb == VerbTable.OVERFLOW ? null : Operations.form(ctx.verbs.name(verb), ctx);
        }
        return forms[verb];
    }

    /** The decimal number in {@code b[from, to)} (at most 18 digits), or -1. */
    static long number(byte[] b, int from, int to) {
        if (from >= to || to - from > 18) {
            return -1;
        }
        long v = 0;
        for (int p = from; p < to; p++) {
            int d = b[p] - '0';
            if (d < 0 || d > 9) {
                return -1;
            }
            v = v * 10 + d;
        }
        return v;
    }

    private static int digits(int v) {
        int n = 1;
        while (v >= 10) {
            v /= 10;
            n++;
        }
        return n;
    }

    private static String text(byte[] b, int from, int to) {
        StringBuilder s = new StringBuilder();
        for (int p = from; p < to && s.length() < 40; p++) {
            int ch = b[p] & 0xff;
            s.append(ch >= 0x20 && ch < 0x7f ? String.valueOf((char) ch) : String.format("\\x%02x", ch));
        }
        return to - from > 40 ? s + "…" : s.toString();
    }

    private static byte[] pattern(int n) {
        byte[] alphabet = "abcdefghijklmnopqrstuvwxyz0123456789".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        byte[] v = new byte[n];
        for (int i = 0; i < n; i++) {
            v[i] = alphabet[i % alphabet.length];
        }
        return v;
    }
}
