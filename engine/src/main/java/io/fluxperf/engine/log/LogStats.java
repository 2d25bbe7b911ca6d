package io.fluxperf.engine.log;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the reader saw and did, for the fidelity report: commands read and replayed per verb,
 * lines skipped by reason, late lines, the log's own time span. Written by the reader thread;
 * the progress figures are volatile for the progress line, the rest is read after the reader
 * has stopped.
 */
public final class LogStats {
    private final Map<String, long[]> skipped = new LinkedHashMap<>();
    private final Map<String, long[]> adjusted = new LinkedHashMap<>();
    private long[] replayedByVerb = new long[16];
    /** Commands released to the load by their original reply ({@code LogEntry.REPLY_*}), all loops. */
    private final long[] originalReplies = new long[4];
    /** Of those, reads whose original reply found their keys, and reads that missed. */
    private long originalReadHits;
    private long originalReadMisses;
    /** Commands released to the load, all loops. */
    public volatile long replayed;
    /** Lines (or records) read, first loop. */
    public long lines;
    /** Commands read, first loop, before --only. */
    public long commands;
    /** Commands that came later than the read-ahead could sort, sent at once. */
    public long late;
    /** Filtered out by --only, all loops. */
    public long filtered;
    /** Log time of the first and last command of the first loop (ns on the log's clock), or NO_TIME. */
    public long firstTime = LogEntry.NO_TIME;
    public long lastTime = LogEntry.NO_TIME;
    /** The last command's send offset, ns after the start: what the replay should take. */
    public long lastOffsetNanos;
    public boolean anyScheduled;
    /** Original clients seen (their indexes are dense from 0). */
    public int clients;

    // progress (volatile: read by the progress line)
    public volatile int loop = 1;
    public volatile long position;
    public volatile long size = -1;
    public volatile long line;

    public void skip(String reason) {
        skipped.computeIfAbsent(reason, r -> new long[1])[0]++;
    }

    /** A command replayed differently from how it was logged (e.g. noreply dropped), by what was changed. */
    public void adjust(String what) {
        adjusted.computeIfAbsent(what, r -> new long[1])[0]++;
    }

    public Map<String, Long> adjusted() {
        Map<String, Long> out = new LinkedHashMap<>();
        adjusted.forEach((k, v) -> out.put(k, v[0]));
        return out;
    }

    public void replayed(int verb) {
        if (verb >= replayedByVerb.length) {
            replayedByVerb = java.util.Arrays.copyOf(replayedByVerb, Math.max(verb + 1, replayedByVerb.length * 2));
        }
        replayedByVerb[verb]++;
        replayed++;
    }

    /**
     * A command released to the load, by what the original server answered it (a log that holds
     * replies: a packet capture), for the fidelity block's original hit rate.
     */
    public void original(io.fluxperf.engine.request.Command command, byte reply) {
        originalReplies[reply]++;
        if (command != null && command.isRead()) {
            if (reply == LogEntry.REPLY_OK) {
                originalReadHits++;
            } else if (reply == LogEntry.REPLY_MISS) {
                originalReadMisses++;
            }
        }
    }

    /**
     * Released commands by original reply: {unknown, ok, miss, error, read hits, read misses} (the
     * first four indexed by {@code LogEntry.REPLY_*}).
     */
    public long[] originalReplies() {
        return new long[] {originalReplies[0], originalReplies[1], originalReplies[2], originalReplies[3],
            originalReadHits, originalReadMisses};
    }

    /** Skipped lines by reason (bad lines are counted by {@link BadLines}). */
    public Map<String, Long> skipped() {
        Map<String, Long> out = new LinkedHashMap<>();
        skipped.forEach((k, v) -> out.put(k, v[0]));
        return out;
    }

    public long skippedTotal() {
        long n = 0;
        for (long[] v : skipped.values()) {
            n += v[0];
        }
        return n;
    }

    /** Commands replayed per verb, in order of first appearance. */
    public Map<String, Long> replayedByVerb(VerbTable verbs) {
        return byVerb(replayedByVerb, verbs);
    }

    private static Map<String, Long> byVerb(long[] counts, VerbTable verbs) {
        Map<String, Long> out = new LinkedHashMap<>();
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] > 0) {
                out.merge(verbs.name(i), counts[i], Long::sum);
            }
        }
        return out;
    }
}
