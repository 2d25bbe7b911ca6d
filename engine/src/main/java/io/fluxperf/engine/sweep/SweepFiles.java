package io.fluxperf.engine.sweep;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.fluxperf.engine.UserError;
import io.fluxperf.engine.Version;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a sweep leaves in its directory besides each step's run directory: the table
 * ({@value #TABLE}), the figures as JSON ({@value #JSON}), and the latency-vs-throughput plot as
 * PNG ({@value #PNG}) and self-contained HTML ({@value #HTML}). Latencies in the JSON are ns.
 */
public final class SweepFiles {
    public static final String TABLE = "sweep.txt";
    public static final String JSON = "sweep.json";
    public static final String PNG = "sweep.png";
    public static final String HTML = "sweep.html";

    private SweepFiles() {
    }

    /**
     * Writes the four files into {@code dir}.
     *
     * @throws UserError naming --out when a file cannot be written
     */
    public static void write(Path dir, SweepResult r, List<StepObjective> objectives, String title) {
        try {
            Files.createDirectories(dir);
            ByteArrayOutputStream table = new ByteArrayOutputStream();
            SweepTable.print(r, new PrintStream(table, true, StandardCharsets.UTF_8));
            Files.write(dir.resolve(TABLE), table.toByteArray());
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(dir.resolve(JSON).toFile(), json(r));
            SweepPlot plot = new SweepPlot(r, objectives, title);
            plot.writePng(dir.resolve(PNG));
            plot.writeHtml(dir.resolve(HTML));
        } catch (IOException e) {
            throw new UserError("--out: cannot write the sweep's files in " + dir + ": " + e.getMessage(), e);
        }
    }

    /** The sweep as JSON: objectives, every step in the order it ran, why it stopped, and the knee's target (null for none). */
    static Map<String, Object> json(SweepResult r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("fluxperf", Version.get());
        m.put("objectives", r.objectives());
        List<Map<String, Object>> steps = new java.util.ArrayList<>();
        for (SweepStep s : r.steps()) {
            Map<String, Object> j = new LinkedHashMap<>();
            j.put("number", s.number());
            j.put("refinement", s.refinement());
            j.put("again", s.again());
            j.put("target", s.target());
            j.put("achieved", s.achieved());
            j.put("p50", s.p50());
            j.put("p99", s.p99());
            j.put("p999", s.p999());
            j.put("requests", s.requests());
            j.put("errors", s.errors());
            j.put("lateShare", s.lateShare());
            j.put("reached", s.reached());
            j.put("unreachedBecause", s.unreachedBecause());
            j.put("objectives", s.judged());
            j.put("met", s.good());
            steps.add(j);
        }
        m.put("steps", steps);
        m.put("stoppedBecause", r.stoppedBecause());
        m.put("interrupted", r.interrupted());
        SweepStep k = r.knee();
        m.put("knee", k == null ? null : k.target());
        m.put("kneeStep", k == null ? null : k.number());
        m.put("kneeAboveTo", r.kneeAboveTo());
        return m;
    }
}
