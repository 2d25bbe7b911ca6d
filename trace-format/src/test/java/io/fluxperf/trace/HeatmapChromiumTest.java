package io.fluxperf.trace;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Opens the HTML heatmap in headless Chromium (Debian's chromium package): the script runs and draws
 * every cell, and a screenshot shows the heatmap's colours. Skipped where chromium is not installed.
 * The screenshot is left in target/heatmap-chromium.png for a person to look at.
 */
class HeatmapChromiumTest {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");

    @TempDir
    Path tmp;

    private List<String> chromium(String... args) {
        List<String> cmd = new ArrayList<>(List.of(CHROMIUM.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--user-data-dir=" + tmp.resolve("profile")));
        cmd.addAll(List.of(args));
        return cmd;
    }

    private static String run(List<String> cmd, Path log) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectError(log.toFile()).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("chromium did not finish in 60 s");
        }
        return new String(out, StandardCharsets.UTF_8);
    }

    @Test
    void theHtmlHeatmapRendersInHeadlessChromium() throws Exception {
        assumeTrue(Files.isExecutable(CHROMIUM), "chromium is not installed");
        // 10 s, latencies spread log-uniformly over 50 µs .. 5 ms: many cells of many counts
        HeatmapAggregator h = new HeatmapAggregator(1_000_000_000L, Latency.INTENDED);
        Random rnd = new Random(7);
        for (int i = 0; i < 200_000; i++) {
            h.add(i * 50_000L, (long) (50_000 * Math.pow(100, rnd.nextDouble())), Outcome.OK);
        }
        int cells = 0;
        for (int t = 0; t < h.timeBuckets(); t++) {
            for (int r = 0; r < LatencyBuckets.ROWS; r++) {
                cells += h.count(t, r) > 0 ? 1 : 0;
            }
        }
        Path html = tmp.resolve("heatmap.html");
        new HeatmapHtmlRenderer().write(h, "chromium test", List.of("Requests: 10000"), html);
        String url = html.toUri().toString();

        String dom = run(chromium("--virtual-time-budget=5000", "--dump-dom", url), tmp.resolve("dom.log"));
        Matcher m = Pattern.compile("data-rendered=\"(\\d+)\"").matcher(dom);
        assertTrue(m.find(), "the page's script ran to the end; DOM: " + dom.substring(0, Math.min(500, dom.length())));
        assertEquals(cells, Integer.parseInt(m.group(1)), "every non-empty cell drawn");

        Path shot = Path.of("target", "heatmap-chromium.png").toAbsolutePath();
        Files.createDirectories(shot.getParent());
        Files.deleteIfExists(shot);
        run(chromium("--screenshot=" + shot, "--window-size=1200,900", "--hide-scrollbars", url),
                tmp.resolve("shot.log"));
        BufferedImage img = ImageIO.read(shot.toFile());
        assertNotNull(img, "the screenshot decodes");
        assertEquals(1200, img.getWidth());
        int found = 0;
        for (int y = 0; y < img.getHeight(); y++) {
            for (int x = 0; x < img.getWidth(); x++) {
                if (isPaletteColour(img.getRGB(x, y))) {
                    found++;
                }
            }
        }
        // the heatmap's cells (about 950 x 400 pixels) plus the legend; the charts alone would not reach this
        assertTrue(found > 50_000, "the heatmap's cells are on screen (" + found + " pixels in heatmap colours)");
    }

    /**
     * Issue 46, item 13: a steady 18,000/s whose first and last buckets are partly filled is drawn
     * flat at 18,000/s (before: rising from 7.7k and falling at the end), and the rate chart's
     * legend, "error+timeout+closed" the longest, fits on the page. The screenshot
     * (target/heatmap-rates-chromium.png) shows it: the "all" line's pixels lie in one thin band.
     */
    @Test
    void partlyFilledBucketsAreDrawnAtTheRateOfTheTimeTheyCover() throws Exception {
        assumeTrue(Files.isExecutable(CHROMIUM), "chromium is not installed");
        HeatmapAggregator h = new HeatmapAggregator(1_000_000_000L, Latency.INTENDED);
        long gap = 1_000_000_000L / 18_000;
        Random rnd = new Random(13);
        for (long t = 570_000_000L; t < 10_870_000_000L; t += gap) {
            h.add(t, (long) (20_000 * Math.pow(400, rnd.nextDouble() * rnd.nextDouble())), Outcome.OK);
        }
        Path html = tmp.resolve("rates.html");
        new HeatmapHtmlRenderer().write(h, "steady 18k/s", List.of("Requests: 185400"), html);
        String url = html.toUri().toString();
        String dom = run(chromium("--virtual-time-budget=5000", "--window-size=1300,1400", "--dump-dom", url),
                tmp.resolve("dom.log"));
        Matcher rates = Pattern.compile("data-rates=\"([0-9 ]+)\"").matcher(dom);
        assertTrue(rates.find(), "the rate chart says what it drew");
        String[] drawn = rates.group(1).trim().split(" ");
        assertEquals(11, drawn.length, rates.group(1));
        for (String r : drawn) {
            assertEquals(18_000, Integer.parseInt(r), 50, "every bucket, the first and last too: " + rates.group(1));
        }
        assertTrue(dom.contains("data-legend-fits=\"true\""), "the legend's labels fit on the canvas");

        Matcher plot = Pattern.compile("id=\"rate\"[^>]*data-plot=\"(\\d+) (\\d+) (\\d+) (\\d+)\"").matcher(dom);
        assertTrue(plot.find(), "the rate chart says where it is");
        int px = Integer.parseInt(plot.group(1)), py = Integer.parseInt(plot.group(2));
        int pw = Integer.parseInt(plot.group(3)), ph = Integer.parseInt(plot.group(4));
        Path shot = Path.of("target", "heatmap-rates-chromium.png").toAbsolutePath();
        Files.createDirectories(shot.getParent());
        Files.deleteIfExists(shot);
        run(chromium("--screenshot=" + shot, "--window-size=1300,1400", "--hide-scrollbars", url), tmp.resolve("shot.log"));
        BufferedImage img = ImageIO.read(shot.toFile());
        assertNotNull(img, "the screenshot decodes");
        int top = Integer.MAX_VALUE, bottom = -1, pixels = 0;
        for (int y = py; y < py + ph && y < img.getHeight(); y++) {
            for (int x = px; x < px + pw && x < img.getWidth(); x++) {
                int rgb = img.getRGB(x, y);
                // the "all" line, #4da6ff
                if (Math.abs(((rgb >> 16) & 255) - 0x4d) < 30 && Math.abs(((rgb >> 8) & 255) - 0xa6) < 30
                        && Math.abs((rgb & 255) - 0xff) < 30) {
                    pixels++;
                    top = Math.min(top, y);
                    bottom = Math.max(bottom, y);
                }
            }
        }
        assertTrue(pixels > pw / 2, "the requests/s line is on screen (" + pixels + " pixels)");
        assertTrue(bottom - top <= 6, "a steady rate is one flat line, " + (bottom - top) + " pixels from its top to its"
                + " bottom in a plot " + ph + " high");
    }

    /** Whether a pixel has one of the heatmap palette's colours (within 3 per channel). */
    private static boolean isPaletteColour(int rgb) {
        for (int i = 0; i < HeatmapStyle.PALETTE_SIZE; i++) {
            int p = HeatmapStyle.paletteEntry(i).getRGB();
            if (Math.abs(((rgb >> 16) & 255) - ((p >> 16) & 255)) <= 3 && Math.abs(((rgb >> 8) & 255) - ((p >> 8) & 255)) <= 3
                    && Math.abs((rgb & 255) - (p & 255)) <= 3) {
                return true;
            }
        }
        return false;
    }
}
