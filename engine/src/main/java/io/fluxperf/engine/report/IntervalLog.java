package io.fluxperf.engine.report;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * One HdrHistogram interval log, the only writer of that format here: a run directory's
 * {@code windows.hlog} and {@code seconds.hlog}, and {@code --hdr-log}'s file
 * ({@link HdrLogWriter}). Tagged intervals whose timestamps are seconds after the log's base time,
 * the run's start in milliseconds since the epoch, so that logs of runs on several machines line
 * up by wall-clock time. Values are ns; the "max" column is in ms, as HdrHistogram's tools expect.
 * Written by one thread (the run's).
 */
public final class IntervalLog implements Closeable {
    /** ns to ms, the unit HdrHistogram's tools assume for the max column. */
    static final double MAX_VALUE_UNIT_RATIO = 1_000_000.0;

    private final Path file;
    private final PrintStream stream;
    private final HistogramLogWriter log;
    private final long baseEpochMillis;
    /**
     * The interval as written: tagged and stamped here, not in the caller's histogram. One copy,
     * reused: a fresh one per interval (its counts and its encoding buffer) would be garbage made
     * every second of a measured window, and bring collections into it.
     */
    private Histogram scratch;

    private IntervalLog(Path file, PrintStream stream, long baseEpochMillis) {
        this.file = file;
        this.stream = stream;
        this.log = new HistogramLogWriter(stream);
        this.baseEpochMillis = baseEpochMillis;
    }

    /** Creates {@code file} and writes the header: a comment, the format version, start and base time, the legend. */
    public static IntervalLog create(Path file, long baseEpochMillis, String comment) throws IOException {
        PrintStream stream = new PrintStream(new BufferedOutputStream(Files.newOutputStream(file)), false,
                StandardCharsets.US_ASCII);
        IntervalLog l = new IntervalLog(file, stream, baseEpochMillis);
        l.log.outputComment(comment);
        l.log.outputLogFormatVersion();
        l.log.outputStartTime(baseEpochMillis);
        l.log.setBaseTime(baseEpochMillis);
        l.log.outputBaseTime(baseEpochMillis);
        l.log.outputLegend();
        l.flush();
        return l;
    }

    /**
     * Writes one interval of {@code h} (copied: the caller's histogram is not tagged or stamped).
     *
     * @param startEpochNanos the interval's start, ns since the epoch
     * @param endEpochNanos   its end
     * @param tag             WORKLOAD/KIND, or null for an untagged interval
     */
    public void interval(long startEpochNanos, long endEpochNanos, String tag, AbstractHistogram h) {
        if (scratch == null) {
            scratch = new Histogram(h); // long counts, whatever h's
        }
        h.copyInto(scratch);
        Histogram c = scratch;
        c.setTag(tag);
        c.setStartTimeStamp(startEpochNanos / 1_000_000L);
        c.setEndTimeStamp(endEpochNanos / 1_000_000L);
        double start = (startEpochNanos - baseEpochMillis * 1_000_000L) / 1e9;
        double end = (endEpochNanos - baseEpochMillis * 1_000_000L) / 1e9;
        log.outputIntervalHistogram(start, end, c, MAX_VALUE_UNIT_RATIO);
    }

    /**
     * Bytes this log holds from its first interval on: its copy's counts, and two encoding buffers
     * of that copy's worst case (HdrHistogram's writer keeps one, and the copy keeps the other for
     * its compression). docs/internals.md, "How memory grows".
     */
    public long histogramBytes() {
        return scratch == null ? 0 : scratch.getEstimatedFootprintInBytes() + 2L * scratch.getNeededByteBufferCapacity();
    }

    /** Writes what is buffered to the file. */
    public void flush() throws IOException {
        stream.flush();
        if (stream.checkError()) {
            throw new IOException("cannot write " + file);
        }
    }

    @Override
    public void close() throws IOException {
        stream.flush();
        boolean failed = stream.checkError();
        stream.close();
        if (failed) {
            throw new IOException("cannot write " + file);
        }
    }
}
