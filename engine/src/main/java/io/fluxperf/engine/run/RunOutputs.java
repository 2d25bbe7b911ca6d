package io.fluxperf.engine.run;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.report.HdrLogWriter;
import io.fluxperf.engine.report.JsonReport;
import io.fluxperf.engine.trace.RunTrace;
import io.fluxperf.trace.FileErrors;
import io.fluxperf.trace.TraceFormatException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The files a run writes besides its printed report: the JSON result ({@code --json}), the
 * HdrHistogram interval log ({@code --hdr-log}), the trace ({@code --trace}) and the config's
 * latency heatmap ({@link RunConfig#waterfall()}, drawn from the trace, or from a temporary one). All of them are
 * opened before the load starts, so that a long run never learns at its end that its result
 * cannot be written. Immutable; {@link #open} makes the files.
 *
 * @param json          the JSON result, or null
 * @param hdrLog        the HdrHistogram log, or null
 * @param trace         a new trace directory, or null
 * @param traceRequired stop the run when the trace cannot be written (a full disk)
 */
public record RunOutputs(Path json, Path hdrLog, Path trace, boolean traceRequired) {
    public RunOutputs {
        if (traceRequired && trace == null) {
            throw new UserError("--trace-required: needs --trace DIR");
        }
    }

    /** No file: the printed report only. */
    public static RunOutputs none() {
        return new RunOutputs(null, null, null, false);
    }

    /**
     * Opens every file the outputs name.
     *
     * @throws UserError naming the flag, the path and why when one cannot be written
     */
    public Opened open(RunConfig config) {
        Opened o = new Opened();
        try {
            if (json != null) {
                o.openJson(json);
            }
            if (hdrLog != null) {
                try {
                    o.hdr = HdrLogWriter.start(hdrLog, System.currentTimeMillis());
                    o.hdrPath = hdrLog;
                } catch (IOException e) {
                    throw new UserError("--hdr-log: cannot write " + hdrLog + ": " + FileErrors.describe(e), e);
                }
            }
            if (trace != null) {
                try {
                    o.trace = RunTrace.open(trace, config, new JsonReport().configJson(config));
                } catch (TraceFormatException e) {
                    throw new UserError("--trace: " + e.getMessage(), e);
                }
            }
            if (config.waterfall() != null) {
                o.openWaterfall(config, trace);
            }
            return o;
        } catch (RuntimeException e) {
            o.close();
            throw e;
        }
    }

    /** The files of one run, open. Closing leaves no empty JSON file behind when no result was written. */
    public static final class Opened implements AutoCloseable {
        private Path jsonPath;
        private boolean jsonIsNew;
        private OutputStream json;
        private boolean jsonWritten;
        private HdrLogWriter hdr;
        private Path hdrPath;
        private RunTrace trace;
        /** The heatmap PNG to draw at the end, the trace it is drawn from, and a temporary directory holding that trace. */
        private Path waterfall;
        private Path waterfallTrace;
        private Path temporaryTrace;

        private void openJson(Path path) {
            try {
                Path parent = path.toAbsolutePath().getParent();
                if (parent != null) {
                    Files.createDirectories(parent);
                }
                jsonIsNew = !Files.exists(path);
                json = Files.newOutputStream(path, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                        StandardOpenOption.WRITE);
                jsonPath = path;
            } catch (IOException e) {
                throw new UserError("--json: cannot write " + path + ": " + FileErrors.describe(e), e);
            }
        }

        /**
         * Readies the waterfall (its file was found writable when the config was read): its
         * requests come from the run's trace, a temporary one when there is no --trace.
         */
        private void openWaterfall(RunConfig config, Path userTrace) {
            Path png = config.waterfall();
            waterfall = png;
            if (userTrace != null) {
                waterfallTrace = userTrace;
                return;
            }
            try {
                temporaryTrace = Files.createTempDirectory("fluxperf-waterfall");
                waterfallTrace = temporaryTrace.resolve("trace");
                trace = RunTrace.open(waterfallTrace, config, new JsonReport().configJson(config));
            } catch (IOException | TraceFormatException e) {
                throw new UserError("waterfall: cannot keep the run's trace in a temporary directory to draw "
                        + png + " from: " + e.getMessage(), e);
            }
        }

        /**
         * Keeps the run's client pauses beside its trace, when it has one, for the heatmaps drawn from
         * it to mark; a trace that cannot take them is drawn without.
         *
         * @param originNanos the first window's start, {@link System#nanoTime()}, which the pauses' times count from
         */
        public void markPauses(java.util.List<io.fluxperf.engine.trust.NamedPause> pauses, long originNanos) {
            if (trace == null || pauses.isEmpty()) {
                return;
            }
            try {
                trace.markPauses(pauses.stream().map(p -> new long[] {originNanos + p.atNanos(), p.durationNanos()}).toList(),
                        pauses.stream().map(p -> p.cause().label()).toList());
            } catch (IOException e) {
                // the marks help the eye; the trace and its heatmap are whole without them
            }
        }

        /** Whether the trace is the user's (--trace), not one kept only for the waterfall. */
        public boolean traceIsTheUsers() {
            return trace != null && temporaryTrace == null;
        }

        /**
         * Draws the waterfall, if the run has one, from its trace (closed by {@link #closeLogs}).
         *
         * @return the requests drawn, or -1 when there is no waterfall
         */
        public long writeWaterfall() {
            if (waterfall == null) {
                return -1;
            }
            try {
                return WaterfallImage.write(waterfallTrace, waterfall, "fluxperf latency waterfall - " + waterfall.getFileName());
            } catch (IOException | TraceFormatException e) {
                throw new UserError("waterfall: cannot write " + waterfall + ": " + e.getMessage(), e);
            }
        }

        /** The waterfall's file, or null. */
        public Path waterfall() {
            return waterfall;
        }

        /** The HdrHistogram log, or null. */
        public HdrLogWriter hdr() {
            return hdr;
        }

        /** The trace, or null. */
        public RunTrace trace() {
            return trace;
        }

        /** Writes the JSON result, if one was asked for, and closes its file. */
        public void writeJson(JsonWriter writer) {
            if (json == null) {
                return;
            }
            try (OutputStream out = json) {
                writer.write(out);
                jsonWritten = true;
            } catch (IOException e) {
                throw new UserError("--json: cannot write " + jsonPath + ": " + FileErrors.describe(e), e);
            } finally {
                json = null;
            }
        }

        /** Closes the HdrHistogram log and the trace (the report's trace line reads the trace's final counts). */
        public void closeLogs() {
            if (hdr != null) {
                try {
                    hdr.close();
                } catch (IOException e) {
                    throw new UserError("--hdr-log: cannot finish " + hdrPath + ": " + FileErrors.describe(e), e);
                } finally {
                    hdr = null;
                }
            }
            if (trace != null) {
                trace.close();
            }
        }

        @Override
        public void close() {
            try {
                closeLogs();
            } finally {
                if (json != null) {
                    try {
                        json.close();
                    } catch (IOException ignored) {
                        // nothing was written to it
                    }
                    json = null;
                }
                if (temporaryTrace != null) {
                    deleteTree(temporaryTrace);
                    temporaryTrace = null;
                }
                if (jsonPath != null && !jsonWritten && jsonIsNew) {
                    try {
                        Files.deleteIfExists(jsonPath);
                    } catch (IOException ignored) {
                        // an empty file stays; the run's own error says what went wrong
                    }
                }
            }
        }
    }

    private static void deleteTree(Path dir) {
        try (java.util.stream.Stream<Path> files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | java.io.UncheckedIOException ignored) {
            // a temporary directory left behind is harmless; the system cleans its temporary files
        }
    }

    /** Writes a result to an open file. */
    @FunctionalInterface
    public interface JsonWriter {
        void write(OutputStream out) throws IOException;
    }
}
