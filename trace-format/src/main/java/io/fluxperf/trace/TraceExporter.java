package io.fluxperf.trace;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.MinimalPrettyPrinter;

import java.io.IOException;
import java.io.Writer;
import java.util.List;

/**
 * Writes the records of a trace as CSV (with a header row) or JSON lines (one object per record),
 * streaming: one record in memory at a time. Both formats have the same columns, {@link #COLUMNS}:
 * times in ns since the clock origin, both latencies in ns, codes resolved to names through the
 * header's tables, and the key as text ({@link TraceRecord#keyText()}: printable ASCII as is, other
 * bytes as {@code \xNN}).
 */
public final class TraceExporter {

    /** Output formats. */
    public enum Format {
        CSV, JSONL;

        /** Parses {@code csv} or {@code jsonl} (case-insensitive). */
        public static Format parse(String s) {
            for (Format f : values()) {
                if (f.name().equalsIgnoreCase(s.trim())) {
                    return f;
                }
            }
            throw new IllegalArgumentException("'" + s + "' is not an export format; use csv or jsonl");
        }
    }

    /** Column names, in order; also the JSON field names. */
    public static final List<String> COLUMNS = List.of("intended_send_ns", "actual_send_ns", "completion_ns",
            "latency_ns", "service_ns", "workload", "protocol", "command", "outcome", "key", "key_count",
            "value_size", "request_bytes", "response_bytes", "connection_id", "warmup");

    private TraceExporter() {
    }

    /**
     * Exports the rest of the trace.
     *
     * @return the number of records written
     */
    public static long export(TraceReader reader, Format format, TraceFilter filter, Writer out)
            throws IOException {
        TraceHeader h = reader.header();
        TraceRecord r = new TraceRecord();
        long n = 0;
        if (format == Format.CSV) {
            out.write(String.join(",", COLUMNS));
            out.write('\n');
            StringBuilder line = new StringBuilder(256);
            while (n < filter.limit() && reader.next(r)) {
                if (!filter.matches(r)) {
                    continue;
                }
                line.setLength(0);
                line.append(r.intendedSendNanos()).append(',').append(r.actualSendNanos()).append(',')
                        .append(r.completionNanos()).append(',').append(r.intendedLatencyNanos()).append(',')
                        .append(r.serviceLatencyNanos()).append(',');
                csv(line, h.workloadName(r.workload())).append(',');
                csv(line, h.protocolName(r.protocol())).append(',');
                csv(line, h.commandName(r.command())).append(',');
                line.append(Outcome.name(r.outcome())).append(',');
                csv(line, r.keyText()).append(',');
                line.append(r.keyCount()).append(',').append(r.valueSize()).append(',').append(r.requestBytes())
                        .append(',').append(r.responseBytes()).append(',').append(r.connectionId()).append(',')
                        .append(r.warmup()).append('\n');
                out.append(line);
                n++;
            }
            out.flush();
            return n;
        }
        try (JsonGenerator g = TraceFiles.JSON.getFactory().createGenerator(out)) {
            g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            g.setPrettyPrinter(new MinimalPrettyPrinter("\n"));
            while (n < filter.limit() && reader.next(r)) {
                if (!filter.matches(r)) {
                    continue;
                }
                g.writeStartObject();
                g.writeNumberField(COLUMNS.get(0), r.intendedSendNanos());
                g.writeNumberField(COLUMNS.get(1), r.actualSendNanos());
                g.writeNumberField(COLUMNS.get(2), r.completionNanos());
                g.writeNumberField(COLUMNS.get(3), r.intendedLatencyNanos());
                g.writeNumberField(COLUMNS.get(4), r.serviceLatencyNanos());
                g.writeStringField(COLUMNS.get(5), h.workloadName(r.workload()));
                g.writeStringField(COLUMNS.get(6), h.protocolName(r.protocol()));
                g.writeStringField(COLUMNS.get(7), h.commandName(r.command()));
                g.writeStringField(COLUMNS.get(8), Outcome.name(r.outcome()));
                g.writeStringField(COLUMNS.get(9), r.keyText());
                g.writeNumberField(COLUMNS.get(10), r.keyCount());
                g.writeNumberField(COLUMNS.get(11), r.valueSize());
                g.writeNumberField(COLUMNS.get(12), r.requestBytes());
                g.writeNumberField(COLUMNS.get(13), r.responseBytes());
                g.writeNumberField(COLUMNS.get(14), r.connectionId());
                g.writeBooleanField(COLUMNS.get(15), r.warmup());
                g.writeEndObject();
                n++;
            }
            if (n > 0) {
                g.writeRaw('\n');
            }
        }
        out.flush();
        return n;
    }

    /** Appends a CSV field, quoted when it holds a comma, a quote or a line break. */
    private static StringBuilder csv(StringBuilder sb, String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
            return sb.append(s);
        }
        return sb.append('"').append(s.replace("\"", "\"\"")).append('"');
    }
}
