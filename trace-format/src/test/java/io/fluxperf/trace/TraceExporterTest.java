package io.fluxperf.trace;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class TraceExporterTest {

    @TempDir
    Path tmp;
    Path dir;

    @BeforeEach
    void writeTrace() {
        dir = tmp.resolve("trace");
        TestTraces.write(dir, 1000); // record i: intended send i ms, command i % 4, outcome i % 5
    }

    private String export(TraceExporter.Format format, TraceFilter filter) throws Exception {
        StringWriter out = new StringWriter();
        try (TraceReader reader = TraceReader.open(dir)) {
            TraceExporter.export(reader, format, filter, out);
        }
        return out.toString();
    }

    /** get (command 0) and miss (outcome 1) between 0.1 s and 0.2 s: i = 116, 136, 156, 176, 196. */
    private TraceFilter getMissesFrom100To200ms() {
        return TraceFilter.ALL.withFromNanos(100_000_000L).withToNanos(200_000_000L).withCommand(0)
                .withOutcome(Outcome.MISS);
    }

    @Test
    void csvHasAHeaderRowAndHonoursEveryFilter() throws Exception {
        String[] lines = export(TraceExporter.Format.CSV, getMissesFrom100To200ms()).split("\n");
        assertEquals(String.join(",", TraceExporter.COLUMNS), lines[0]);
        assertEquals(6, lines.length);
        List<Long> intended = new ArrayList<>();
        for (int k = 1; k < lines.length; k++) {
            String[] f = lines[k].split(",");
            assertEquals(TraceExporter.COLUMNS.size(), f.length);
            intended.add(Long.parseLong(f[0]));
            assertEquals("get", f[7]);
            assertEquals("miss", f[8]);
        }
        assertEquals(List.of(116_000_000L, 136_000_000L, 156_000_000L, 176_000_000L, 196_000_000L), intended);

        TraceRecord r = TestTraces.fill(new TraceRecord(), 116);
        assertEquals(r.intendedSendNanos() + "," + r.actualSendNanos() + "," + r.completionNanos() + ","
                + r.intendedLatencyNanos() + "," + r.serviceLatencyNanos() + ",reads,http,get,miss,key:116,"
                + r.keyCount() + "," + r.valueSize() + "," + r.requestBytes() + "," + r.responseBytes() + ","
                + r.connectionId() + ",false", lines[1]);
    }

    @Test
    void jsonLinesHonourTheLimit() throws Exception {
        String text = export(TraceExporter.Format.JSONL, getMissesFrom100To200ms().withLimit(3));
        String[] lines = text.split("\n");
        assertEquals(3, lines.length);
        ObjectMapper json = new ObjectMapper();
        long[] expected = {116_000_000L, 136_000_000L, 156_000_000L};
        for (int k = 0; k < 3; k++) {
            JsonNode n = json.readTree(lines[k]);
            assertEquals(expected[k], n.get("intended_send_ns").asLong());
            assertEquals("get", n.get("command").asText());
            assertEquals("miss", n.get("outcome").asText());
            assertEquals("key:" + expected[k] / 1_000_000, n.get("key").asText());
            assertEquals(TraceExporter.COLUMNS.size(), n.size());
        }
    }

    @Test
    void noFilterExportsEverythingAndAnEmptySelectionIsJustTheHeader() throws Exception {
        assertEquals(1001, export(TraceExporter.Format.CSV, TraceFilter.ALL).split("\n").length);
        assertEquals(1000, export(TraceExporter.Format.JSONL, TraceFilter.ALL).split("\n").length);
        assertEquals(String.join(",", TraceExporter.COLUMNS) + "\n",
                export(TraceExporter.Format.CSV, TraceFilter.ALL.withFromNanos(5_000_000_000L)));
        assertEquals("", export(TraceExporter.Format.JSONL, TraceFilter.ALL.withLimit(0)));
    }

    @Test
    void csvQuotesFieldsWithCommas() throws Exception {
        Path d = tmp.resolve("comma");
        try (TraceWriter w = TraceWriter.open(d, TestTraces.header())) {
            w.append(new TraceRecord().keyLatin1("a,\"b\""));
        }
        StringWriter out = new StringWriter();
        try (TraceReader reader = TraceReader.open(d)) {
            TraceExporter.export(reader, TraceExporter.Format.CSV, TraceFilter.ALL, out);
        }
        assertEquals(",\"a,\"\"b\"\"\",", out.toString().split("\n")[1].replaceAll("^.*?,reads,memcache,get,ok", "")
                .substring(0, 11));
    }
}
