package io.fluxperf.engine.report;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.fluxperf.engine.metrics.RunResult;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a run as JSON (--json FILE, a run directory's result.json) for scripts and dashboards:
 * the effective config, every window with every workload, the whole-run total, and what each part
 * of the run adds ({@link JsonResult}). The figures' layout is {@link JsonResultModel}; every
 * requests figure is the sum of the outcomes written next to it, so the file reconciles.
 */
public final class JsonReport {
    private final ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .addMixIn(io.fluxperf.engine.metrics.IntervalSample.class, IntervalServers.class);

    /** A statistics block's per-server part is written only in a run with several servers. */
    private abstract static class IntervalServers {
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY)
        abstract java.util.List<io.fluxperf.engine.metrics.ServerSample> servers();
    }
    private final String version;

    /** Stamps the result with fluxperf's version. */
    public JsonReport() {
        this(io.fluxperf.engine.Version.get());
    }

    public JsonReport(String version) {
        this.version = version;
    }

    public void write(RunResult result, Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try (OutputStream out = Files.newOutputStream(file)) {
            write(result, out);
        }
    }

    /** Writes to {@code out} and leaves it open. */
    public void write(RunResult result, OutputStream out) throws IOException {
        write(JsonResult.of(result, version), out);
    }

    /** Writes {@code result} with every section its parts added to {@code out}, and leaves it open. */
    public void write(JsonResult result, OutputStream out) throws IOException {
        mapper.writer().without(JsonGenerator.Feature.AUTO_CLOSE_TARGET).writeValue(out, result);
    }

    /** The figures of {@code result} ({@link JsonResult#of(RunResult, String)}) stamped with this report's version. */
    public JsonResult result(RunResult result) {
        return JsonResult.of(result, version);
    }

    /** The effective config alone, as the JSON result shows it (for a trace's header). */
    public String configJson(io.fluxperf.engine.config.RunConfig config) {
        try {
            return mapper.writeValueAsString(JsonResultModel.config(config));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    public String toJson(RunResult result) throws IOException {
        return mapper.writeValueAsString(JsonResult.of(result, version));
    }

}
