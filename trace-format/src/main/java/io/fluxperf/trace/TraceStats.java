package io.fluxperf.trace;

import org.HdrHistogram.Histogram;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Counts and latencies of a trace in one streaming pass: requests per outcome, per command and per
 * workload; first send and last completion, duration and rate; a latency histogram made by
 * {@link LatencyHistograms#create()} (the run report's own setting). Warm-up records are left out
 * unless asked for, as the run report leaves them out. Memory is constant in the number of records.
 *
 * <p>Use {@link #compute(TraceReader, Latency, boolean)}, or feed records to {@link #add(TraceRecord)}.
 */
public final class TraceStats {

    private final TraceHeader header;
    private final Latency latency;
    private final boolean includeWarmup;
    private final Histogram histogram = LatencyHistograms.create();
    private final long[] outcomes = new long[Outcome.COUNT];
    /** Per command code: requests per outcome, flat (code * OUTCOMES + outcome); the last column counts all. */
    private final long[] commands = new long[256 * COLUMNS];
    /** Per workload index, as for commands; grows with the highest index seen. */
    private long[] workloads = new long[16 * COLUMNS];
    private static final int COLUMNS = Outcome.COUNT + 1;
    private Path source;
    private long requests;
    private long otherOutcomes;
    private long warmupSkipped;
    private long clampedLatencies;
    private long firstSendNanos = Long.MAX_VALUE;
    private long lastCompletionNanos = Long.MIN_VALUE;
    private String truncationWarning;

    public TraceStats(TraceHeader header, Latency latency, boolean includeWarmup) {
        this.header = header;
        this.latency = latency;
        this.includeWarmup = includeWarmup;
    }

    /**
     * Reads the rest of the trace and counts it.
     *
     * @param latency       which latency the histogram holds
     * @param includeWarmup count warm-up records too (the run report leaves them out)
     */
    public static TraceStats compute(TraceReader reader, Latency latency, boolean includeWarmup) {
        TraceStats stats = new TraceStats(reader.header(), latency, includeWarmup);
        TraceRecord r = new TraceRecord();
        while (reader.next(r)) {
            stats.add(r);
        }
        stats.truncationWarning = reader.warning().orElse(null);
        stats.source = reader.directory();
        return stats;
    }

    /** Counts one record. */
    public void add(TraceRecord r) {
        if (r.warmup() && !includeWarmup) {
            warmupSkipped++;
            return;
        }
        requests++;
        int o = r.outcome();
        if (o < Outcome.COUNT) {
            outcomes[o]++;
        } else {
            otherOutcomes++;
        }
        count(commands, r.command(), o);
        int w = r.workload();
        if ((w + 1) * COLUMNS > workloads.length) {
            workloads = Arrays.copyOf(workloads, Math.max((w + 1) * COLUMNS, workloads.length * 2));
        }
        count(workloads, w, o);
        firstSendNanos = Math.min(firstSendNanos, r.intendedSendNanos());
        lastCompletionNanos = Math.max(lastCompletionNanos, r.completionNanos());
        if (!LatencyHistograms.record(histogram, latency.nanos(r))) {
            clampedLatencies++;
        }
    }

    private static void count(long[] table, int code, int outcome) {
        table[code * COLUMNS + Outcome.COUNT]++;
        if (outcome < Outcome.COUNT) {
            table[code * COLUMNS + outcome]++;
        }
    }

    public TraceHeader header() {
        return header;
    }

    public Latency latency() {
        return latency;
    }

    /** Requests counted (warm-up left out unless included). Equals the sum of the outcome counts. */
    public long requests() {
        return requests;
    }

    /** Requests with this outcome code ({@link Outcome}). */
    public long outcomeCount(int outcome) {
        return outcomes[outcome];
    }

    /** Requests whose outcome code is outside the known table (0 in a healthy trace). */
    public long otherOutcomes() {
        return otherOutcomes;
    }

    /** Requests of a command code. */
    public long commandCount(int command) {
        return commands[command * COLUMNS + Outcome.COUNT];
    }

    /** Requests of a command code with an outcome code. */
    public long commandCount(int command, int outcome) {
        return commands[command * COLUMNS + outcome];
    }

    /** Requests of a workload index. */
    public long workloadCount(int workload) {
        return workload * COLUMNS < workloads.length ? workloads[workload * COLUMNS + Outcome.COUNT] : 0;
    }

    /** Requests of a workload index with an outcome code. */
    public long workloadCount(int workload, int outcome) {
        return workload * COLUMNS < workloads.length ? workloads[workload * COLUMNS + outcome] : 0;
    }

    /** Warm-up records left out. */
    public long warmupSkipped() {
        return warmupSkipped;
    }

    /** Latencies outside the histogram's range (negative or above an hour), recorded clamped. */
    public long clampedLatencies() {
        return clampedLatencies;
    }

    /** Earliest intended send time, ns since the clock origin (0 when no request was counted). */
    public long firstSendNanos() {
        return requests == 0 ? 0 : firstSendNanos;
    }

    /** Latest completion time, ns since the clock origin (0 when no request was counted). */
    public long lastCompletionNanos() {
        return requests == 0 ? 0 : lastCompletionNanos;
    }

    /** From the first intended send to the last completion, ns. */
    public long durationNanos() {
        return requests == 0 ? 0 : Math.max(0, lastCompletionNanos - firstSendNanos);
    }

    /** Requests per second over {@link #durationNanos()}. */
    public double ratePerSecond() {
        long d = durationNanos();
        return d == 0 ? 0 : requests * 1e9 / d;
    }

    /** The latency histogram, ns. Do not modify. */
    public Histogram histogram() {
        return histogram;
    }

    /** The reader's warning (truncated, lost records), when the trace was not whole. */
    public String truncationWarning() {
        return truncationWarning;
    }

    /**
     * The report, in the run report's words ({@code Requests:}, {@code Rate:}, {@code Latency:},
     * {@code Percentiles:} as the run prints them), then one line per command and per workload; the
     * truncation warning first, if any.
     */
    public List<String> reportLines() {
        List<String> lines = new ArrayList<>();
        if (truncationWarning != null) {
            lines.add("WARNING: " + truncationWarning);
        }
        lines.addAll(figureLines());
        return lines;
    }

    /**
     * The report without the truncation warning: what {@code trace stats} prints on standard
     * output, the warning going to standard error as every command's warnings do.
     */
    public List<String> figureLines() {
        List<String> lines = new ArrayList<>();
        lines.add("Trace: " + (source == null ? "" : source + " ") + "format " + header.formatVersion() + ", fluxperf "
                + header.fluxperfVersion() + ", started " + Instant.ofEpochSecond(0, header.clockOriginEpochNanos()));
        lines.add(String.format(Locale.ROOT, "Window: %.3f s, from %.3f s to %.3f s after the start%s",
                durationNanos() / 1e9, firstSendNanos() / 1e9, lastCompletionNanos() / 1e9,
                warmupSkipped > 0 ? " (warm-up left out: " + warmupSkipped + " requests)" : ""));
        long ok = outcomes[Outcome.OK];
        long miss = outcomes[Outcome.MISS];
        lines.add(counts(outcomes, 0, requests) + (otherOutcomes > 0 ? " Unknown: " + otherOutcomes : ""));
        lines.add("Rate: " + Math.round(ratePerSecond()) + " rps Success: " + percent(ok + miss, requests)
                + " Hitrate: " + percent(ok, ok + miss));
        boolean empty = histogram.getTotalCount() == 0;
        lines.add("Latency: min: " + (empty ? 0 : histogram.getMinValue()) + " ns max: " + histogram.getMaxValue()
                + " ns avg: " + Math.round(histogram.getMean()) + " ns stddev: "
                + Math.round(empty ? 0 : histogram.getStdDeviation()) + " ns");
        StringBuilder p = new StringBuilder("Percentiles:");
        for (int i = 0; i < LatencyHistograms.PERCENTILES.size(); i++) {
            p.append(' ').append(LatencyHistograms.PERCENTILE_LABELS.get(i)).append(": ")
                    .append(histogram.getValueAtPercentile(LatencyHistograms.PERCENTILES.get(i))).append(" ns");
        }
        lines.add(p.toString());
        lines.add("Latency measured: " + latency.label() + (latency == Latency.INTENDED
                ? " (completion - intended send)" : " (completion - actual send)")
                + (clampedLatencies > 0 ? "; " + clampedLatencies + " values out of range were clamped" : ""));
        for (int c = 0; c < 256; c++) {
            if (commandCount(c) > 0) {
                lines.add("Command " + header.commandName(c) + ": " + counts(commands, c * COLUMNS, commandCount(c)));
            }
        }
        for (int w = 0; w * COLUMNS < workloads.length; w++) {
            if (workloadCount(w) > 0) {
                lines.add("Workload " + w + " (" + header.workloadName(w) + "): "
                        + counts(workloads, w * COLUMNS, workloadCount(w)));
            }
        }
        return lines;
    }

    private static String counts(long[] table, int offset, long requests) {
        return "Requests: " + requests + " Ok: " + table[offset + Outcome.OK] + " Miss: " + table[offset + Outcome.MISS]
                + " Error: " + table[offset + Outcome.ERROR] + " Timeout: " + table[offset + Outcome.TIMEOUT]
                + " Closed: " + table[offset + Outcome.CLOSED];
    }

    /** As the run report: two decimals and a percent sign, or n/a when there is nothing to divide. */
    private static String percent(long part, long whole) {
        return whole == 0 ? "n/a" : String.format(Locale.ROOT, "%.2f %%", 100.0 * part / whole);
    }
}
