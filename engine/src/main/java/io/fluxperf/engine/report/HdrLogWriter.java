package io.fluxperf.engine.report;

import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.WindowResult;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * Writes the latency of every window as an HdrHistogram interval log (--hdr-log FILE), so that
 * HdrHistogram's own tools (HistogramLogProcessor, HdrHistogramVisualizer, …) can re-slice the run
 * after the fact. Per window: one tag-less histogram for all workloads (what the tools process by
 * default) and one per workload, tagged {@code workload-<index>-<name>}. Values are ns; the log's
 * "max" column is in ms, as the tools expect.
 */
public final class HdrLogWriter implements Closeable {
    /** ns to ms, the unit HdrHistogram's tools assume for the max column. */
    private static final double MAX_VALUE_UNIT_RATIO = 1_000_000.0;

    private final PrintStream stream;
    private final HistogramLogWriter log;
    private final long startEpochMillis;
    private final Path file;

    private HdrLogWriter(Path file, PrintStream stream, long startEpochMillis) {
        this.file = file;
        this.stream = stream;
        this.log = new HistogramLogWriter(stream);
        this.startEpochMillis = startEpochMillis;
    }

    /**
     * Opens {@code file} and writes the header: a comment, the log format version, the start time
     * and base time (so interval timestamps are seconds since the run started) and the legend.
     */
    public static HdrLogWriter start(Path file, long startEpochMillis) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        PrintStream stream = new PrintStream(new BufferedOutputStream(Files.newOutputStream(file)), false,
                StandardCharsets.US_ASCII);
        HdrLogWriter w = new HdrLogWriter(file, stream, startEpochMillis);
        w.log.outputComment("fluxperf latency per window, ns (untagged: all workloads; Tag=workload-<i>-<name>: one workload)");
        w.log.outputLogFormatVersion();
        w.log.outputStartTime(startEpochMillis);
        w.log.setBaseTime(startEpochMillis);
        w.log.outputBaseTime(startEpochMillis);
        w.log.outputLegend();
        w.checkError();
        return w;
    }

    /**
     * Writes the window's histograms.
     *
     * @param windowStartSecondsSinceRunStart when the window started, seconds after the start time given to {@link #start}
     */
    public void window(WindowResult window, double windowStartSecondsSinceRunStart) throws IOException {
        double start = windowStartSecondsSinceRunStart;
        double end = start + window.seconds();
        output(window.total().latency(), null, start, end);
        List<WorkloadConfig> configs = window.workloadConfigs();
        for (int i = 0; i < window.workloads().size(); i++) {
            String name = configs != null && i < configs.size() ? configs.get(i).name() : "";
            output(window.workloads().get(i).latency(), tag(i, name), start, end);
        }
        stream.flush();
        checkError();
    }

    private void output(Histogram latency, String tag, double startSec, double endSec) {
        // a copy: the engine's histogram is not ours to tag or stamp
        Histogram h = latency.copy();
        h.setTag(tag);
        h.setStartTimeStamp(startEpochMillis + Math.round(startSec * 1000));
        h.setEndTimeStamp(startEpochMillis + Math.round(endSec * 1000));
        log.outputIntervalHistogram(startSec, endSec, h, MAX_VALUE_UNIT_RATIO);
    }

    /** The tag of workload {@code index}: the log format ends a tag at ',' and the tools split on spaces. */
    static String tag(int index, String name) {
        String clean = name == null ? "" : name.replaceAll("[^A-Za-z0-9._-]", "_");
        return "workload-" + index + (clean.isEmpty() ? "" : "-" + clean);
    }

    private void checkError() throws IOException {
        if (stream.checkError()) {
            throw new IOException("could not write the HdrHistogram log " + file);
        }
    }

    @Override
    public void close() throws IOException {
        stream.flush();
        boolean failed = stream.checkError();
        log.close();
        if (failed) {
            throw new IOException("could not write the HdrHistogram log " + file);
        }
    }
}
