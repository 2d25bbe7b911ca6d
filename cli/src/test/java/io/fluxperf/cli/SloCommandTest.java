package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServer;
import io.fluxperf.testkit.RealServers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Service-level objectives end to end (--slo, --slo-abort, --junit, [[slo]]) on run and replay,
 * against a real memcached and the embedded target: exit code 0 when they hold, 3 when one fails,
 * 2 for a malformed one.
 */
@ExtendWith(RealServers.class)
class SloCommandTest {
    @RealServer
    private static MemcachedProcess memcached;

    @TempDir
    Path dir;

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void objectivesThatHoldExitZero() {
        CliRun run = CliRun.of("run", "-s", memcached.address(), "--method", "get", "--rate", "2000", "-c", "2",
                "-d", "1", "-w", "2", "--no-live", "--slo", "p99<30s", "--slo", "success>=99%", "--slo", "get.rate>=100");
        assertEquals(0, run.exitCode(), run.out() + run.err());
        assertTrue(run.out().contains("\nObjectives: 3 of 3 held\n"), run.out());
        assertTrue(run.line("  PASS  p99<30s").contains("run: "), run.out());
        assertTrue(run.line("  PASS  get.rate>=100").contains("held in all 2 windows"), run.out());
    }

    @Test
    void aFailedObjectiveExitsThreeAndIsNamed() {
        CliRun run = CliRun.of("run", "--rate", "1000", "-d", "1", "--no-live", "--slo", "p50<1ns", "--slo", "p99<30s");
        assertEquals(3, run.exitCode(), run.out() + run.err());
        assertTrue(run.out().contains("\nObjectives: 1 of 2 held\n"), run.out());
        String failed = run.line("  FAIL  p50<1ns");
        assertTrue(failed.contains("failed in window 1 of 1"), failed);
        run.line("  PASS  p99<30s");
        assertEquals("", run.err().lines().filter(l -> l.startsWith("fluxperf:")).findFirst().orElse(""));
    }

    @Test
    void sloAbortStopsAtTheEndOfTheWindowThatFailed() throws Exception {
        Path json = dir.resolve("r.json");
        long start = System.nanoTime();
        CliRun run = CliRun.of("run", "--rate", "1000", "-d", "1", "-w", "20", "--no-live", "--slo", "p50<1ns",
                "--slo", "p99<30s", "--slo-abort", "--json", json.toString());
        double seconds = (System.nanoTime() - start) / 1e9;
        assertEquals(3, run.exitCode(), run.out() + run.err());
        assertTrue(seconds < 15, "20 windows of 1 s were asked for; the first failed: " + seconds + " s");
        assertTrue(run.out().contains("Stopped: an objective failed (--slo-abort)"), run.out());
        assertTrue(run.out().contains("  Stopped at the end of window 1, in which p50<1ns failed (--slo-abort, or abort = true)"), run.out());
        JsonNode r = JSON.readTree(json.toFile());
        assertEquals("objective failed", r.get("stopReason").asText());
        // window 1, and at most a short one with the requests that were still in flight
        assertTrue(r.get("windows").size() <= 2, r.get("windows").toString());
        assertEquals(1, r.get("slo").get("stoppedAfterWindow").asInt());
        assertEquals("p50<1ns", r.get("slo").get("stoppedBy").asText());
        assertFalse(r.get("slo").get("passed").asBoolean());
        assertEquals(1, r.get("slo").get("objectives").get(0).get("windows").size(), "windows after the stop are not judged");
    }

    @Test
    void junitXmlParsesIntoATestcasePerObjectiveAndWindowWithTheMeasuredValues() throws Exception {
        Path xml = Files.createDirectories(dir.resolve("ci")).resolve("slo.xml"); // run makes no missing directory
        Path json = dir.resolve("r.json");
        CliRun run = CliRun.of("run", "-s", memcached.address(), "--method", "get", "--rate", "2000", "-c", "2",
                "-d", "1", "-w", "2", "--no-live", "--slo", "p99<30s", "--slo", "get.p50<1ns",
                "--junit", xml.toString(), "--json", json.toString());
        assertEquals(3, run.exitCode(), run.out() + run.err());

        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(xml.toFile());
        Element root = doc.getDocumentElement();
        assertEquals("testsuites", root.getTagName());
        assertEquals("6", root.getAttribute("tests"), "2 objectives x (2 windows + the run)");
        assertEquals("3", root.getAttribute("failures"));
        NodeList suites = root.getElementsByTagName("testsuite");
        assertEquals("p99<30s", ((Element) suites.item(0)).getAttribute("name"));
        assertEquals("0", ((Element) suites.item(0)).getAttribute("failures"));
        Element failing = (Element) suites.item(1);
        assertEquals("get.p50<1ns", failing.getAttribute("name"));
        NodeList cases = failing.getElementsByTagName("testcase");
        List<String> names = new ArrayList<>();
        JsonNode r = JSON.readTree(json.toFile());
        for (int i = 0; i < cases.getLength(); i++) {
            Element c = (Element) cases.item(i);
            names.add(c.getAttribute("name"));
            assertEquals("get.p50<1ns", c.getAttribute("classname"));
            Element failure = (Element) c.getElementsByTagName("failure").item(0);
            // the measured value is the report's own p50 of the workload in that window (or the total)
            JsonNode window = i < 2 ? r.get("windows").get(i) : r.get("total");
            long p50 = window.get("workloads").get(0).get("latency").get("p50").asLong();
            assertTrue(failure.getTextContent().contains("(" + p50 + " ns)"), failure.getTextContent() + " vs " + p50);
            JsonNode objective = r.get("slo").get("objectives").get(1);
            assertEquals(p50, (i < 2 ? objective.get("windows").get(i) : objective.get("run")).path("measured").asLong(-1));
        }
        assertEquals(List.of("window 1", "window 2", "run"), names);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "p99<<2ms     | fluxperf: --slo 'p99<<2ms': expected a number after '<', as in p99<2ms, success>=99.9% or rate>=49500",
        "p99<2        | fluxperf: --slo 'p99<2': p99 is a latency: give '2' a unit (ns, us, ms or s), as in p99<2ms",
        "latency<2ms  | fluxperf: --slo 'latency<2ms': unknown measure 'latency'; expected pNN (p50, p99, p999), max, mean, success, errors, hitrate or rate",
        "success>=99  | fluxperf: --slo 'success>=99': success is a percentage: write '99%'",
        "p99=2ms      | fluxperf: --slo 'p99=2ms': '=' is no comparison; expected <, <=, > or >=, as in p99<2ms, success>=99.9% or rate>=49500",
        "gett.p99<1ms | fluxperf: --slo 'gett.p99<1ms': the run has no workload 'gett'; its workloads are get",
    })
    void aMalformedObjectiveIsOneSentenceNamingItAndExitTwo(String expression, String message) {
        CliRun run = CliRun.of("run", "-d", "1", "--no-live", "--slo", expression);
        assertEquals(2, run.exitCode(), run.out() + run.err());
        assertEquals(message, run.err().strip());
        assertFalse(run.out().contains("Window:"), "nothing ran");
    }

    @Test
    void junitOrAbortWithoutObjectivesAreMistakes() {
        CliRun junit = CliRun.of("run", "-d", "1", "--no-live", "--junit", dir.resolve("x.xml").toString());
        assertEquals(2, junit.exitCode());
        assertEquals("fluxperf: --junit: writes the verdicts on objectives, and there is no --slo or [[slo]]", junit.err().strip());
        CliRun abort = CliRun.of("run", "-d", "1", "--no-live", "--slo-abort");
        assertEquals(2, abort.exitCode());
        assertEquals("fluxperf: --slo-abort: stops the run when an objective fails, and there is no --slo or [[slo]]",
                abort.err().strip());
    }

    @Test
    void sloTablesInTheConfigAreChecked() throws Exception {
        Path config = dir.resolve("ci.toml");
        Files.writeString(config, """
                [general]
                duration = 1
                windows = 2

                [[workload]]
                method = "get"
                rate = 1000

                [[workload]]
                method = "set"
                rate = 200

                [[slo]]
                objective = "p99<30s"

                [[slo]]
                objective = "p50<1ns"
                workload = "set"
                """, StandardCharsets.UTF_8);
        CliRun run = CliRun.of("run", "--config", config.toString(), "-s", memcached.address(), "--no-live",
                "--slo", "success>=99%");
        assertEquals(3, run.exitCode(), run.out() + run.err());
        assertTrue(run.out().contains("\nObjectives: 2 of 3 held\n"), run.out());
        run.line("  PASS  p99<30s");
        assertTrue(run.line("  FAIL  set.p50<1ns").contains("failed in windows 1, 2 of 2"), run.out());
        run.line("  PASS  success>=99%");

        Files.writeString(config, """
                [[workload]]
                method = "get"

                [[slo]]
                objective = "p99<2ms"
                workload = "get"
                abort = "yes"
                """, StandardCharsets.UTF_8);
        CliRun bad = CliRun.of("run", "--config", config.toString(), "--no-live");
        assertEquals(2, bad.exitCode());
        assertTrue(bad.err().strip().startsWith("fluxperf: " + config + ": slo[0].abort (line 7): "), bad.err());
        assertEquals(1, bad.err().strip().lines().count(), bad.err());
    }

    @Test
    void anAbortingTableStopsTheRunAtTheEndOfTheWindowItFailedIn() throws Exception {
        Path config = dir.resolve("abort.toml");
        Files.writeString(config, """
                [general]
                duration = 1
                windows = 10

                [[workload]]
                method = "get"
                rate = 1000

                [[slo]]
                objective = "p99<30s"

                [[slo]]
                objective = "p50<1ns"
                abort = true
                """, StandardCharsets.UTF_8);
        long start = System.nanoTime();
        CliRun run = CliRun.of("run", "--config", config.toString(), "--no-live");
        assertEquals(3, run.exitCode(), run.out() + run.err());
        assertTrue((System.nanoTime() - start) / 1e9 < 8, "stopped after the first of 10 one-second windows");
        assertTrue(run.out().contains("  Stopped at the end of window 1, in which p50<1ns failed"), run.out());
        assertTrue(run.out().contains("Objectives: 1 of 2 held"), run.out());
    }

    @Test
    void replayChecksObjectivesToo() throws Exception {
        Path log = dir.resolve("watch.log");
        StringBuilder lines = new StringBuilder("OK\n");
        for (int i = 0; i < 200; i++) {
            lines.append(String.format(java.util.Locale.ROOT,
                    "ts=1795983906.%06d gid=%d type=item_get key=key%d status=not_found clsid=0 cfd=17 size=0%n",
                    i * 100, i, i % 20));
        }
        Files.writeString(log, lines.toString(), StandardCharsets.UTF_8);
        CliRun holds = CliRun.of("replay", "-s", memcached.address(), "-l", log.toString(), "--no-live",
                "--slo", "get.p99<30s", "--slo", "success>=99%");
        assertEquals(0, holds.exitCode(), holds.out() + holds.err());
        // 200 requests leave 2 beyond p99: the samples cannot bound it from above, so it holds by its value alone
        assertTrue(holds.out().contains("\nObjectives: 2 of 2 held (1 too close to call at this sample size)\n"), holds.out());
        assertTrue(holds.line("  PASS  get.p99<30s").contains(", unbounded] too close to call;"), holds.out());

        Path xml = dir.resolve("replay.xml");
        CliRun fails = CliRun.of("replay", "-s", memcached.address(), "-l", log.toString(), "--no-live", "--speed", "max",
                "--slo", "get.p50<1ns", "--junit", xml.toString());
        assertEquals(3, fails.exitCode(), fails.out() + fails.err());
        fails.line("  FAIL  get.p50<1ns");
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(xml.toFile());
        assertEquals("2", doc.getDocumentElement().getAttribute("failures"), "its one window and the replay");

        CliRun malformed = CliRun.of("replay", "-s", memcached.address(), "-l", log.toString(), "--slo", "p99<<1ms");
        assertEquals(2, malformed.exitCode());
        assertEquals("fluxperf: --slo 'p99<<1ms': expected a number after '<', as in p99<2ms, success>=99.9% or rate>=49500",
                malformed.err().strip());
    }

    @Test
    void reportJudgesARunDirectoryWithTheSameVerdictsAsTheRun() throws Exception {
        Path runDir = dir.resolve("runs/a");
        CliRun run = CliRun.of("run", "-s", memcached.address(), "--method", "get", "--rate", "2000", "-c", "2",
                "-d", "1", "-w", "2", "--no-live", "--out", runDir.toString(),
                "--slo", "p99<30s", "--slo", "get.p95<1ns", "--slo", "rate>=100");
        assertEquals(3, run.exitCode(), run.out() + run.err());
        // the printed report, Objectives block and all, is made again from the directory byte for byte,
        // its verdicts judged anew from config.toml's [[slo]] and the windows (p95 from windows.hlog)
        CliRun again = CliRun.of("report", runDir.toString());
        assertEquals(0, again.exitCode(), again.err());
        assertEquals(run.out(), again.out());
        assertTrue(Files.readString(runDir.resolve("config.toml")).contains("[[slo]]\nobjective = \"p95<1ns\"\nworkload = \"get\"\n"));
        JsonNode result = JSON.readTree(runDir.resolve("result.json").toFile());
        assertFalse(result.get("slo").get("passed").asBoolean(), result.get("slo").toString());

        // other objectives, judged against the finished run: only their verdicts, exit 3 when one fails
        Path xml = dir.resolve("report.xml");
        CliRun judged = CliRun.of("report", runDir.toString(), "--slo", "p99<30s", "--slo", "get.p50<1ns",
                "--junit", xml.toString());
        assertEquals(3, judged.exitCode(), judged.out() + judged.err());
        assertTrue(judged.out().startsWith("\nObjectives: 1 of 2 held\n"), judged.out());
        assertFalse(judged.out().contains("Window:"), judged.out());
        long p50 = result.get("total").get("workloads").get(0).get("latency").get("p50").asLong();
        String line = judged.line("  FAIL  get.p50<1ns");
        assertTrue(line.contains("run: "), line);
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(xml.toFile());
        assertEquals("6", doc.getDocumentElement().getAttribute("tests"));
        assertEquals("3", doc.getDocumentElement().getAttribute("failures"));
        NodeList failures = doc.getElementsByTagName("failure");
        assertTrue(failures.item(2).getTextContent().contains("(" + p50 + " ns)"), failures.item(2).getTextContent());

        CliRun holds = CliRun.of("report", runDir.toString(), "--slo", "success>=99%", "--slo", "get.rate>=100");
        assertEquals(0, holds.exitCode(), holds.out() + holds.err());
        assertTrue(holds.out().contains("Objectives: 2 of 2 held"), holds.out());

        // --junit alone: the run's own objectives
        CliRun own = CliRun.of("report", runDir.toString(), "--junit", dir.resolve("own.xml").toString());
        assertEquals(3, own.exitCode());
        assertEquals("9", DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(dir.resolve("own.xml").toFile())
                .getDocumentElement().getAttribute("tests"));

        CliRun malformed = CliRun.of("report", runDir.toString(), "--slo", "p99<2");
        assertEquals(2, malformed.exitCode());
        assertEquals("fluxperf: --slo 'p99<2': p99 is a latency: give '2' a unit (ns, us, ms or s), as in p99<2ms",
                malformed.err().strip());
        CliRun other = CliRun.of("report", runDir.toString(), "--slo", "set.p99<1ms");
        assertEquals(2, other.exitCode());
        assertEquals("fluxperf: --slo 'set.p99<1ms': the run has no workload 'set'; its workloads are get", other.err().strip());
        CliRun noDir = CliRun.of("report", dir.resolve("nothing").toString(), "--slo", "p99<1ms");
        assertEquals(2, noDir.exitCode());
        assertTrue(noDir.err().contains("is not a run directory"), noDir.err());
    }
}
