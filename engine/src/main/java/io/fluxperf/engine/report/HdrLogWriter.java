package io.fluxperf.engine.report;

import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.WindowResult;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes the latency of every window as an HdrHistogram interval log (--hdr-log FILE), so that
 * HdrHistogram's own tools (HistogramLogProcessor, HdrHistogramVisualizer, …) can re-slice the run
 * after the fact. Per window: one tag-less histogram for all workloads (what the tools process by
 * default) and one per workload, tagged {@code workload-<index>-<name>}. The format itself is
 * written by {@link IntervalLog}, as the run directory's logs are.
 */
public final class HdrLogWriter implements Closeable {
    private static final String COMMENT =
            "fluxperf latency per window, ns (untagged: all workloads; Tag=workload-<i>-<name>: one workload)";

    private final IntervalLog log;
    private final long startEpochMillis;
    private final Path file;

    private HdrLogWriter(Path file, IntervalLog log, long startEpochMillis) {
        this.file = file;
        this.log = log;
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
        try {
            return new HdrLogWriter(file, IntervalLog.create(file, startEpochMillis, COMMENT), startEpochMillis);
        } catch (FileSystemException e) {
            throw e; // opening failed: it names the file and the reason itself
        } catch (IOException e) {
            throw failed(file, e);
        }
    }

    /**
     * Writes the window's histograms.
     *
     * @param windowStartSecondsSinceRunStart when the window started, seconds after the start time given to {@link #start}
     */
    public void window(WindowResult window, double windowStartSecondsSinceRunStart) throws IOException {
        long start = startEpochMillis * 1_000_000L + Math.round(windowStartSecondsSinceRunStart * 1e9);
        long end = start + Math.round(window.seconds() * 1e9);
        log.interval(start, end, null, window.total().latency());
        List<WorkloadConfig> configs = window.workloadConfigs();
        for (int i = 0; i < window.workloads().size(); i++) {
            String name = configs != null && i < configs.size() ? configs.get(i).name() : "";
            log.interval(start, end, tag(i, name), window.workloads().get(i).latency());
        }
        try {
            log.flush();
        } catch (IOException e) {
            throw failed(file, e);
        }
    }

    /** The tag of workload {@code index}: the log format ends a tag at ',' and the tools split on spaces. */
    static String tag(int index, String name) {
        String clean = name == null ? "" : name.replaceAll("[^A-Za-z0-9._-]", "_");
        return "workload-" + index + (clean.isEmpty() ? "" : "-" + clean);
    }

    /** A failed write, in --hdr-log's own words (the interval log's words are the run directory's). */
    private static IOException failed(Path file, IOException e) {
        return new IOException("could not write the HdrHistogram log " + file, e);
    }

    @Override
    public void close() throws IOException {
        try {
            log.close();
        } catch (IOException e) {
            throw failed(file, e);
        }
    }
}
