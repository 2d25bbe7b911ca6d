package io.fluxperf.engine.protocol.memcache.log;

import io.fluxperf.engine.log.ClientTable;
import io.fluxperf.engine.log.InOrderStep;
import io.fluxperf.engine.log.LineLogReader;
import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.log.LogInput;
import io.fluxperf.engine.log.ReaderContext;
import io.fluxperf.engine.protocol.Ascii;
import io.fluxperf.engine.request.Command;
import java.io.IOException;
import java.util.Arrays;

/**
 * Reads memcached's {@code watch fetchers mutations} output:
 * <pre>
 * ts=1700000000.14463 gid=6 type=item_get key=foo status=found clsid=1 cfd=13 size=3
 * ts=1700000000.14466 gid=7 type=item_store key=foo status=stored cmd=set ttl=0 clsid=1 cfd=13 size=3
 * </pre>
 * What memcached prints and what this makes of it:
 * <ul>
 * <li>{@code ts} is seconds and microseconds, the microseconds printed without zero padding
 *     ({@code .14463} is 14463 µs).</li>
 * <li>Keys are URI-encoded ({@code %20}); they are decoded byte for byte.</li>
 * <li>Lines of different worker threads can arrive out of order; {@code gid} is the order in
 *     which they were logged, and the read-ahead sorts by it.</li>
 * <li>A store logs the fetch memcached does inside it first ({@code item_get} of the same key on
 *     the same connection, then {@code item_store}); that fetch is not a get of the client's and is
 *     dropped. Other fetches (get, gets, and also the lookups of incr, decr, touch and delete, which
 *     the watch log cannot tell apart) replay as gets.</li>
 * <li>Values are synthesised at the logged {@code size}; {@code ttl} is kept; a cas carries
 *     unique 0 (the original unique is not logged), so it replays as a failed cas.</li>
 * <li>Lines of other types (evictions, connection events) are skipped; {@code cfd} names the
 *     client, so each client keeps its order on one connection.</li>
 * </ul>
 */
final class MemcacheWatchReader extends LineLogReader {
    static final String INTERNAL_FETCH = "the fetch inside a store (memcached logs it as item_get)";

    private final ClientTable clients;
    /** Drops the fetch inside a store; null in a part's reader (the split reader does it in order). */
    private final InternalFetches internalFetches;
    private final int getVerb;
    private final int[] storeVerbs = new int[6];
    private static final Command[] STORES = {Command.SET, Command.ADD, Command.REPLACE, Command.APPEND,
            Command.PREPEND, Command.CAS};
    /** Their labels, made once: {@link Command#label()} makes a new string on every call. */
    private static final String[] STORE_LABELS = Arrays.stream(STORES).map(Command::label).toArray(String[]::new);

    // fields of the line being parsed: [start, end) in the line buffer, -1 when absent
    private int tsFrom;
    private int tsTo;
    private int gidFrom;
    private int gidTo;
    private int typeFrom;
    private int typeTo;
    private int keyFrom;
    private int keyTo;
    private int cmdFrom;
    private int cmdTo;
    private int ttlFrom;
    private int ttlTo;
    private int cfdFrom;
    private int cfdTo;
    private int sizeFrom;
    private int sizeTo;

    /**
     * @param whole whether this reader reads the whole log (and drops the fetch inside a store
     *              itself), not a part of it ({@link InternalFetches})
     */
    MemcacheWatchReader(LogInput input, ReaderContext ctx, boolean whole) {
        super(input, 1 << 20, ctx);
        this.clients = ctx.newClientTable();
        this.internalFetches = whole ? new InternalFetches(ctx) : null;
        this.getVerb = verb(ctx, "get");
        for (int i = 0; i < STORES.length; i++) {
            storeVerbs[i] = verb(ctx, STORE_LABELS[i]);
        }
    }

    private static int verb(ReaderContext ctx, String name) {
        byte[] b = name.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        return ctx.verbs.id(b, 0, b.length);
    }

    @Override
    public boolean next(LogEntry e) throws IOException {
        while (nextLine()) {
            long n = lines.lineNumber();
            byte[] b = lines.buffer();
            int from = lines.start();
            int to = lines.end();
            if (from == to || (to - from == 2 && b[from] == 'O' && b[from + 1] == 'K')) {
                continue; // the OK that answers "watch"
            }
            String error = fields(b, from, to);
            if (error != null) {
                ctx.bad.add(ctx.place(n), error);
                continue;
            }
            boolean get = is(b, typeFrom, typeTo, "item_get");
            boolean store = !get && is(b, typeFrom, typeTo, "item_store");
            if (!get && !store && !lines.terminated()) {
                ctx.bad.add(ctx.place(n), "truncated line (the log ends inside it)");
                continue;
            }
            if (!get && !store) {
                ctx.stats.skip("not a command (watch type " + io.fluxperf.engine.Printable.bytes(b, typeFrom, typeTo - typeFrom)
                        + ")");
                continue;
            }
            String missing = keyFrom < 0 ? "key" : cfdFrom < 0 ? "cfd" : store && cmdFrom < 0 ? "cmd"
                    : store && sizeFrom < 0 ? "size" : null;
            if (missing != null) {
                ctx.bad.add(ctx.place(n), "truncated line (no " + missing + "=)");
                continue;
            }
            e.reset();
            long seconds = 0;
            int p = tsFrom;
            while (p < tsTo && b[p] != '.') {
                seconds = seconds * 10 + digit(b[p++]);
            }
            long micros = p < tsTo ? number(b, p + 1, tsTo) : 0;
            long gid = number(b, gidFrom, gidTo);
            long cfd = number(b, cfdFrom, cfdTo);
            if (seconds < 0 || p == tsFrom || micros < 0 || micros > 999_999 || gid < 0 || cfd < 0) {
                ctx.bad.add(ctx.place(n), "bad number in ts=, gid= or cfd=");
                continue;
            }
            e.timeNanos = seconds * 1_000_000_000L + micros * 1000;
            e.sortKey = gid;
            e.line = n;
            e.position = input.filePosition();
            e.client = clients.id(cfd);
            if (!decodeKey(b, e)) {
                ctx.bad.add(ctx.place(n), "bad %-escape in key=");
                continue;
            }
            if (get) {
                e.verb = getVerb;
                e.command(Command.GET);
            } else {
                int which = -1;
                for (int i = 0; i < STORES.length; i++) {
                    if (is(b, cmdFrom, cmdTo, STORE_LABELS[i])) {
                        which = i;
                        break;
                    }
                }
                if (which < 0) {
                    ctx.bad.add(ctx.place(n), "unknown command '" + io.fluxperf.engine.Printable.bytes(b, cmdFrom,
                            cmdTo - cmdFrom) + "'");
                    continue;
                }
                long size = number(b, sizeFrom, sizeTo);
                long ttl = ttlFrom < 0 ? 0 : number(b, ttlFrom, ttlTo);
                if (size < 0 || size > Integer.MAX_VALUE / 2) {
                    ctx.bad.add(ctx.place(n), "bad number in size=");
                    continue;
                }
                e.verb = storeVerbs[which];
                e.command(STORES[which]);
                e.synthSize = (int) size;
                e.ttlSeconds = ttl < 0 ? 0 : (int) Math.min(Integer.MAX_VALUE, ttl);
            }
            if (internalFetches != null) {
                internalFetches.apply(e);
            }
            return true;
        }
        input.reportEnd(ctx);
        return false;
    }

    /**
     * Drops the fetch memcached logs inside a store: the get of the same key that came just before
     * the store on the same connection, if it is still unsent. It needs each client's commands in
     * the log's order, so a log read in parts does it after putting them back in order.
     */
    static final class InternalFetches implements InOrderStep {
        private final ReaderContext ctx;
        /** Per client: the last command read and its generation. */
        private LogEntry[] lastByClient = new LogEntry[64];
        private int[] lastGeneration = new int[64];

        InternalFetches(ReaderContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public void apply(LogEntry e) {
            if (e.command != Command.GET) {
                dropInternalFetch(e);
            }
            remember(e);
        }

        private void dropInternalFetch(LogEntry store) {
            int c = store.client;
            if (c >= lastByClient.length) {
                return;
            }
            LogEntry last = lastByClient[c];
            if (last != null && last.generation == lastGeneration[c] && last.inWindow && last.command == Command.GET
                    && !last.dropped && Arrays.equals(last.keys, 0, last.keyLength(0), store.keys, 0, store.keyLength(0))) {
                last.dropped = true;
                ctx.stats.skip(INTERNAL_FETCH);
            }
        }

        private void remember(LogEntry e) {
            int c = e.client;
            if (c >= lastByClient.length) {
                lastByClient = Arrays.copyOf(lastByClient, Math.max(c + 1, lastByClient.length * 2));
                lastGeneration = Arrays.copyOf(lastGeneration, lastByClient.length);
            }
            lastByClient[c] = e;
            lastGeneration[c] = e.generation;
        }
    }

    /** Finds the fields of a line; returns what is wrong with it, or null. */
    private String fields(byte[] b, int from, int to) {
        tsFrom = gidFrom = typeFrom = keyFrom = cmdFrom = ttlFrom = cfdFrom = sizeFrom = -1;
        int p = from;
        while (p < to) {
            int wordEnd = p;
            while (wordEnd < to && b[wordEnd] != ' ') {
                wordEnd++;
            }
            int eq = p;
            while (eq < wordEnd && b[eq] != '=') {
                eq++;
            }
            if (eq < wordEnd) {
                int v = eq + 1;
                switch (eq - p) {
                    case 2 -> {
                        if (b[p] == 't' && b[p + 1] == 's') {
                            tsFrom = v;
                            tsTo = wordEnd;
                        }
                    }
                    case 3 -> {
                        if (is(b, p, eq, "gid")) {
                            gidFrom = v;
                            gidTo = wordEnd;
                        } else if (is(b, p, eq, "key")) {
                            keyFrom = v;
                            keyTo = wordEnd;
                        } else if (is(b, p, eq, "cmd")) {
                            cmdFrom = v;
                            cmdTo = wordEnd;
                        } else if (is(b, p, eq, "ttl")) {
                            ttlFrom = v;
                            ttlTo = wordEnd;
                        } else if (is(b, p, eq, "cfd")) {
                            cfdFrom = v;
                            cfdTo = wordEnd;
                        }
                    }
                    case 4 -> {
                        if (is(b, p, eq, "type")) {
                            typeFrom = v;
                            typeTo = wordEnd;
                        } else if (is(b, p, eq, "size")) {
                            sizeFrom = v;
                            sizeTo = wordEnd;
                        }
                    }
                    default -> {
                    }
                }
            }
            p = wordEnd + 1;
        }
        if (tsFrom < 0) {
            return "not a watch line (no ts=)";
        }
        if (gidFrom < 0 || typeFrom < 0) {
            return "truncated line (no " + (gidFrom < 0 ? "gid" : "type") + "=)";
        }
        return null;
    }

    private boolean decodeKey(byte[] b, LogEntry e) {
        byte[] prefix = ctx.keyPrefix;
        int p = prefix == null ? 0 : prefix.length;
        int start = e.beginKey(p + keyTo - keyFrom);
        byte[] k = e.keys;
        int out = start;
        if (p > 0) {
            System.arraycopy(prefix, 0, k, out, p);
            out += p;
        }
        for (int i = keyFrom; i < keyTo; i++) {
            byte c = b[i];
            if (c == '%') {
                if (i + 2 >= keyTo) {
                    return false;
                }
                int hi = Ascii.hexDigit(b[i + 1]);
                int lo = Ascii.hexDigit(b[i + 2]);
                if (hi < 0 || lo < 0) {
                    return false;
                }
                k[out++] = (byte) (hi << 4 | lo);
                i += 2;
            } else {
                k[out++] = c;
            }
        }
        e.endKey(out);
        return true;
    }

    private static boolean is(byte[] b, int from, int to, String text) {
        if (to - from != text.length()) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            if (b[from + i] != text.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static int digit(byte c) {
        return c >= '0' && c <= '9' ? c - '0' : -1_000_000_000;
    }

    /** A decimal number (an optional minus sign), or Long.MIN_VALUE when it is none. */
    static long number(byte[] b, int from, int to) {
        if (from >= to || to - from > 18) {
            return Long.MIN_VALUE;
        }
        boolean negative = b[from] == '-';
        int p = negative ? from + 1 : from;
        if (p == to) {
            return Long.MIN_VALUE;
        }
        long n = 0;
        for (; p < to; p++) {
            byte c = b[p];
            if (c < '0' || c > '9') {
                return Long.MIN_VALUE;
            }
            n = n * 10 + (c - '0');
        }
        return negative ? -n : n;
    }
}
