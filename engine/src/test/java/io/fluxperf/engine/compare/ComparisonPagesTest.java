package io.fluxperf.engine.compare;

import static io.fluxperf.engine.compare.BootstrapTest.seconds;
import static io.fluxperf.engine.compare.BootstrapTest.series;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxperf.testkit.Chromium;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The comparison's text, JSON and HTML views of three runs of known latency. */
class ComparisonPagesTest {
    @TempDir
    Path tmp;

    private static RunComparison threeRuns() {
        SecondSeries a = series(seconds(10, 1000, 1_000_000, 1));
        SecondSeries b = series(seconds(10, 1000, 3_000_000, 2));
        SecondSeries c = series(seconds(10, 1000, 1_000_000, 3));
        return RunComparison.of(List.of(
                new RunFigures("A", "/runs/a", Map.of("get", new WorkloadSeries(a, a)), 4000.0, Map.of("general.rate", "1000")),
                new RunFigures("B", "/runs/b", Map.of("get", new WorkloadSeries(b, b)), 4100.0, Map.of("general.rate", "1000")),
                new RunFigures("C", "/runs/c", Map.of("get", new WorkloadSeries(c, c)), 3900.0, Map.of("general.rate", "2000"))),
                500, 1, 0);
    }

    @Test
    void theTextTableHasAColumnGroupPerLaterRun() {
        String text = ComparisonText.render(threeRuns());
        assertTrue(text.contains("Config differences:"), text);
        assertTrue(text.lines().anyMatch(l -> l.trim().matches("general\\.rate\\s+1000\\s+1000\\s+2000")), text);
        String p50 = text.lines().filter(l -> l.trim().startsWith("p50 ")).findFirst().orElseThrow();
        assertTrue(p50.matches(".*slower.*no significant difference\\s*"), p50);
        assertTrue(text.contains("B/A") && text.contains("C/A"), text);
    }

    @Test
    void theJsonCarriesEveryFigureAndVerdict() throws Exception {
        JsonNode root = new ObjectMapper().readTree(ComparisonJson.render(threeRuns()));
        assertEquals(1, root.get("format").asInt());
        assertEquals("general.rate", root.get("configDifferences").get(0).get("key").asText());
        JsonNode p50 = root.get("workloads").get(0).get("figures").get(1);
        assertEquals("p50", p50.get("figure").asText());
        assertEquals("slower", p50.get("versus").get(0).get("verdict").asText());
        assertTrue(p50.get("versus").get(0).get("low").asDouble() > 1);
        assertEquals(3, root.get("workloads").get(0).get("spectra").size());
    }

    @Test
    void theHtmlPageDrawsTheOverlaidSpectraInHeadlessChromium() throws Exception {
        assumeTrue(Chromium.installed(), "chromium is not installed");
        Path html = tmp.resolve("compare.html");
        Files.writeString(html, io.fluxperf.engine.html.ComparisonHtml.render(threeRuns()));
        String page = Files.readString(html);
        assertTrue(!page.contains("http://") || page.indexOf("http://") == page.indexOf("http://www.w3.org/2000/svg"),
                "no address but SVG's namespace");
        Chromium chromium = new Chromium(tmp);
        String dom = chromium.dumpDom(html);
        Matcher m = Pattern.compile("data-charts=\"(\\d+)\"").matcher(dom);
        assertTrue(m.find() && dom.contains("data-done=\"true\""), "the script ran to the end: " + dom.substring(0, Math.min(400, dom.length())));
        assertEquals("1", m.group(1), "one spectrum chart for the one workload");
        assertEquals(3, count(dom, "class=\"series\""), "three overlaid spectra");
        // axis labels at round steps (about five a side), three legend entries, the axis title
        int labels = count(dom, "<text");
        assertTrue(labels >= 10 && labels <= 25, labels + " labels");
        BufferedImage shot = chromium.screenshot(html, Path.of("target", "compare-pages-chromium.png"), 1200, 1400);
        assertTrue(Chromium.coloured(shot, 0, 0, shot.getWidth(), shot.getHeight()) > 1500,
                "the spectra's lines are on screen");
    }

    static int count(String s, String what) {
        int n = 0;
        for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }
}
