package io.fluxperf.engine.report;

import com.fasterxml.jackson.annotation.JsonValue;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.WindowResult;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON result of one run as one model: the run's figures, then the section each part adds
 * (a replay's {@code "replay"}, the objectives' {@code "slo"}, a run directory's fields around
 * them, a sharded agent's {@code "shard"}, a merge's {@code "shards"}). {@link JsonReport} writes
 * it once; nothing is written, read back and patched.
 *
 * <p>Sections are top-level fields, written in the order they were added; adding one again
 * replaces its value in place. A section's value is anything Jackson writes as it is: a record of
 * {@link JsonResultModel}, a part's own record, a list, a tree that part built, or null.
 */
public final class JsonResult {
    private final RunResult run;
    private final Map<String, Object> sections = new LinkedHashMap<>();

    private JsonResult(RunResult run) {
        this.run = run;
    }

    /** The figures of {@code run}, stamped with this fluxperf's version. */
    public static JsonResult of(RunResult run) {
        return of(run, io.fluxperf.engine.Version.get());
    }

    /**
     * The figures of {@code run}: {@code fluxperf} (the version), {@code config}, {@code target},
     * {@code stopReason}, {@code preloadedKeys}, {@code warmup}, {@code windows}, {@code total} and
     * {@code intervals}, laid out by {@link JsonResultModel}.
     */
    public static JsonResult of(RunResult run, String version) {
        JsonResult r = new JsonResult(run);
        r.section("fluxperf", version);
        r.section("config", JsonResultModel.config(run.config()));
        r.section("target", run.target());
        r.section("stopReason", run.stopReason().label());
        r.section("preloadedKeys", run.preloadedKeys());
        r.section("warmup", JsonResultModel.Warmup.of(run.warmup()));
        r.windows(false);
        r.section("intervals", run.intervals());
        return r;
    }

    /**
     * A result that begins with sections of its own before {@code figures}' (a run directory's
     * fields ahead of the command's result): add them, then {@link #sections(JsonResult)}.
     */
    public static JsonResult around(JsonResult figures) {
        return new JsonResult(figures.run);
    }

    /** The run whose figures these are. */
    public RunResult run() {
        return run;
    }

    /** Adds section {@code name} at the end, or replaces its value where it is. */
    public JsonResult section(String name, Object value) {
        sections.put(name, value);
        return this;
    }

    /** Section {@code name}'s value, or null. */
    public Object section(String name) {
        return sections.get(name);
    }

    /** Adds {@code other}'s sections, in its order (each one replaces a section of the same name where it is). */
    public JsonResult sections(JsonResult other) {
        sections.putAll(other.sections);
        return this;
    }

    /**
     * Gives each window and the total each load thread's CPU time ({@code loopCpuNanos}, a run
     * directory's figure), where the windows are.
     */
    public JsonResult withLoopCpu() {
        if (sections.containsKey("windows")) {
            windows(true);
        }
        return this;
    }

    private void windows(boolean loopCpu) {
        List<WindowResult> ws = run.windows();
        long origin = !ws.isEmpty() ? ws.get(0).startNanos() : run.total().startNanos();
        List<JsonResultModel.Window> windows = new ArrayList<>();
        for (WindowResult w : ws) {
            windows.add(JsonResultModel.window(w, run.config(), origin, loopCpu));
        }
        section("windows", windows);
        section("total", JsonResultModel.window(run.total(), run.config(), origin, loopCpu));
    }

    /** The sections as Jackson writes them: one object, a field per section. */
    @JsonValue
    Map<String, Object> fields() {
        return Collections.unmodifiableMap(sections);
    }
}
