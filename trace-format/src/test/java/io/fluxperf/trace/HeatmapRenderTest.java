package io.fluxperf.trace;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.Color;
import java.awt.Point;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HeatmapRenderTest {

    private static final long S = 1_000_000_000L;

    @TempDir
    Path tmp;

    /** 10 s: 130 µs for the first 5 s, then 13 ms (clear of the grid lines); 1000 requests per second. */
    static HeatmapAggregator twoPhases() {
        HeatmapAggregator h = new HeatmapAggregator(S, Latency.INTENDED);
        for (int s = 0; s < 10; s++) {
            for (int i = 0; i < 1000; i++) {
                h.add(s * S + i * 1_000_000L, s < 5 ? 130_000 : 13_000_000, i % 50 == 0 ? Outcome.MISS : Outcome.OK);
            }
        }
        return h;
    }

    @Test
    void thePngDecodesHasTheSizeAskedForAndColoursOnlyWhereDataLies() throws Exception {
        HeatmapAggregator h = twoPhases();
        HeatmapPngRenderer renderer = new HeatmapPngRenderer(1000, 600, false);
        Path png = tmp.resolve("heatmap.png");
        renderer.write(h, "test heatmap", png);

        BufferedImage img = ImageIO.read(png.toFile());
        assertNotNull(img, "ImageIO decodes it");
        assertEquals(1000, img.getWidth());
        assertEquals(600, img.getHeight());

        HeatmapPngRenderer.Layout layout = renderer.layout(h);
        int bg = HeatmapPngRenderer.plotBackground().getRGB();
        int r100us = LatencyBuckets.row(130_000);
        int r10ms = LatencyBuckets.row(13_000_000);
        Color full = HeatmapStyle.color(1000, 1000);
        for (int t = 0; t < 10; t++) {
            Point data = layout.cellCenter(t, t < 5 ? r100us : r10ms);
            Point empty = layout.cellCenter(t, t < 5 ? r10ms : r100us);
            assertEquals(full.getRGB(), img.getRGB(data.x, data.y), "cell with data at t=" + t);
            assertEquals(bg, img.getRGB(empty.x, empty.y), "empty cell at t=" + t);
        }
        // somewhere between the two latencies, nothing
        Point between = layout.cellCenter(2, LatencyBuckets.row(1_300_000));
        assertEquals(bg, img.getRGB(between.x, between.y));
        // the page around the plot is not the plot background, and the legend holds the palette
        assertNotEquals(bg, img.getRGB(5, 5));
    }

    @Test
    void percentileLinesAreDrawnOverTheCells() {
        HeatmapAggregator h = twoPhases();
        BufferedImage plain = new HeatmapPngRenderer(1000, 600, false).render(h, "t");
        BufferedImage lined = new HeatmapPngRenderer(1000, 600, true).render(h, "t");
        HeatmapPngRenderer.Layout layout = new HeatmapPngRenderer(1000, 600, true).layout(h);
        // between bucket 4 (100 µs) and bucket 5 (10 ms) the lines climb through empty rows
        Point p = layout.cellCenter(4, LatencyBuckets.row(1_000_000));
        int x = (p.x + layout.cellCenter(5, 0).x) / 2;
        boolean differs = false;
        for (int y = layout.plot().y; y < layout.plot().y + layout.plot().height; y++) {
            differs |= plain.getRGB(x, y) != lined.getRGB(x, y);
        }
        assertTrue(differs, "a percentile line crosses x=" + x);
    }

    @Test
    void anEmptyHeatmapStillRenders() {
        BufferedImage img = new HeatmapPngRenderer().render(new HeatmapAggregator(S, Latency.SERVICE), "empty");
        assertEquals(HeatmapPngRenderer.DEFAULT_WIDTH, img.getWidth());
    }

    @Test
    void theHtmlIsSelfContained() throws Exception {
        Path html = tmp.resolve("heatmap.html");
        new HeatmapHtmlRenderer().write(twoPhases(), "test </script> heatmap", List.of("Requests: 10000"), html);
        String text = Files.readString(html);
        assertFalse(text.contains("http://"), "no http:// reference");
        assertFalse(text.contains("https://"), "no https:// reference");
        assertFalse(text.matches("(?s).*<(script|img|link|iframe)[^>]*\\b(src|href)=.*"), "nothing loaded");
        assertFalse(text.contains("@import") || text.contains("url("), "no CSS fetches");
        assertTrue(text.contains("<canvas id=\"heat\""));
        assertTrue(text.contains("\"cells\":[0,"), "the data is inline");
        assertTrue(text.contains("test <\\/script> heatmap"), "data cannot close its script element");
        assertTrue(text.contains("<title>test &lt;/script&gt; heatmap</title>"));
        assertEquals(1, text.split("</script>", -1).length - 2, "two script elements");
    }
}
