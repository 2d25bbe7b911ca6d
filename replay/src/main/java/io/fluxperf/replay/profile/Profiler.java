package io.fluxperf.replay.profile;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.log.BadLines;
import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.log.LogReader;
import io.fluxperf.engine.log.LogStats;
import io.fluxperf.engine.log.ReaderContext;
import io.fluxperf.engine.log.VerbTable;
import io.fluxperf.engine.request.Command;
import io.fluxperf.replay.ReadableLog;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One pass over a log's commands, through the reader a replay uses, adding up what
 * {@link LogProfile} reports. Memory: the distinct keys ({@link KeyCounts}: 28 bytes each plus the
 * key) and small tables of sizes, TTLs and seconds; nothing per request. Single-threaded.
 */
public final class Profiler {
    private final VerbTable verbs;
    private long requests;
    private long[] byVerb = new long[16];
    private long first = Long.MAX_VALUE;
    private long last = Long.MIN_VALUE;
    private final Counts perSecond = new Counts();
    private final BitSet clients = new BitSet();
    private final KeyCounts keys = new KeyCounts();
    private final Counts keySizes = new Counts();
    private final Counts valueSizes = new Counts();
    private final Counts writeSizes = new Counts();
    private final Counts writeTtls = new Counts();
    private long writes;
    private long hits;
    private long misses;

    /** @param verbs the table the log's reader names verbs in */
    public Profiler(VerbTable verbs) {
        this.verbs = verbs;
    }

    /**
     * Profiles {@code log} in one pass.
     *
     * @param strict the first bad line is an error (exit 2) rather than counted
     * @throws UserError when the log cannot be read, or (strict) at its first bad line
     */
    public static LogProfile of(ReadableLog log, boolean strict) {
        BadLines bad = new BadLines(strict);
        VerbTable verbs = new VerbTable();
        ReaderContext ctx = log.context(bad, verbs, new LogStats());
        Profiler p = new Profiler(verbs);
        long lines;
        try (LogReader reader = log.reader(ctx)) {
            LogEntry e = new LogEntry();
            while (reader.next(e.reset())) {
                p.add(e);
            }
            lines = reader.lines();
        } catch (IOException e) {
            throw new UserError(log.path() + ": cannot read: " + e.getMessage(), e);
        }
        if (p.requests == 0 && bad.count() > 0) {
            throw new UserError(bad.first().get(0) + " (no line of " + log.path() + " is a " + log.format().label()
                    + " command: " + bad.count() + " bad line" + (bad.count() == 1 ? "" : "s") + ")");
        }
        return p.finish(log.path().toString(), log.format().label(), log.compression(), log.protocol().name(), lines,
                bad.count(), bad.first(), log.notes());
    }

    /** Adds one command. */
    public void add(LogEntry e) {
        requests++;
        if (e.verb >= byVerb.length) {
            byVerb = Arrays.copyOf(byVerb, Math.max(e.verb + 1, byVerb.length * 2));
        }
        byVerb[e.verb]++;
        if (e.timeNanos != LogEntry.NO_TIME) {
            first = Math.min(first, e.timeNanos);
            last = Math.max(last, e.timeNanos);
            perSecond.add(Math.floorDiv(e.timeNanos, 1_000_000_000L));
        }
        if (e.client >= 0) {
            clients.set(e.client);
        }
        int firstKey = -1;
        for (int i = 0; i < e.keyCount; i++) {
            int id = keys.add(e.keys, e.keyStart(i), e.keyLength(i));
            keySizes.add(e.keyLength(i));
            if (i == 0) {
                firstKey = id;
            }
        }
        Command c = e.command;
        int value = valueSize(e);
        if (value >= 0) {
            valueSizes.add(value);
            if (firstKey >= 0) {
                keys.lastSize(firstKey, value);
            }
        }
        if (c != null && c.carriesValue()) {
            writes++;
            writeTtls.add(Math.max(0, e.ttlSeconds));
            if (value >= 0) {
                writeSizes.add(value);
            }
        }
        if (c != null && c.isRead()) {
            if (e.originalReply == LogEntry.REPLY_OK) {
                hits++;
            } else if (e.originalReply == LogEntry.REPLY_MISS) {
                misses++;
            }
        }
    }

    /** The value size the log gives for a command: a write's value, or the size a read returned; -1 for none. */
    static int valueSize(LogEntry e) {
        if (e.valueLogged) {
            return e.valueLength;
        }
        if (e.synthSize >= 0) {
            return e.synthSize;
        }
        if (e.valueArg >= 0 && e.valueArg < e.argCount) {
            return e.argLength(e.valueArg);
        }
        return e.readSize;
    }

    /** The figures, once every command was added. */
    public LogProfile finish(String log, String format, String compression, String protocol, long lines, long bad,
                             List<String> firstBad, List<String> notes) {
        boolean timed = first != Long.MAX_VALUE;
        Double seconds = timed ? (last - first) / 1e9 : null;
        Double rate = seconds != null && seconds > 0 ? requests / seconds : null;
        LogProfile.PeakSecond peak = null;
        if (timed) {
            long base = Math.floorDiv(first, 1_000_000_000L);
            for (Map.Entry<Long, Long> s : perSecond.sorted().entrySet()) {
                if (peak == null || s.getValue() > peak.requests()) {
                    peak = new LogProfile.PeakSecond(s.getKey() - base, s.getValue());
                }
            }
        }
        Map<String, Long> opCounts = new LinkedHashMap<>();
        for (int v = 0; v < byVerb.length; v++) {
            if (byVerb[v] > 0) {
                opCounts.merge(verbs.name(v), byVerb[v], Long::sum);
            }
        }
        List<Map.Entry<String, Long>> ordered = new ArrayList<>(opCounts.entrySet());
        ordered.sort(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder())
                .thenComparing(Map.Entry.comparingByKey()));
        Map<String, Double> shares = new LinkedHashMap<>();
        Map<String, Long> counts = new LinkedHashMap<>();
        for (Map.Entry<String, Long> o : ordered) {
            shares.put(o.getKey(), (double) o.getValue() / requests);
            counts.put(o.getKey(), o.getValue());
        }
        int n = keys.size();
        long once = 0;
        long workingSet = 0;
        int twice = 0;
        for (int id = 0; id < n; id++) {
            int count = keys.count(id);
            if (count == 1) {
                once++;
            } else {
                twice++;
            }
            workingSet += keys.length(id) + Math.max(0, keys.lastSize(id));
        }
        int[] popular = new int[twice];
        int k = 0;
        for (int id = 0; id < n; id++) {
            if (keys.count(id) >= 2) {
                popular[k++] = keys.count(id);
            }
        }
        TreeMap<Long, Long> ttlCounts = writeTtls.sorted();
        long withTtl = writes - ttlCounts.getOrDefault(0L, 0L);
        Map<Long, Double> ttl = new LinkedHashMap<>();
        for (Map.Entry<Long, Long> t : ttlCounts.entrySet()) {
            if (t.getKey() > 0) {
                ttl.put(t.getKey(), (double) t.getValue() / withTtl);
            }
        }
        long replied = hits + misses;
        return new LogProfile(log, format, compression, protocol, requests, seconds, rate, peak, clients.cardinality(),
                n, shares, keySizes.summary(), valueSizes.summary(), ZipfFit.alpha(popular), twice,
                n == 0 ? null : (double) once / n, ttl, withTtl, writes, workingSet,
                replied == 0 ? null : (double) hits / replied, replied, lines, bad, List.copyOf(firstBad),
                List.copyOf(notes), counts, writeSizes.sorted(), ttlCounts);
    }
}
