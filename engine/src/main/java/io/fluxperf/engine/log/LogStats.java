package io.fluxperf.engine.log;

import io.fluxperf.engine.Printable;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the reader saw and did, for the fidelity report: commands read, lines skipped by reason,
 * late lines, the log's own time span. Written by the reader thread; the progress figures are
 * volatile for the progress line, the rest is read after the reader has stopped. What was
 * replayed is counted where it is sent, not here: the reader deals commands ahead of their time.
 */
public final class LogStats {
    private final Map<String, long[]> skipped = new LinkedHashMap<>();
    private final Map<String, long[]> adjusted = new LinkedHashMap<>();
    /** Commands dealt out to the load threads, all loops (some may still wait there when a run stops). */
    public volatile long dealt;
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

    /** A line not replayed, for {@code reason} (it may quote the line: escaped, {@link Printable}). */
    public void skip(String reason) {
        skipped.computeIfAbsent(Printable.quote(reason), r -> new long[1])[0]++;
    }

    /** A command replayed differently from how it was logged (e.g. noreply dropped), by what was changed. */
    public void adjust(String what) {
        adjusted.computeIfAbsent(Printable.quote(what), r -> new long[1])[0]++;
    }

    /** Whether any line was skipped or command adjusted (what {@link #add} would move). */
    public boolean anySkippedOrAdjusted() {
        return !skipped.isEmpty() || !adjusted.isEmpty();
    }

    /** Adds the lines {@code part} skipped and the commands it adjusted (a part of a log read by several threads). */
    public void add(LogStats part) {
        part.skipped.forEach((k, v) -> skipped.computeIfAbsent(k, r -> new long[1])[0] += v[0]);
        part.adjusted.forEach((k, v) -> adjusted.computeIfAbsent(k, r -> new long[1])[0] += v[0]);
        part.skipped.clear();
        part.adjusted.clear();
    }

    public Map<String, Long> adjusted() {
        Map<String, Long> out = new LinkedHashMap<>();
        adjusted.forEach((k, v) -> out.put(k, v[0]));
        return out;
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

    /** Counts by verb id as counts by verb name, those above 0 in order of their ids (first appearance). */
    public static Map<String, Long> byVerb(long[] counts, VerbTable verbs) {
        Map<String, Long> out = new LinkedHashMap<>();
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] > 0) {
                out.merge(Printable.quote(verbs.name(i)), counts[i], Long::sum); // a log's word, for reports
            }
        }
        return out;
    }
}
