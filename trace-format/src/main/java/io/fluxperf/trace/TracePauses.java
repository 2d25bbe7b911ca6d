package io.fluxperf.trace;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The stretches in which the client that wrote a trace stood still (the run's client pauses), kept
 * beside the trace as {@value #FILE}, so that a heatmap drawn later marks them. Written once the run
 * has ended; a trace without the file had none named (or was written before they were kept).
 */
public final class TracePauses {
    static final String FILE = "fluxperf-trace-pauses.json";
    static final String FORMAT_NAME = "fluxperf-trace-pauses";

    /**
     * One pause.
     *
     * @param startNanos    its start in trace time (ns since the trace's clock origin, as records' times)
     * @param durationNanos its length
     * @param cause         what held the client: GC, run queue, stopped
     */
    public record Pause(long startNanos, long durationNanos, String cause) {
        public long endNanos() {
            return startNanos + durationNanos;
        }
    }

    private TracePauses() {
    }

    /** Writes {@code pauses} beside the trace in {@code dir}, whole or not at all. */
    public static void write(Path dir, List<Pause> pauses) throws IOException {
        ObjectNode root = TraceFiles.JSON.createObjectNode();
        root.put("format", FORMAT_NAME);
        ArrayNode list = root.putArray("pauses");
        for (Pause p : pauses) {
            ObjectNode n = list.addObject();
            n.put("startNanos", p.startNanos());
            n.put("durationNanos", p.durationNanos());
            n.put("cause", p.cause());
        }
        TraceFiles.writeAtomically(dir.resolve(FILE), root);
    }

    /** The pauses kept beside the trace in {@code dir}; none when it has no such file or it cannot be read. */
    public static List<Pause> read(Path dir) {
        Path file = dir.resolve(FILE);
        List<Pause> out = new ArrayList<>();
        if (!Files.isRegularFile(file)) {
            return out;
        }
        try {
            JsonNode root = TraceFiles.JSON.readTree(file.toFile());
            if (root == null || !FORMAT_NAME.equals(root.path("format").asText())) {
                return out;
            }
            for (JsonNode n : root.path("pauses")) {
                out.add(new Pause(n.path("startNanos").asLong(), n.path("durationNanos").asLong(), n.path("cause").asText()));
            }
        } catch (IOException e) {
            return new ArrayList<>(); // marks are a help to the eye; the heatmap is drawn without them
        }
        return out;
    }
}
