package io.fluxperf.engine.compare;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The comparison as JSON ({@code compare --json}; the HTML page carries the same tree): runs,
 * config differences, and per workload and figure each run's value (ns or requests/s) and each
 * later run's ratio to A with its interval and verdict, plus each run's percentile spectrum.
 */
public final class ComparisonJson {
    /** Version of this layout; a change that breaks readers raises it. */
    public static final int FORMAT = 1;

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ComparisonJson() {
    }

    public static ObjectNode tree(RunComparison c) {
        ObjectNode root = JSON.createObjectNode();
        root.put("format", FORMAT);
        ObjectNode boot = root.putObject("bootstrap");
        boot.put("resamples", c.resamples());
        boot.put("seed", c.seed());
        boot.put("confidence", Bootstrap.CONFIDENCE);
        boot.put("minChange", c.minChange());
        ArrayNode runs = root.putArray("runs");
        for (RunComparison.RunInfo r : c.runs()) {
            runs.addObject().put("label", r.label()).put("dir", r.source()).put("seconds", r.seconds());
        }
        ArrayNode diffs = root.putArray("configDifferences");
        for (ConfigKeys.Difference d : c.configDifferences()) {
            ObjectNode o = diffs.addObject();
            o.put("key", d.key());
            ArrayNode values = o.putArray("values");
            d.values().forEach(values::add);
        }
        ArrayNode workloads = root.putArray("workloads");
        for (RunComparison.WorkloadComparison w : c.workloads()) {
            ObjectNode o = workloads.addObject();
            o.put("workload", w.workload());
            ArrayNode figures = o.putArray("figures");
            for (RunComparison.Row row : w.rows()) {
                ObjectNode f = figures.addObject();
                f.put("figure", row.figure().label());
                f.put("unit", row.figure().isNanos() ? "ns" : "requests/s");
                ArrayNode values = f.putArray("values");
                row.values().forEach(v -> {
                    if (v == null) {
                        values.addNull();
                    } else {
                        values.add(v);
                    }
                });
                ArrayNode versus = f.putArray("versus");
                for (RunComparison.Versus v : row.versus()) {
                    ObjectNode x = versus.addObject();
                    x.put("run", v.run());
                    putNullable(x, "ratio", v.ratio());
                    putNullable(x, "low", v.low());
                    putNullable(x, "high", v.high());
                    x.put("verdict", v.verdict().label());
                }
            }
            ArrayNode spectra = o.putArray("spectra");
            for (var s : w.spectra()) {
                ArrayNode points = spectra.addArray();
                for (double[] p : s) {
                    points.addArray().add(p[0]).add(p[1]);
                }
            }
        }
        return root;
    }

    public static String render(RunComparison c) {
        try {
            return JSON.writeValueAsString(tree(c)) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void putNullable(ObjectNode o, String key, Double v) {
        if (v == null) {
            o.putNull(key);
        } else {
            o.put(key, v);
        }
    }
}
