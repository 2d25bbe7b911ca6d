package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.engine.target.TargetOptions;
import io.fluxperf.engine.target.TargetServer;
import io.fluxperf.testkit.Chromium;
import io.fluxperf.testkit.TimingLock;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fluxperf compare} over real runs: two runs against the embedded memcache target, one whose
 * replies wait 1 ms and one 5 ms, each 3 s (the fewest seconds compare draws intervals from) at a
 * moderate paced rate.
 *
 * <p>Why 5 ms and not 3: the bootstrap resamples three seconds, so one second of the 1 ms run that a
 * loaded machine slowed is the majority of 7 in 27 resamples, and their p50 is that second's. The
 * interval excludes 1 only while that second's p50 stays under the 5 ms run's: 4 ms of scheduling
 * delay in the median of a whole second, where 3 ms left 2 (a p50 verdict of "no significant
 * difference" was seen once under load).
 *
 * <p>The two runs are made holding the timing tests' lock, and the tests that judge their timed
 * figures are timing tests; comparing a run with itself, the seed's output and the page in Chromium
 * judge no time, and do not hold the lock.
 */
class CompareCommandTest {
    @TempDir
    static Path tmp;

    static Path oneMs;
    static Path fiveMs;

    @BeforeAll
    static void runTwice() throws Exception {
        TimingLock.holding("CompareCommandTest#runTwice", () -> {
            oneMs = run(Duration.ofMillis(1), "one-ms");
            fiveMs = run(Duration.ofMillis(5), "five-ms");
        });
    }

    /**
     * A 3 s run of gets at 700/s against an embedded target whose every reply waits {@code delay}: 2,100
     * requests, more than 5 s at 400/s gave, on connections enough that even 5 ms replies queue for none (3.5 in flight on 10).
     */
    private static Path run(Duration delay, String name) {
        Path out = tmp.resolve(name);
        try (TargetServer server = Protocols.startTarget("memcache", TargetOptions.builder().responseDelay(delay).build())) {
            CliRun run = CliRun.of("run", "-s", "127.0.0.1:" + server.address().getPort(), "--method", "get", "--hit",
                    "--keyspace", "1000", "--rate", "700", "-c", "10", "-d", "3", "--out", out.toString(), "--no-live");
            assertEquals(0, run.exitCode(), run.out() + run.err());
        }
        return out;
    }

    @Test
    @Tag("timing")
    void fiveMillisecondsIsSlowerAtP50WithAnIntervalThatExcludesOne() throws Exception {
        CliRun text = CliRun.of("compare", oneMs.toString(), fiveMs.toString());
        assertEquals(0, text.exitCode(), text.err());
        String p50 = text.out().lines().filter(l -> l.trim().startsWith("p50 ")).findFirst().orElseThrow();
        assertTrue(p50.trim().endsWith("slower"), text.out());

        CliRun json = CliRun.of("compare", oneMs.toString(), fiveMs.toString(), "--json");
        assertEquals(0, json.exitCode(), json.err());
        JsonNode figure = figure(new ObjectMapper().readTree(json.out()), "p50");
        JsonNode versus = figure.get("versus").get(0);
        assertEquals("slower", versus.get("verdict").asText(), figure.toString());
        assertTrue(versus.get("low").asDouble() > 1, "the interval excludes 1: " + versus);
        // a 1 ms and a 5 ms reply delay plus the same loopback round trip: under 5, and well above 1
        // (2.8 for 3 ms on a quiet machine; a busy one adds the same scheduling delay to both)
        assertTrue(versus.get("ratio").asDouble() > 2.5 && versus.get("ratio").asDouble() < 5.5, versus.toString());
        assertTrue(figure.get("values").get(0).asDouble() >= 1_000_000, "A's p50 includes its 1 ms delay: " + figure);
        assertTrue(figure.get("values").get(1).asDouble() >= 5_000_000, "B's p50 includes its 5 ms delay: " + figure);
    }

    @Test
    void aRunComparedWithItselfShowsNoSignificantDifference() throws Exception {
        CliRun json = CliRun.of("compare", oneMs.toString(), oneMs.toString(), "--json");
        assertEquals(0, json.exitCode(), json.err());
        JsonNode root = new ObjectMapper().readTree(json.out());
        assertEquals(0, root.get("configDifferences").size(), root.get("configDifferences").toString());
        int intervals = 0;
        for (JsonNode w : root.get("workloads")) {
            for (JsonNode f : w.get("figures")) {
                JsonNode v = f.get("versus").get(0);
                assertEquals(1.0, v.get("ratio").asDouble(), 1e-12, f.toString());
                if (!v.get("low").isNull()) {
                    intervals++;
                    // a tail percentile with fewer than 10 samples beyond it claims no change either way
                    assertTrue(Set.of("no significant difference", "few samples").contains(v.get("verdict").asText()),
                            f.toString());
                }
            }
        }
        assertTrue(intervals >= 8, "requests/s, five percentiles and two service times have intervals");
        CliRun text = CliRun.of("compare", oneMs.toString(), oneMs.toString());
        assertTrue(text.out().contains("Config: the same in every run"), text.out());
        assertFalse(text.out().contains("slower") || text.out().contains("faster"), text.out());
    }

    @Test
    @Tag("timing")
    void aMinimumChangeAboveTheDifferenceTakesTheVerdictAway() throws Exception {
        JsonNode root = new ObjectMapper().readTree(CliRun.of("compare", oneMs.toString(), fiveMs.toString(), "--json",
                "--min-change", "1000").out());
        assertEquals("no significant difference", figure(root, "p50").get("versus").get(0).get("verdict").asText());
        assertEquals(10.0, root.get("bootstrap").get("minChange").asDouble(), 1e-12);
        CliRun bad = CliRun.of("compare", oneMs.toString(), fiveMs.toString(), "--min-change", "-1");
        assertEquals(2, bad.exitCode());
        assertTrue(bad.err().startsWith("fluxperf: --min-change:"), bad.err());
    }

    @Test
    void theSameSeedGivesTheSameOutput() {
        CliRun a = CliRun.of("compare", oneMs.toString(), fiveMs.toString(), "--seed", "7");
        CliRun b = CliRun.of("compare", oneMs.toString(), fiveMs.toString(), "--seed", "7");
        assertEquals(a.out(), b.out());
    }

    @Test
    void theComparePageDrawsTheSpectraInHeadlessChromium() throws Exception {
        assumeTrue(Chromium.installed(), "chromium is not installed");
        Path html = tmp.resolve("compare.html");
        CliRun run = CliRun.of("compare", oneMs.toString(), fiveMs.toString(), "--html", html.toString());
        assertEquals(0, run.exitCode(), run.err());
        Chromium chromium = new Chromium(tmp);
        String dom = chromium.dumpDom(html);
        Matcher m = Pattern.compile("data-charts=\"(\\d+)\"").matcher(dom);
        assertTrue(m.find() && dom.contains("data-done=\"true\""), "the page's script ran to the end");
        assertEquals("1", m.group(1), "one spectrum chart: the runs have one workload");
        assertTrue(dom.contains("<svg") && dom.split("class=\"series\"", -1).length - 1 == 2, "A's and B's spectra");
        BufferedImage shot = chromium.screenshot(html, Path.of("target", "compare-chromium.png"), 1200, 1200);
        assertTrue(Chromium.coloured(shot, 0, 0, shot.getWidth(), shot.getHeight()) > 1000, "the spectra are on screen");
    }

    static JsonNode figure(JsonNode root, String name) {
        for (JsonNode f : root.get("workloads").get(0).get("figures")) {
            if (f.get("figure").asText().equals(name)) {
                return f;
            }
        }
        throw new AssertionError("no figure " + name + " in " + root);
    }
}
