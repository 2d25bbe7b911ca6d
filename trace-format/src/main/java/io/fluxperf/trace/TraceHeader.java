package io.fluxperf.trace;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a trace says about itself, written once when the trace is opened, as the JSON file
 * {@value TraceFiles#HEADER_FILE} beside the queue files: the format version, the fluxperf version,
 * the effective run configuration (JSON), the clock origin, and the name tables that map the codes a
 * {@link TraceRecord} stores to names. Immutable; build one with {@link #builder()}.
 *
 * <p>Name tables: a code is the index into its list, so {@code commands = ["get", "set"]} makes
 * command code 0 mean {@code get} and 1 mean {@code set}. Workload codes go up to 65535, command and
 * protocol codes up to 255. Outcome names are fixed by the format ({@link Outcome}) and written too.
 *
 * <p>Clock origin: {@link #clockOriginEpochNanos()} (wall clock, ns since 1970-01-01T00:00Z) and
 * {@link #clockOriginMonotonicNanos()} ({@link System#nanoTime()}) read at the same instant, normally
 * when the run starts. Record times are {@code System.nanoTime() - clockOriginMonotonicNanos}; their
 * wall-clock time is {@link #wallClockNanos(long)}.
 */
public final class TraceHeader {

    /**
     * The trace format version this fluxperf writes: 2, records of layout version 1, several to a
     * Chronicle excerpt. It reads versions {@value #OLDEST_FORMAT_VERSION} (one record to an
     * excerpt) to this one.
     */
    public static final int FORMAT_VERSION = 2;

    /** The oldest trace format version this fluxperf reads. */
    public static final int OLDEST_FORMAT_VERSION = 1;

    private final int formatVersion;
    private final String fluxperfVersion;
    private final long clockOriginEpochNanos;
    private final long clockOriginMonotonicNanos;
    private final String configJson;
    private final List<String> workloads;
    private final List<String> commands;
    private final List<String> protocols;

    private TraceHeader(Builder b) {
        this.formatVersion = b.formatVersion;
        this.fluxperfVersion = b.fluxperfVersion;
        this.clockOriginEpochNanos = b.clockOriginEpochNanos;
        this.clockOriginMonotonicNanos = b.clockOriginMonotonicNanos;
        this.configJson = b.configJson;
        this.workloads = List.copyOf(b.workloads);
        this.commands = List.copyOf(b.commands);
        this.protocols = List.copyOf(b.protocols);
    }

    public static Builder builder() {
        return new Builder();
    }

    public int formatVersion() {
        return formatVersion;
    }

    public String fluxperfVersion() {
        return fluxperfVersion;
    }

    /** Wall clock at the origin, ns since the Unix epoch. */
    public long clockOriginEpochNanos() {
        return clockOriginEpochNanos;
    }

    /** {@link System#nanoTime()} at the origin, in the writing process. */
    public long clockOriginMonotonicNanos() {
        return clockOriginMonotonicNanos;
    }

    /** Wall-clock time, ns since the Unix epoch, of a record time (ns since the origin). */
    public long wallClockNanos(long traceNanos) {
        return clockOriginEpochNanos + traceNanos;
    }

    /** The effective run configuration as compact JSON text ({@code {}} when none was given). */
    public String configJson() {
        return configJson;
    }

    public List<String> workloads() {
        return workloads;
    }

    /**
     * The names of the command codes: every command the writing fluxperf records, whether or not
     * this trace holds one (no index of what it holds is kept: that takes reading every record).
     */
    public List<String> commands() {
        return commands;
    }

    public List<String> protocols() {
        return protocols;
    }

    public String workloadName(int code) {
        return name(workloads, code, "workload#");
    }

    public String commandName(int code) {
        return name(commands, code, "command#");
    }

    public String protocolName(int code) {
        return name(protocols, code, "protocol#");
    }

    /** The code of a command name (case-insensitive), or -1 when {@link #commands()} has no such name. */
    public int commandCode(String name) {
        return code(commands, name);
    }

    /** The index of a workload name (case-insensitive), or -1. */
    public int workloadCode(String name) {
        return code(workloads, name);
    }

    private static String name(List<String> table, int code, String prefix) {
        return code >= 0 && code < table.size() ? table.get(code) : prefix + code;
    }

    private static int code(List<String> table, String name) {
        for (int i = 0; i < table.size(); i++) {
            if (table.get(i).equalsIgnoreCase(name.trim())) {
                return i;
            }
        }
        return -1;
    }

    // ---- JSON form ----

    ObjectNode toJson() {
        ObjectNode root = TraceFiles.JSON.createObjectNode();
        root.put("format", TraceFiles.FORMAT_NAME);
        root.put("formatVersion", formatVersion);
        root.put("recordLayoutVersion", TraceRecord.LAYOUT_VERSION);
        root.put("fluxperfVersion", fluxperfVersion);
        root.put("createdAt", Instant.ofEpochSecond(0, clockOriginEpochNanos).toString());
        ObjectNode clock = root.putObject("clockOrigin");
        clock.put("epochNanos", clockOriginEpochNanos);
        clock.put("monotonicNanos", clockOriginMonotonicNanos);
        ObjectNode names = root.putObject("names");
        strings(names.putArray("workloads"), workloads);
        strings(names.putArray("commands"), commands);
        strings(names.putArray("protocols"), protocols);
        strings(names.putArray("outcomes"), Outcome.NAMES);
        try {
            root.set("config", TraceFiles.JSON.readTree(configJson));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("config JSON was checked when the header was built", e);
        }
        return root;
    }

    private static void strings(ArrayNode array, List<String> values) {
        values.forEach(array::add);
    }

    /**
     * Reads the header from its JSON tree; the caller has checked {@code format} and
     * {@code formatVersion}. A missing table or field reads as empty.
     */
    static TraceHeader fromJson(JsonNode root) {
        Builder b = builder();
        b.formatVersion = root.path("formatVersion").asInt();
        b.fluxperfVersion(root.path("fluxperfVersion").asText("unknown"));
        JsonNode clock = root.path("clockOrigin");
        b.clockOrigin(clock.path("epochNanos").asLong(), clock.path("monotonicNanos").asLong());
        JsonNode names = root.path("names");
        b.workloads(texts(names.path("workloads")));
        b.commands(texts(names.path("commands")));
        b.protocols(texts(names.path("protocols")));
        JsonNode config = root.path("config");
        b.configJson = config.isMissingNode() || config.isNull() ? "{}" : config.toString();
        return b.build();
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    @Override
    public String toString() {
        return toJson().toString();
    }

    /** Builds a {@link TraceHeader}; every setting has a default (origin: now, tables: empty, config: {}). */
    public static final class Builder {
        private int formatVersion = FORMAT_VERSION;
        private String fluxperfVersion = "unknown";
        private long clockOriginEpochNanos = Long.MIN_VALUE;
        private long clockOriginMonotonicNanos;
        private String configJson = "{}";
        private List<String> workloads = List.of();
        private List<String> commands = List.of();
        private List<String> protocols = List.of();

        private Builder() {
        }

        public Builder fluxperfVersion(String version) {
            this.fluxperfVersion = Objects.requireNonNull(version, "fluxperfVersion");
            return this;
        }

        /**
         * The run's effective configuration as JSON text (an object, as Jackson writes the config model).
         *
         * @throws IllegalArgumentException when the text is not JSON
         */
        public Builder configJson(String json) {
            Objects.requireNonNull(json, "configJson");
            try {
                this.configJson = TraceFiles.JSON.readTree(json).toString();
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException("the run config given to the trace header is not JSON: "
                        + e.getOriginalMessage(), e);
            }
            return this;
        }

        /**
         * The clock origin: the wall clock (ns since the Unix epoch) and {@link System#nanoTime()} read
         * at the same instant.
         */
        public Builder clockOrigin(long epochNanos, long monotonicNanos) {
            this.clockOriginEpochNanos = epochNanos;
            this.clockOriginMonotonicNanos = monotonicNanos;
            return this;
        }

        /** Sets the clock origin to now. */
        public Builder clockOriginNow() {
            long mono = System.nanoTime();
            Instant now = Instant.now();
            return clockOrigin(now.getEpochSecond() * 1_000_000_000L + now.getNano(), mono);
        }

        /** Workload names by workload index (0..65535). */
        public Builder workloads(List<String> names) {
            this.workloads = checked(names, 65536, "workloads");
            return this;
        }

        /** Command names by command code (0..255). */
        public Builder commands(List<String> names) {
            this.commands = checked(names, 256, "commands");
            return this;
        }

        /** Protocol names by protocol code (0..255). */
        public Builder protocols(List<String> names) {
            this.protocols = checked(names, 256, "protocols");
            return this;
        }

        private static List<String> checked(List<String> names, int max, String what) {
            if (names.size() > max) {
                throw new IllegalArgumentException("a trace holds at most " + max + " " + what + ", got "
                        + names.size());
            }
            for (String n : names) {
                Objects.requireNonNull(n, what + " name");
            }
            return List.copyOf(names);
        }

        public TraceHeader build() {
            if (clockOriginEpochNanos == Long.MIN_VALUE) {
                clockOriginNow();
            }
            return new TraceHeader(this);
        }
    }
}
