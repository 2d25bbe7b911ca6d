package io.fluxperf.trace;

import javax.imageio.ImageIO;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.Point;
import java.awt.Rectangle;
import java.awt.RenderingHints;
import java.awt.Stroke;
import java.awt.geom.AffineTransform;
import java.awt.geom.Path2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Draws a {@link HeatmapAggregator} as a PNG in the look of rpc-perf's waterfall: a black plot, time
 * on x, latency on y in log-scaled rows, each cell coloured by its request count on a log scale
 * (dark blue few … red most; empty cells stay black), with axes, tick labels, a colour legend, and
 * the p50, p99 and p999 of each time bucket drawn as lines. Runs headless (java.awt, ImageIO).
 *
 * <p>When there are more time buckets than plot pixels, neighbouring buckets are summed into one
 * pixel column, so no spike is painted over.
 */
public final class HeatmapPngRenderer {

    public static final int DEFAULT_WIDTH = 1200;
    public static final int DEFAULT_HEIGHT = 700;
    private static final int LEFT = 80;
    private static final int RIGHT = 130;
    private static final int TOP = 56;
    private static final int BOTTOM = 56;

    private final int width;
    private final int height;
    private final boolean percentileLines;

    public HeatmapPngRenderer() {
        this(DEFAULT_WIDTH, DEFAULT_HEIGHT, true);
    }

    /**
     * @param width           image width, pixels (at least 400)
     * @param height          image height, pixels (at least 300)
     * @param percentileLines draw the p50/p99/p999 lines over the cells
     */
    public HeatmapPngRenderer(int width, int height, boolean percentileLines) {
        if (width < 400 || height < 300) {
            throw new IllegalArgumentException("a heatmap image needs at least 400x300 pixels, not " + width + "x"
                    + height);
        }
        this.width = width;
        this.height = height;
        this.percentileLines = percentileLines;
    }

    /** Where things are in the image for one heatmap. */
    public static final class Layout {
        private final Rectangle plot;
        private final int columns;
        private final int timeBuckets;
        private final int rowLo;
        private final int rowHi;

        Layout(Rectangle plot, int timeBuckets, int rowLo, int rowHi) {
            this.plot = plot;
            this.timeBuckets = timeBuckets;
            this.columns = Math.max(1, Math.min(timeBuckets, plot.width));
            this.rowLo = rowLo;
            this.rowHi = rowHi;
        }

        /** The plot area (inside the axes). */
        public Rectangle plot() {
            return plot;
        }

        /** First and last latency row shown. */
        public int rowLo() {
            return rowLo;
        }

        public int rowHi() {
            return rowHi;
        }

        int rows() {
            return rowHi - rowLo + 1;
        }

        int column(int t) {
            return (int) ((long) t * columns / Math.max(1, timeBuckets));
        }

        int x(int column) {
            return plot.x + (int) ((long) column * plot.width / columns);
        }

        /** Pixel y of a position in rows above the bottom of the plot. */
        int y(double rowPosition) {
            return plot.y + plot.height - (int) Math.round(rowPosition * plot.height / rows());
        }

        /** The middle pixel of the cell of time bucket {@code t} and latency row {@code row}. */
        public Point cellCenter(int t, int row) {
            int c = column(t);
            int x0 = x(c);
            int x1 = x(c + 1);
            int y0 = y(row - rowLo + 1);
            int y1 = y(row - rowLo);
            return new Point((x0 + x1) / 2, (y0 + y1) / 2);
        }
    }

    /** The layout this renderer uses for {@code h}. */
    public Layout layout(HeatmapAggregator h) {
        Rectangle plot = new Rectangle(LEFT, TOP, width - LEFT - RIGHT, height - TOP - BOTTOM);
        return new Layout(plot, Math.max(1, h.timeBuckets()), HeatmapStyle.rowLo(h), HeatmapStyle.rowHi(h));
    }

    /** The colour of the plot where there is no data. */
    public static Color plotBackground() {
        return HeatmapStyle.PLOT_BACKGROUND;
    }

    /** Writes the heatmap as a PNG file. */
    public void write(HeatmapAggregator h, String title, Path out) throws IOException {
        BufferedImage img = render(h, title);
        try (OutputStream os = Files.newOutputStream(out)) {
            if (!ImageIO.write(img, "png", os)) {
                throw new IOException("no PNG writer in this Java runtime");
            }
        }
    }

    /** Draws the heatmap. */
    public BufferedImage render(HeatmapAggregator h, String title) {
        Layout l = layout(h);
        BufferedImage img = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(HeatmapStyle.PAGE_BACKGROUND);
            g.fillRect(0, 0, width, height);
            g.setColor(HeatmapStyle.PLOT_BACKGROUND);
            g.fill(l.plot);
            long max = drawCells(g, h, l);
            drawGrid(g, h, l);
            drawPauses(g, h, l);
            if (percentileLines && h.totalCount() > 0) {
                g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
                drawPercentile(g, h, l, 50, HeatmapStyle.P50, new BasicStroke(2f));
                drawPercentile(g, h, l, 99, HeatmapStyle.P99, new BasicStroke(2f));
                drawPercentile(g, h, l, 99.9, HeatmapStyle.P999, new BasicStroke(2f, BasicStroke.CAP_BUTT,
                        BasicStroke.JOIN_ROUND, 1f, new float[]{5f, 4f}, 0f));
                g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_OFF);
            }
            drawAxes(g, h, l);
            drawLegend(g, l, max);
            drawTitle(g, h, title);
        } finally {
            g.dispose();
        }
        return img;
    }

    /** Sums buckets into pixel columns, paints the non-empty cells, returns the largest cell count. */
    private long drawCells(Graphics2D g, HeatmapAggregator h, Layout l) {
        int rows = l.rows();
        long[] grid = new long[l.columns * rows];
        for (int t = 0; t < h.timeBuckets(); t++) {
            int c = l.column(t);
            for (int r = 0; r < rows; r++) {
                grid[c * rows + r] += h.count(t, l.rowLo + r);
            }
        }
        long max = 0;
        for (long v : grid) {
            max = Math.max(max, v);
        }
        for (int c = 0; c < l.columns; c++) {
            int x0 = l.x(c);
            int w = Math.max(1, l.x(c + 1) - x0);
            for (int r = 0; r < rows; r++) {
                long v = grid[c * rows + r];
                if (v == 0) {
                    continue;
                }
                int y0 = l.y(r + 1);
                int hgt = Math.max(1, l.y(r) - y0);
                g.setColor(HeatmapStyle.color(v, max));
                g.fillRect(x0, y0, w, hgt);
            }
        }
        return max;
    }

    private void drawGrid(Graphics2D g, HeatmapAggregator h, Layout l) {
        g.setColor(HeatmapStyle.GRID);
        for (HeatmapStyle.Tick t : HeatmapStyle.latencyTicks(l.rowLo, l.rowHi)) {
            int y = l.y(HeatmapStyle.rowPosition((long) t.value(), l.rowLo, l.rowHi));
            g.drawLine(l.plot.x, y, l.plot.x + l.plot.width - 1, y);
        }
        for (HeatmapStyle.Tick t : timeTicks(h)) {
            int x = timeX(h, l, t.value());
            g.drawLine(x, l.plot.y, x, l.plot.y + l.plot.height - 1);
        }
    }

    private static java.util.List<HeatmapStyle.Tick> timeTicks(HeatmapAggregator h) {
        return HeatmapStyle.timeTicks(startSeconds(h), endSeconds(h));
    }

    private static double startSeconds(HeatmapAggregator h) {
        return h.timeBuckets() == 0 ? 0 : h.bucketStartNanos(0) / 1e9;
    }

    private static double endSeconds(HeatmapAggregator h) {
        return h.timeBuckets() == 0 ? 1 : h.bucketStartNanos(h.timeBuckets()) / 1e9;
    }

    private static int timeX(HeatmapAggregator h, Layout l, double seconds) {
        double f = (seconds - startSeconds(h)) / (endSeconds(h) - startSeconds(h));
        return l.plot.x + (int) Math.round(Math.max(0, Math.min(1, f)) * (l.plot.width - 1));
    }

    /**
     * The client's pauses as translucent bands over the plot, at least 3 px wide, each labelled
     * at its top with its cause: requests due in them waited in the client.
     */
    private void drawPauses(Graphics2D g, HeatmapAggregator h, Layout l) {
        if (h.timeBuckets() == 0 || h.pauses().isEmpty()) {
            return;
        }
        Rectangle oldClip = g.getClipBounds();
        g.setClip(l.plot);
        for (TracePauses.Pause p : h.pauses()) {
            int x0 = timeX(h, l, p.startNanos() / 1e9);
            int x1 = Math.max(x0 + 3, timeX(h, l, p.endNanos() / 1e9));
            g.setColor(HeatmapStyle.PAUSE_FILL);
            g.fillRect(x0, l.plot.y, x1 - x0, l.plot.height);
            g.setColor(HeatmapStyle.PAUSE_EDGE);
            g.drawRect(x0, l.plot.y, x1 - x0 - 1, l.plot.height - 1);
            g.drawString("pause: " + p.cause(), x0 + 2, l.plot.y + 12);
        }
        g.setClip(oldClip);
    }

    private void drawPercentile(Graphics2D g, HeatmapAggregator h, Layout l, double p, Color color, Stroke stroke) {
        Path2D.Double path = new Path2D.Double();
        boolean open = false;
        for (int t = 0; t < h.timeBuckets(); t++) {
            long v = h.percentileNanos(t, p);
            if (v < 0) {
                open = false;
                continue;
            }
            int c = l.column(t);
            double x = (l.x(c) + l.x(c + 1)) / 2.0;
            double y = l.y(HeatmapStyle.rowPosition(v, l.rowLo, l.rowHi));
            if (open) {
                path.lineTo(x, y);
            } else {
                path.moveTo(x, y);
                path.lineTo(x + 0.01, y); // a lone bucket still shows as a dot
                open = true;
            }
        }
        Rectangle oldClip = g.getClipBounds();
        g.setClip(l.plot);
        g.setColor(new Color(0, 0, 0, 170)); // a dark edge keeps the line visible over any cell colour
        g.setStroke(new BasicStroke(4f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
        g.draw(path);
        g.setColor(color);
        g.setStroke(stroke);
        g.draw(path);
        g.setStroke(new BasicStroke(1f));
        g.setClip(oldClip);
    }

    private void drawAxes(Graphics2D g, HeatmapAggregator h, Layout l) {
        Font font = new Font(Font.SANS_SERIF, Font.PLAIN, 12);
        g.setFont(font);
        FontMetrics fm = g.getFontMetrics();
        g.setColor(HeatmapStyle.TEXT);
        int bottom = l.plot.y + l.plot.height;
        g.drawLine(l.plot.x - 1, l.plot.y, l.plot.x - 1, bottom);
        g.drawLine(l.plot.x - 1, bottom, l.plot.x + l.plot.width, bottom);
        for (HeatmapStyle.Tick t : HeatmapStyle.latencyTicks(l.rowLo, l.rowHi)) {
            int y = l.y(HeatmapStyle.rowPosition((long) t.value(), l.rowLo, l.rowHi));
            g.drawLine(l.plot.x - 5, y, l.plot.x - 1, y);
            g.drawString(t.label(), l.plot.x - 8 - fm.stringWidth(t.label()), y + fm.getAscent() / 2 - 1);
        }
        for (HeatmapStyle.Tick t : timeTicks(h)) {
            int x = timeX(h, l, t.value());
            g.drawLine(x, bottom, x, bottom + 4);
            g.drawString(t.label(), x - fm.stringWidth(t.label()) / 2, bottom + 6 + fm.getAscent());
        }
        String xTitle = "time since start (intended send; " + HeatmapStyle.bucketLabel(h.bucketNanos())
                + " buckets)";
        g.drawString(xTitle, l.plot.x + (l.plot.width - fm.stringWidth(xTitle)) / 2, height - 12);
        String yTitle = h.latency().label() + " latency";
        AffineTransform old = g.getTransform();
        g.rotate(-Math.PI / 2);
        g.drawString(yTitle, -(l.plot.y + (l.plot.height + fm.stringWidth(yTitle)) / 2), 16);
        g.setTransform(old);
    }

    private void drawLegend(Graphics2D g, Layout l, long max) {
        int barX = width - RIGHT + 24;
        int barW = 16;
        int top = l.plot.y;
        int hgt = l.plot.height;
        for (int i = 0; i < hgt; i++) {
            int idx = (int) Math.round((hgt - 1 - i) * (HeatmapStyle.PALETTE_SIZE - 1) / (double) (hgt - 1));
            g.setColor(HeatmapStyle.paletteEntry(idx));
            g.drawLine(barX, top + i, barX + barW - 1, top + i);
        }
        g.setColor(HeatmapStyle.TEXT);
        g.drawRect(barX - 1, top - 1, barW + 1, hgt + 1);
        FontMetrics fm = g.getFontMetrics();
        for (long c : HeatmapStyle.legendCounts(max)) {
            int idx = HeatmapStyle.paletteIndex(c, max);
            int y = top + hgt - 1 - (int) Math.round(idx * (hgt - 1) / (double) (HeatmapStyle.PALETTE_SIZE - 1));
            g.drawLine(barX + barW, y, barX + barW + 4, y);
            g.drawString(String.valueOf(c), barX + barW + 7, y + fm.getAscent() / 2 - 1);
        }
        g.drawString("requests", barX - 6, top - 30);
        g.drawString("per cell", barX - 6, top - 16);
    }

    private void drawTitle(Graphics2D g, HeatmapAggregator h, String title) {
        g.setColor(HeatmapStyle.TEXT);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        g.drawString(title, LEFT, 22);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        FontMetrics fm = g.getFontMetrics();
        int x = LEFT;
        int y = 42;
        String info = h.totalCount() + " requests   ";
        g.drawString(info, x, y);
        x += fm.stringWidth(info);
        x = key(g, fm, x, y, HeatmapStyle.P50, "p50", false);
        x = key(g, fm, x, y, HeatmapStyle.P99, "p99", false);
        key(g, fm, x, y, HeatmapStyle.P999, "p999", true);
    }

    private static int key(Graphics2D g, FontMetrics fm, int x, int y, Color c, String label, boolean dashed) {
        g.setColor(c);
        if (dashed) {
            g.drawLine(x, y - 4, x + 6, y - 4);
            g.drawLine(x + 11, y - 4, x + 17, y - 4);
        } else {
            g.fillRect(x, y - 5, 18, 2);
        }
        g.setColor(HeatmapStyle.TEXT);
        g.drawString(label, x + 22, y);
        return x + 22 + fm.stringWidth(label) + 16;
    }
}
