package io.fluxperf.trace;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.stream.Stream;

/** The files of a trace directory beside Chronicle's own, and the checks that open one. */
final class TraceFiles {
    static final String HEADER_FILE = "fluxperf-trace.json";
    static final String FOOTER_FILE = "fluxperf-trace-end.json";
    static final String FORMAT_NAME = "fluxperf-trace";
    static final String FOOTER_FORMAT_NAME = "fluxperf-trace-end";

    static final ObjectMapper JSON = new ObjectMapper();

    private TraceFiles() {
    }

    /** Writes JSON to a temporary file and renames it into place, so a reader sees all or nothing. */
    static void writeAtomically(Path file, ObjectNode json) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.write(tmp, JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(json));
        try {
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** Checks that {@code dir} is a trace directory of a known version and reads its header. */
    static TraceHeader readHeader(Path dir) {
        if (!Files.exists(dir)) {
            throw new TraceFormatException("Trace directory " + dir + " does not exist.");
        }
        if (!Files.isDirectory(dir)) {
            throw new TraceFormatException(dir + " is a file, not a trace directory (a trace is the directory"
                    + " that --trace DIR writes).");
        }
        Path file = dir.resolve(HEADER_FILE);
        if (!Files.exists(file)) {
            if (isEmpty(dir)) {
                throw new TraceFormatException(dir + " is empty: it holds no trace.");
            }
            throw new TraceFormatException(dir + " is not a trace directory: it has no " + HEADER_FILE + ".");
        }
        JsonNode root;
        try {
            root = JSON.readTree(file.toFile());
        } catch (JsonProcessingException e) {
            throw new TraceFormatException(dir + " is not a readable trace: its " + HEADER_FILE
                    + " is not valid JSON (" + ParseErrors.describe(e) + ").", e);
        } catch (IOException e) {
            throw new TraceFormatException("Cannot read " + file + ": " + FileErrors.describe(e) + ".", e);
        }
        if (root == null || !root.isObject() || !FORMAT_NAME.equals(root.path("format").asText())) {
            throw new TraceFormatException(dir + " is not a trace directory: its " + HEADER_FILE
                    + " does not describe a fluxperf trace.");
        }
        int version = root.path("formatVersion").asInt(-1);
        if (version < TraceHeader.OLDEST_FORMAT_VERSION || version > TraceHeader.FORMAT_VERSION) {
            throw new TraceFormatException(dir + " was written by trace format version " + version
                    + "; this fluxperf reads versions " + TraceHeader.OLDEST_FORMAT_VERSION + " to "
                    + TraceHeader.FORMAT_VERSION + ".");
        }
        return TraceHeader.fromJson(root);
    }

    static void writeFooter(Path dir, TraceFooter footer) throws IOException {
        ObjectNode root = JSON.createObjectNode();
        root.put("format", FOOTER_FORMAT_NAME);
        root.put("recordsWritten", footer.recordsWritten());
        root.put("recordsLost", footer.recordsLost());
        if (footer.failure() != null) {
            root.put("failure", footer.failure());
        }
        root.put("closedEpochNanos", footer.closedEpochNanos());
        writeAtomically(dir.resolve(FOOTER_FILE), root);
    }

    /** The end marker, or empty when the trace was not closed cleanly (or the marker is unreadable). */
    static Optional<TraceFooter> readFooter(Path dir) {
        Path file = dir.resolve(FOOTER_FILE);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        try {
            JsonNode root = JSON.readTree(file.toFile());
            if (root == null || !FOOTER_FORMAT_NAME.equals(root.path("format").asText())) {
                return Optional.empty();
            }
            JsonNode failure = root.path("failure");
            return Optional.of(new TraceFooter(root.path("recordsWritten").asLong(),
                    root.path("recordsLost").asLong(), failure.isTextual() ? failure.asText() : null,
                    root.path("closedEpochNanos").asLong()));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    static boolean isEmpty(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.findAny().isEmpty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
