package io.fluxperf.engine.protocol.memcache.log;

import io.fluxperf.engine.log.ClientTable;
import io.fluxperf.engine.log.InOrderStep;
import io.fluxperf.engine.log.LineLogReader;
import io.fluxperf.engine.log.LineReader;
import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.log.LogInput;
import io.fluxperf.engine.log.ReaderContext;
import io.fluxperf.engine.log.SecondCounts;
import io.fluxperf.engine.log.SpaceTokens;
import io.fluxperf.engine.request.Command;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Set;

/**
 * Reads twemcache's command log (klog), one line per command:
 * <pre>
 * 172.25.135.205:55438 - [09/Jul/2012:18:15:45 -0700] "get foo" 0 14
 * 172.25.135.205:55438 - [09/Jul/2012:18:15:45 -0700] "set foo 0 0 3" 1 6
 * </pre>
 * the peer, the time (one-second resolution), the command line (a get logs one key per line;
 * other commands their whole header), the status and the reply length. Values are synthesised at
 * the size the header announces; a cas carries its logged unique.
 *
 * <p>Timing: the timestamps have one-second resolution, so the commands of each second are spread
 * evenly across it (a second with n commands sends them at k/n s, k = 0 … n-1, in log order). That
 * needs the count of each second, taken by a first pass over the log ({@link #countSeconds}).
 */
final class KlogReader extends LineLogReader {
    static final String SPREAD_NOTE = "klog timestamps have one-second resolution: each second's commands are"
            + " spread evenly across it";
    private static final Set<String> ADMIN = Set.of("version", "stats", "verbosity", "quit", "shutdown");
    private static final int MAX_TOKENS = 64;
    private static final String[] MONTHS = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
            "Nov", "Dec"};

    /** Spreads each second's commands over it; null in a part's reader (the split reader does it in order). */
    private final InOrderStep spread;
    private final ClientTable clients;
    private final SpaceTokens words = new SpaceTokens(MAX_TOKENS);
    private final int[] tokenFrom = words.from;
    private final int[] tokenTo = words.to;

    /**
     * @param perSecond commands per second from {@link #countSeconds}; null for the reader of a part
     *                  of the log, whose commands keep their whole second until
     *                  {@link SecondCounts#spreading} completes them in the log's order
     */
    KlogReader(LogInput input, ReaderContext ctx, SecondCounts perSecond) {
        super(input, 1 << 16, ctx);
        this.spread = perSecond == null ? null : perSecond.spreading();
        this.clients = ctx.newClientTable();
    }

    /** Counts the lines of each second (epoch seconds → {count}) in one pass; unparsable lines are ignored here. */
    static SecondCounts countSeconds(LogInput input) {
        SecondCounts.Builder counts = new SecondCounts.Builder();
        try (input) {
            LineReader lines = new LineReader(input.stream(), 1 << 16);
            while (lines.next()) {
                long s = second(lines.buffer(), lines.start(), lines.end());
                if (s != Long.MIN_VALUE) {
                    counts.add(s);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return counts.build();
    }

    @Override
    public boolean next(LogEntry e) throws IOException {
        while (nextLine()) {
            long n = lines.lineNumber();
            byte[] b = lines.buffer();
            int from = lines.start();
            int to = lines.end();
            if (from == to) {
                continue;
            }
            e.reset();
            String error = parse(b, from, to, e);
            if (error == null) {
                e.line = n;
                e.position = input.filePosition();
                if (spread != null) {
                    spread.apply(e);
                }
                return true;
            }
            if (!error.isEmpty()) {
                ctx.bad.add(ctx.place(n), error);
            }
        }
        input.reportEnd(ctx);
        return false;
    }

    private String parse(byte[] b, int from, int to, LogEntry e) {
        int peerEnd = find(b, from, to, " - [");
        if (peerEnd < 0) {
            return "not a klog line (no ' - [' after the peer)";
        }
        long second = second(b, from, to);
        if (second == Long.MIN_VALUE) {
            return "bad or truncated time in [...]";
        }
        int close = find(b, peerEnd, to, "] \"");
        if (close < 0) {
            return "truncated line (no command)";
        }
        int cmdStart = close + 3;
        // from the end: "<cmd>" <status> <length>
        int p = to;
        int lengthDigits = 0;
        while (p > cmdStart && b[p - 1] >= '0' && b[p - 1] <= '9') {
            p--;
            lengthDigits++;
        }
        if (lengthDigits == 0 || p <= cmdStart || b[p - 1] != ' ') {
            return "truncated line (no status and length after the command)";
        }
        p--;
        int statusDigits = 0;
        while (p > cmdStart && b[p - 1] >= '0' && b[p - 1] <= '9') {
            p--;
            statusDigits++;
        }
        if (p > cmdStart && b[p - 1] == '-') {
            p--;
        }
        if (statusDigits == 0 || p - 2 < cmdStart || b[p - 1] != ' ' || b[p - 2] != '"') {
            return "truncated line (no status and length after the command)";
        }
        int cmdEnd = p - 2;
        int tokens = words.split(b, cmdStart, cmdEnd);
        if (tokens == 0) {
            return "empty command";
        }
        int verbId = ctx.verbs.id(b, tokenFrom[0], tokenTo[0]);
        String verb = ctx.verbs.name(verbId);
        Command c = MemcacheVerbs.command(verb);
        if (c == null) {
            if (ADMIN.contains(verb)) {
                ctx.stats.skip("admin command (" + verb + ")");
                return "";
            }
            return "unknown command '" + MemcacheAsciiReader.printable(verb) + "'";
        }
        e.command(c);
        e.verb = verbId;
        switch (c) {
            case GET, GETS, DELETE -> {
                if (tokens < 2) {
                    return "truncated line (" + verb + " without a key)";
                }
                int keys = c == Command.DELETE ? 2 : tokens;
                for (int i = 1; i < keys; i++) {
                    e.addKey(ctx.keyPrefix, b, tokenFrom[i], tokenTo[i] - tokenFrom[i]);
                }
            }
            case SET, ADD, REPLACE, APPEND, PREPEND, CAS -> {
                int needed = c == Command.CAS ? 6 : 5;
                if (tokens < needed) {
                    return "truncated line (" + verb + " needs " + (needed - 1) + " arguments)";
                }
                long exptime = MemcacheWatchReader.number(b, tokenFrom[3], tokenTo[3]);
                long bytes = MemcacheWatchReader.number(b, tokenFrom[4], tokenTo[4]);
                if (bytes < 0 || bytes > (1 << 30) || exptime == Long.MIN_VALUE) {
                    return "bad exptime or byte count in " + verb;
                }
                if (c == Command.CAS) {
                    e.numeric = Math.max(0, MemcacheWatchReader.number(b, tokenFrom[5], tokenTo[5]));
                }
                e.addKey(ctx.keyPrefix, b, tokenFrom[1], tokenTo[1] - tokenFrom[1]);
                e.ttlSeconds = (int) Math.max(0, Math.min(Integer.MAX_VALUE, exptime));
                e.synthSize = (int) bytes;
            }
            case INCR, DECR, TOUCH -> {
                long v = tokens < 3 ? Long.MIN_VALUE : MemcacheWatchReader.number(b, tokenFrom[2], tokenTo[2]);
                if (v < 0) {
                    return tokens < 3 ? "truncated line (" + verb + " needs a key and a number)" : "bad number in " + verb;
                }
                e.addKey(ctx.keyPrefix, b, tokenFrom[1], tokenTo[1] - tokenFrom[1]);
                if (c == Command.TOUCH) {
                    e.ttlSeconds = (int) Math.min(Integer.MAX_VALUE, v);
                } else {
                    e.numeric = v;
                }
            }
            case FLUSH -> {
                if (!ctx.allowFlush) {
                    ctx.stats.skip("flush (replayed only with --allow-flush)");
                    return "";
                }
            }
            default -> throw new IllegalStateException(c.toString());
        }
        e.client = clients.id(b, from, peerEnd);
        e.timeNanos = second * 1_000_000_000L; // the place in its second: SecondCounts.spreading()
        e.sortKey = e.timeNanos;
        return null;
    }

    /** Epoch seconds of the {@code [dd/Mon/yyyy:HH:MM:SS +zzzz]} in a klog line, or Long.MIN_VALUE. */
    static long second(byte[] b, int from, int to) {
        int open = find(b, from, to, " - [");
        if (open < 0) {
            return Long.MIN_VALUE;
        }
        int p = open + 4;
        if (p + 27 > to || b[p + 2] != '/' || b[p + 6] != '/' || b[p + 11] != ':' || b[p + 14] != ':'
                || b[p + 17] != ':' || b[p + 20] != ' ' || b[p + 26] != ']') {
            return Long.MIN_VALUE;
        }
        int day = digits(b, p, 2);
        int month = -1;
        for (int m = 0; m < 12; m++) {
            String name = MONTHS[m];
            if (b[p + 3] == name.charAt(0) && b[p + 4] == name.charAt(1) && b[p + 5] == name.charAt(2)) {
                month = m + 1;
                break;
            }
        }
        int year = digits(b, p + 7, 4);
        int hour = digits(b, p + 12, 2);
        int minute = digits(b, p + 15, 2);
        int sec = digits(b, p + 18, 2);
        byte sign = b[p + 21];
        int zone = digits(b, p + 22, 4);
        if (day < 1 || day > 31 || month < 0 || year < 0 || hour < 0 || hour > 23 || minute < 0 || minute > 59
                || sec < 0 || sec > 60 || zone < 0 || (sign != '+' && sign != '-')) {
            return Long.MIN_VALUE;
        }
        long offset = (zone / 100) * 3600L + (zone % 100) * 60L;
        long epochDay = daysFromCivil(year, month, day);
        return epochDay * 86_400L + hour * 3600L + minute * 60L + sec - (sign == '+' ? offset : -offset);
    }

    /** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
    static long daysFromCivil(int y, int m, int d) {
        y -= m <= 2 ? 1 : 0;
        long era = (y >= 0 ? y : y - 399) / 400;
        long yoe = y - era * 400;
        long doy = (153L * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
        long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        return era * 146_097 + doe - 719_468;
    }

    private static int digits(byte[] b, int from, int count) {
        int v = 0;
        for (int i = from; i < from + count; i++) {
            if (b[i] < '0' || b[i] > '9') {
                return -1;
            }
            v = v * 10 + (b[i] - '0');
        }
        return v;
    }

    private static int find(byte[] b, int from, int to, String text) {
        int n = text.length();
        outer:
        for (int i = from; i + n <= to; i++) {
            for (int k = 0; k < n; k++) {
                if (b[i + k] != text.charAt(k)) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

}
