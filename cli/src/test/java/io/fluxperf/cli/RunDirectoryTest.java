package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxperf.engine.config.ConfigResolver;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.RunSettings;
import io.fluxperf.engine.rundir.RunDirectory;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code run --out DIR} writes a run directory, and {@code report DIR} makes the printed report again from it. */
class RunDirectoryTest {
    /** Three windows, three workloads: sets, gets that miss keys never set, incrs that fail on values that are no number. */
    static final String CONFIG = """
            [general]
            duration = "400ms"
            windows = 3
            connections = 2
            seed = 7
            stats-interval = "500ms"

            [[workload]]
            name = "set"
            method = "set"
            rate = 2000
            keyspace = 1000

            [[workload]]
            name = "get"
            method = "get"
            rate = 2000
            keyspace = 2000

            [[workload]]
            name = "incr"
            method = "incr"
            rate = 500
            keyspace = 1000
            """;

    @TempDir
    Path tmp;

    /** Timing: a second's interval in seconds.hlog lasts at most 1.05 s, which a busy machine's late swap would break. */
    @Tag("timing")
    @Test
    void reportMadeFromTheDirectoryEqualsThePrintedOneByteForByte() throws Exception {
        Path config = tmp.resolve("mixed.toml");
        Files.writeString(config, CONFIG);
        Path dir = tmp.resolve("run");
        CliRun run = CliRun.of("run", "--config", config.toString(), "--out", dir.toString(), "--trace", "--no-live");
        assertEquals(0, run.exitCode(), run.out() + run.err());
        String total = run.out().substring(run.out().indexOf("Total:"));
        assertTrue(CliRun.field(total.lines().filter(l -> l.startsWith("Requests:")).findFirst().orElseThrow(), "Miss:") > 0, total);
        assertTrue(CliRun.field(total.lines().filter(l -> l.startsWith("Requests:")).findFirst().orElseThrow(), "Error:") > 0, total);
        assertTrue(run.out().contains("Window: 3") && run.out().contains("Workload 2 (incr)") && run.out().contains("seconds "),
                run.out());
        assertTrue(run.out().contains("Trace: ") && run.out().contains(dir.resolve("trace").toString()), run.out());

        assertEquals(run.out(), Files.readString(dir.resolve("report.txt"), StandardCharsets.UTF_8), "report.txt is the printed report");
        CliRun report = CliRun.of("report", dir.toString());
        assertEquals(0, report.exitCode(), report.err());
        assertEquals(run.out(), report.out(), "report DIR prints what the run printed, byte for byte");

        CliRun json = CliRun.of("report", dir.toString(), "--json");
        assertEquals(0, json.exitCode(), json.err());
        assertArrayEquals(Files.readAllBytes(dir.resolve("result.json")), json.out().getBytes(StandardCharsets.UTF_8));

        JsonNode result = new ObjectMapper().readTree(dir.resolve("result.json").toFile());
        assertEquals(1, result.path("format").asInt());
        assertEquals("completed", result.path("stopReason").asText());
        assertEquals(3, result.path("windows").size());
        assertTrue(result.path("configHash").asText().startsWith("sha256:"));

        // every tag's count over windows.hlog equals result.json's figure for it
        Map<String, Long> counts = tagCounts(dir.resolve("windows.hlog").toFile());
        JsonNode workloads = result.path("total").path("workloads");
        for (JsonNode w : workloads) {
            long requests = w.path("requests").asLong();
            assertTrue(requests > 0);
            assertEquals(requests, counts.get(w.path("name").asText() + "/intended"), w.toString());
            assertEquals(requests, counts.get(w.path("name").asText() + "/service"), w.toString());
        }
        assertEquals(result.path("total").path("requests").asLong(), counts.get(""), "the untagged intervals: every workload");
        assertEquals(result.path("total").path("requests").asLong(), counts.get("*/send-lag"), "every request was paced");
        // and seconds.hlog: the same requests, one interval per second of the measured windows
        Map<String, Long> perSecond = tagCounts(dir.resolve("seconds.hlog").toFile());
        for (JsonNode w : workloads) {
            assertEquals(w.path("requests").asLong(), perSecond.get(w.path("name").asText() + "/intended"), w.toString());
            assertEquals(w.path("requests").asLong(), perSecond.get(w.path("name").asText() + "/service"), w.toString());
        }
        assertEquals(counts.get(""), perSecond.get(""));
        List<RunDirectory.Interval> seconds = RunDirectory.open(dir).secondIntervals();
        assertTrue(seconds.size() >= 3, "a second at least per window: " + seconds.size());
        for (RunDirectory.Interval i : seconds) {
            assertTrue(i.endEpochMs() - i.startEpochMs() <= 1_050, i.toString());
        }

        JsonNode env = new ObjectMapper().readTree(dir.resolve("environment.json").toFile());
        assertEquals(List.of("fluxperf", "run", "--config", config.toString(), "--out", dir.toString(), "--trace", "--no-live"),
                new ObjectMapper().convertValue(env.path("commandLine"), List.class));
        assertTrue(env.path("cpu").path("count").asInt() > 0);
        assertFalse(env.path("java").path("version").asText().isEmpty());
        assertNotNull(env.get("clocksource"));

        // config.toml is the same config: read as run --config reads it, and run again
        RunSettings original = new RunSettings();
        original.config = config;
        RunConfig before = ConfigResolver.resolve(original.toFlags());
        assertEquals(before, RunDirectory.open(dir).config());
        Path again = tmp.resolve("again");
        CliRun second = CliRun.of("run", "--config", dir.resolve("config.toml").toString(), "--out", again.toString(), "--no-live");
        assertEquals(0, second.exitCode(), second.out() + second.err());
        assertEquals(workloadLines(run.out()), workloadLines(second.out()));
        assertEquals(before, RunDirectory.open(again).config());
        assertEquals(RunDirectory.open(dir).configHash(), RunDirectory.open(again).configHash());
    }

    private static List<String> workloadLines(String out) {
        return out.lines().filter(l -> l.startsWith("Workload ") && l.contains("Name:") || l.startsWith("Config: Windows")).toList();
    }

    static Map<String, Long> tagCounts(File log) throws Exception {
        Map<String, Long> counts = new HashMap<>();
        HistogramLogReader reader = new HistogramLogReader(log);
        EncodableHistogram h;
        while ((h = reader.nextIntervalHistogram()) != null) {
            String tag = h.getTag() == null ? "" : h.getTag();
            counts.merge(tag, ((org.HdrHistogram.Histogram) h).getTotalCount(), Long::sum);
        }
        return counts;
    }

    @Test
    void objectivesAreInTheDirectoryAndItsReport() throws Exception {
        Path dir = tmp.resolve("slo");
        CliRun run = CliRun.of("run", "-d", "300ms", "-w", "2", "--rate", "2000", "--slo", "p99<10s", "--slo", "p50<1ns",
                "--out", dir.toString(), "--no-live");
        assertEquals(3, run.exitCode(), run.out() + run.err());
        assertTrue(run.out().contains("FAIL") && run.out().contains("PASS"), run.out());
        assertEquals(run.out(), Files.readString(dir.resolve("report.txt")));
        CliRun report = CliRun.of("report", dir.toString());
        assertEquals(run.out(), report.out());
        assertTrue(Files.readString(dir.resolve("config.toml")).contains("[[slo]]"));
        JsonNode result = new ObjectMapper().readTree(dir.resolve("result.json").toFile());
        assertTrue(result.has("slo"), result.toString());
    }

    @Test
    void aDirectoryThatIsNotEmptyIsRefusedUnlessOverwrite() throws Exception {
        Path dir = tmp.resolve("used");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("notes.txt"), "mine");
        CliRun refused = CliRun.of("run", "--requests", "10", "--out", dir.toString(), "--no-live");
        assertEquals(2, refused.exitCode());
        assertOneSentence(refused.err(), dir.toString());
        assertTrue(refused.err().contains("not empty") && refused.err().contains("--overwrite"), refused.err());
        assertFalse(Files.exists(dir.resolve("result.json")));

        CliRun allowed = CliRun.of("run", "--requests", "10", "--out", dir.toString(), "--overwrite", "--no-live");
        assertEquals(0, allowed.exitCode(), allowed.out() + allowed.err());
        assertTrue(Files.exists(dir.resolve("result.json")));
        assertEquals("mine", Files.readString(dir.resolve("notes.txt")), "--overwrite replaces the run's files only");
        assertEquals(allowed.out(), CliRun.of("report", dir.toString()).out());
    }

    @Test
    void badDirectoriesAreOneSentenceAndExit2() throws Exception {
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        CliRun notOne = CliRun.of("report", empty.toString());
        assertEquals(2, notOne.exitCode());
        assertOneSentence(notOne.err(), empty.toString());
        assertTrue(notOne.err().contains("not a run directory"), notOne.err());

        Path dir = tmp.resolve("run");
        assertEquals(0, CliRun.of("run", "--requests", "20", "--out", dir.toString(), "--no-live").exitCode());
        Path result = dir.resolve("result.json");
        String good = Files.readString(result);

        Files.writeString(result, good.replaceFirst("\"format\" : 1", "\"format\" : 99"));
        CliRun unknown = CliRun.of("report", dir.toString());
        assertEquals(2, unknown.exitCode());
        assertOneSentence(unknown.err(), result.toString());
        assertTrue(unknown.err().contains("format 99"), unknown.err());

        Files.writeString(result, good.substring(0, good.length() / 2));
        CliRun truncated = CliRun.of("report", dir.toString(), "--json");
        assertEquals(2, truncated.exitCode());
        assertOneSentence(truncated.err(), result.toString());
        assertTrue(truncated.err().contains("truncated"), truncated.err());

        Path json = tmp.resolve("plain.json");
        Files.createDirectories(tmp.resolve("plain"));
        assertEquals(0, CliRun.of("run", "--requests", "20", "--json", tmp.resolve("plain/result.json").toString(),
                "--no-live").exitCode());
        Files.writeString(tmp.resolve("plain/config.toml"), "");
        CliRun plain = CliRun.of("report", tmp.resolve("plain").toString());
        assertEquals(2, plain.exitCode());
        assertOneSentence(plain.err(), "result.json");
        assertFalse(Files.exists(json));

        CliRun missing = CliRun.of("report", tmp.resolve("nowhere").toString());
        assertEquals(2, missing.exitCode());
        assertOneSentence(missing.err(), "nowhere");
    }

    @Test
    void theConfigFileCanNameTheDirectory() throws Exception {
        Path dir = tmp.resolve("from-file");
        Path config = tmp.resolve("out.toml");
        Files.writeString(config, "[general]\nrequests = 30\nout = \"" + dir.toString().replace("\\", "\\\\") + "\"\n");
        CliRun run = CliRun.of("run", "--config", config.toString(), "--no-live");
        assertEquals(0, run.exitCode(), run.out() + run.err());
        assertEquals(run.out(), Files.readString(dir.resolve("report.txt")));
        assertFalse(Files.readString(dir.resolve("config.toml")).lines().anyMatch(l -> l.startsWith("out")),
                "running config.toml again writes no directory");
        CliRun again = CliRun.of("run", "--config", config.toString(), "--no-live");
        assertEquals(2, again.exitCode());
        assertOneSentence(again.err(), "general.out");
        Path flag = tmp.resolve("from-flag");
        CliRun overridden = CliRun.of("run", "--config", config.toString(), "--out", flag.toString(), "--no-live");
        assertEquals(0, overridden.exitCode(), overridden.err());
        assertTrue(Files.exists(flag.resolve("result.json")), "--out wins over the file's out");
    }

    @Test
    void traceWithoutADirectoryNeedsOut() {
        CliRun run = CliRun.of("run", "--requests", "10", "--trace", "--no-live");
        assertEquals(2, run.exitCode());
        assertOneSentence(run.err(), "--trace");
    }

    /** One line, "fluxperf: ..." naming {@code place}, no stack trace or Java class. */
    static void assertOneSentence(String err, String place) {
        List<String> lines = err.lines().filter(l -> !l.isBlank()).toList();
        assertEquals(1, lines.size(), err);
        assertTrue(lines.get(0).startsWith("fluxperf: ") && lines.get(0).contains(place), err);
        assertFalse(err.contains("Exception") || err.contains("io.fluxperf") || err.contains("\tat "), err);
    }
}
