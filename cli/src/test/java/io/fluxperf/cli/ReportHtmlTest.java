package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fluxperf.testkit.Chromium;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code report DIR --html FILE} of a traced run with two workloads over three windows, opened in
 * headless Chromium: every chart is drawn, the heatmap's page draws its cells, and a screenshot
 * shows the charts' lines.
 */
class ReportHtmlTest {
    @TempDir
    Path tmp;

    @Test
    void theRunsPageDrawsEveryChartAndTheHeatmapInHeadlessChromium() throws Exception {
        Path config = tmp.resolve("two.toml");
        Files.writeString(config, """
                [general]
                protocol = "memcache"
                connections = 2
                duration = 3
                windows = 3

                [[workload]]
                name = "writes"
                method = "set"
                bytes = 32
                rate = 300

                [[workload]]
                name = "reads"
                method = "get"
                rate = 600
                """);
        Path out = tmp.resolve("run");
        CliRun run = CliRun.of("run", "--config", config.toString(), "--out", out.toString(), "--trace", "",
                "--no-live");
        assertEquals(0, run.exitCode(), run.out() + run.err());
        assertTrue(Files.isDirectory(out.resolve("trace")), "the trace is in the run directory");

        Path html = tmp.resolve("report.html");
        CliRun report = CliRun.of("report", out.toString(), "--html", html.toString());
        assertEquals(0, report.exitCode(), report.err());
        String page = Files.readString(html);
        assertFalse(Pattern.compile("(src|href)=\"https?:").matcher(page).find(), "nothing is fetched");
        for (String section : new String[] {"Config", "Environment", "Windows", "Over time", "Latency by percentile",
                "Workloads", "Outcomes", "Heatmap"}) {
            assertTrue(page.contains("<h2>" + section), "the page has " + section);
        }

        assumeTrue(Chromium.installed(), "chromium is not installed");
        Chromium chromium = new Chromium(tmp);
        String dom = chromium.dumpDom(html);
        assertTrue(dom.contains("data-done=\"true\""), "the page's script ran to the end");
        Matcher charts = Pattern.compile("data-charts=\"(\\d+)\"").matcher(dom);
        assertTrue(charts.find(), "charts drawn");
        // requests/s of both workloads, latency over time of each, and each one's spectrum
        assertEquals(5, Integer.parseInt(charts.group(1)), "five charts");
        Matcher cells = Pattern.compile("data-heatmap-cells=\"(\\d+)\"").matcher(dom);
        assertTrue(cells.find() && Integer.parseInt(cells.group(1)) > 0, "the heatmap's frame drew its cells");
        BufferedImage shot = chromium.screenshot(html, Path.of("target", "report-html-chromium.png"), 1300, 6000);
        assertTrue(Chromium.coloured(shot, 0, 0, shot.getWidth(), shot.getHeight()) > 5000,
                "the charts' lines and the heatmap are on screen");
    }
}
