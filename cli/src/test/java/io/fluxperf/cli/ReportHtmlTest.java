package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxperf.engine.compare.ComparisonText;
import io.fluxperf.testkit.Chromium;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code report DIR --html FILE} of a traced run with two workloads over three windows, opened in
 * headless Chromium: every chart is drawn, the heatmap's page draws its cells in a frame tall enough
 * for its summary, the text report's service time, send lag, CPU and TCP lines have their sections,
 * and the latency charts have log axes with round ticks: in the screenshot
 * (target/report-html-chromium.png) p50 stands clear of the floor under the tail (issue 46, item 12).
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
                duration = 1
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
        for (String section : new String[] {"Config", "Environment", "Windows", "Service time", "Send lag", "CPU", "TCP",
                "Over time", "Latency by percentile", "Workloads", "Outcomes", "Heatmap"}) {
            assertTrue(page.contains("<h2>" + section), "the page has " + section);
        }
        // the Send lag section holds the text report's figures: the whole run's p99 and max, as result.json has them
        JsonNode total = new ObjectMapper().readTree(out.resolve("result.json").toFile()).path("total");
        String sendLag = page.substring(page.indexOf("<h2>Send lag"), page.indexOf("<h2>CPU"));
        assertTrue(sendLag.contains("<td>total</td><td class=\"n\">" + ComparisonText.nanos(total.path("sendLag").path("p50").asDouble())
                + "</td>"), sendLag);
        assertTrue(sendLag.contains(ComparisonText.nanos(total.path("sendLag").path("p99").asDouble())), sendLag);
        assertTrue(sendLag.contains(ComparisonText.nanos(total.path("sendLag").path("max").asDouble())), sendLag);
        String cpu = page.substring(page.indexOf("<h2>CPU"), page.indexOf("<h2>TCP"));
        assertTrue(cpu.contains(ComparisonText.nanos(total.path("cpuNanosPerRequest").asDouble())), cpu);

        assumeTrue(Chromium.installed(), "chromium is not installed");
        Chromium chromium = new Chromium(tmp);
        int width = 1300;
        int height = 8000;
        String dom = chromium.dumpDom(html, width, height);
        assertTrue(dom.contains("data-done=\"true\""), "the page's script ran to the end");
        Matcher charts = Pattern.compile("data-charts=\"(\\d+)\"").matcher(dom);
        assertTrue(charts.find(), "charts drawn");
        // requests/s of both workloads, latency over time of each, send lag over time, and each workload's spectrum
        assertEquals(6, Integer.parseInt(charts.group(1)), "six charts");
        Matcher cells = Pattern.compile("data-heatmap-cells=\"(\\d+)\"").matcher(dom);
        assertTrue(cells.find() && Integer.parseInt(cells.group(1)) > 0, "the heatmap's frame drew its cells");
        assertTrue(dom.contains("data-heatmap-fits=\"true\""), "the heatmap's frame is as tall as its page: its summary shows");

        // latency over time on log axes with round ticks: 1, 2 or 5 times a power of ten
        Matcher svg = Pattern.compile("<svg[^>]*data-scale=\"(\\w+)\"[^>]*data-plot=\"(\\d+) (\\d+) (\\d+) (\\d+)\"[^>]*>(.*?)</svg>",
                Pattern.DOTALL).matcher(dom);
        List<int[]> latencyPlots = new ArrayList<>();
        int logCharts = 0;
        while (svg.find()) {
            String body = svg.group(6);
            if (!svg.group(1).equals("log")) {
                continue;
            }
            logCharts++;
            Matcher tick = Pattern.compile("class=\"ytick\"[^>]*>([^<]+)<").matcher(body);
            int ticks = 0;
            while (tick.find()) {
                ticks++;
                assertTrue(tick.group(1).matches("[125]0{0,2} (ns|µs|ms|s)"), "a round tick: " + tick.group(1));
            }
            assertTrue(ticks >= 3, "ticks on the log axis: " + body);
            if (body.contains("data-name=\"p50\"") && body.contains("data-name=\"p999\"")) {
                latencyPlots.add(new int[] {Integer.parseInt(svg.group(2)), Integer.parseInt(svg.group(3)),
                        Integer.parseInt(svg.group(4)), Integer.parseInt(svg.group(5))});
            }
        }
        assertEquals(5, logCharts, "latency per second of each workload, send lag per second, each spectrum: log axes");
        assertEquals(2, latencyPlots.size(), "a latency-per-second chart per workload");

        BufferedImage shot = chromium.screenshot(html, Path.of("target", "report-html-chromium.png"), width, height);
        assertTrue(Chromium.coloured(shot, 0, 0, shot.getWidth(), shot.getHeight()) > 5000,
                "the charts' lines and the heatmap are on screen");
        for (int[] p : latencyPlots) {
            // p50's line (#1f77b4): on a linear axis it lay flat on 0 under the tail; on the log axis it stands clear of the floor
            List<Integer> ys = new ArrayList<>();
            for (int y = p[1]; y < p[1] + p[3]; y++) {
                for (int x = p[0]; x < p[0] + p[2]; x++) {
                    int rgb = shot.getRGB(x, y);
                    if (Math.abs(((rgb >> 16) & 255) - 0x1f) < 25 && Math.abs(((rgb >> 8) & 255) - 0x77) < 25
                            && Math.abs((rgb & 255) - 0xb4) < 25) {
                        ys.add(y);
                    }
                }
            }
            assertTrue(ys.size() > 50, "p50's line is on screen in the chart at " + p[0] + "," + p[1] + ": " + ys.size());
            ys.sort(null);
            int median = ys.get(ys.size() / 2);
            double aboveFloor = (p[1] + p[3] - median) / (double) p[3];
            assertTrue(aboveFloor > 0.04, "p50 stands " + Math.round(aboveFloor * 100) + " % of the plot above its floor");
        }
    }
}
