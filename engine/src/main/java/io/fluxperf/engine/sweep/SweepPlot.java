package io.fluxperf.engine.sweep;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Line2D;
import java.awt.geom.Path2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;

/**
 * The latency-vs-throughput plot of a sweep: p50, p99 and p999 against achieved requests/s, each
 * latency objective as a horizontal line, and the knee marked. Drawn as a PNG (Java2D, headless)
 * and as a self-contained HTML page with the same picture in inline SVG and the table beside it.
 */
public final class SweepPlot {
    /** The series' colours: p50, p99, p999. */
    private static final Color[] COLOURS = {new Color(0x1f77b4), new Color(0xff7f0e), new Color(0xd62728)};
    private static final Color OBJECTIVE = new Color(0x2ca02c);
    private static final Color KNEE = new Color(0x6a3d9a);

    private final SweepResult result;
    private final List<PlotFrame.Bound> bounds;
    private final PlotFrame frame;
    private final String title;

    public SweepPlot(SweepResult result, List<StepObjective> objectives, String title) {
        this.result = result;
        this.bounds = PlotFrame.bounds(objectives);
        this.frame = new PlotFrame(result, bounds);
        this.title = title;
    }

    private static String hex(Color c) {
        return String.format(Locale.ROOT, "#%06x", c.getRGB() & 0xffffff);
    }

    // ---- PNG ----

    public void writePng(Path png) throws IOException {
        BufferedImage img = render();
        try (OutputStream os = Files.newOutputStream(png)) {
            if (!ImageIO.write(img, "png", os)) {
                throw new IOException("no PNG writer in this JVM");
            }
        }
    }

    BufferedImage render() {
        BufferedImage img = new BufferedImage(PlotFrame.WIDTH, PlotFrame.HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, PlotFrame.WIDTH, PlotFrame.HEIGHT);
            g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
            g.setColor(Color.BLACK);
            g.drawString(title, PlotFrame.LEFT, 25);
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
            axes(g);
            for (PlotFrame.Bound b : bounds) {
                double y = frame.y(b.ms());
                g.setColor(OBJECTIVE);
                g.setStroke(new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10, new float[] {8, 5}, 0));
                g.draw(new Line2D.Double(PlotFrame.LEFT, y, PlotFrame.WIDTH - PlotFrame.RIGHT, y));
                g.drawString(b.text(), PlotFrame.WIDTH - PlotFrame.RIGHT - 110, (float) y - 5);
            }
            List<SweepStep> steps = byAchieved();
            for (int i = 0; i < PlotFrame.SERIES.length; i++) {
                g.setColor(COLOURS[i]);
                g.setStroke(new BasicStroke(2f));
                Path2D line = new Path2D.Double();
                boolean first = true;
                for (SweepStep s : steps) {
                    double x = frame.x(s.achieved());
                    double y = frame.y(PlotFrame.latencyMs(s, PlotFrame.SERIES[i]));
                    if (first) {
                        line.moveTo(x, y);
                        first = false;
                    } else {
                        line.lineTo(x, y);
                    }
                }
                g.draw(line);
                for (SweepStep s : steps) {
                    double x = frame.x(s.achieved());
                    double y = frame.y(PlotFrame.latencyMs(s, PlotFrame.SERIES[i]));
                    g.fill(new Ellipse2D.Double(x - 4, y - 4, 8, 8));
                }
                g.fillRect(PlotFrame.LEFT + 10 + i * 80, 38, 14, 4);
                g.drawString(PlotFrame.SERIES[i], PlotFrame.LEFT + 28 + i * 80, 44);
            }
            SweepStep k = result.knee();
            if (k != null) {
                double x = frame.x(k.achieved());
                g.setColor(KNEE);
                g.setStroke(new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10, new float[] {3, 4}, 0));
                g.draw(new Line2D.Double(x, PlotFrame.TOP, x, PlotFrame.HEIGHT - PlotFrame.BOTTOM));
                g.setStroke(new BasicStroke(2.5f));
                double y = frame.y(PlotFrame.latencyMs(k, "p99"));
                g.draw(new Ellipse2D.Double(x - 9, y - 9, 18, 18));
                g.drawString(kneeLabel(k), (float) Math.min(x + 8, PlotFrame.WIDTH - 260), PlotFrame.TOP + 14);
            }
        } finally {
            g.dispose();
        }
        return img;
    }

    private void axes(Graphics2D g) {
        int x0 = PlotFrame.LEFT;
        int x1 = PlotFrame.WIDTH - PlotFrame.RIGHT;
        int y0 = PlotFrame.HEIGHT - PlotFrame.BOTTOM;
        int y1 = PlotFrame.TOP;
        g.setStroke(new BasicStroke(1f));
        for (double t : frame.yTicks()) {
            int y = (int) Math.round(frame.y(t));
            g.setColor(new Color(0xe6e6e6));
            g.drawLine(x0, y, x1, y);
            g.setColor(Color.DARK_GRAY);
            String label = PlotFrame.msLabel(t);
            g.drawString(label, x0 - 8 - g.getFontMetrics().stringWidth(label), y + 4);
        }
        for (double t : frame.xTicks()) {
            int x = (int) Math.round(frame.x(t));
            g.setColor(new Color(0xe6e6e6));
            g.drawLine(x, y0, x, y1);
            g.setColor(Color.DARK_GRAY);
            String label = PlotFrame.rateLabel(t);
            g.drawString(label, x - g.getFontMetrics().stringWidth(label) / 2, y0 + 18);
        }
        g.setColor(Color.BLACK);
        g.drawLine(x0, y0, x1, y0);
        g.drawLine(x0, y0, x0, y1);
        String xTitle = "achieved requests/s";
        g.drawString(xTitle, (x0 + x1) / 2 - g.getFontMetrics().stringWidth(xTitle) / 2, y0 + 45);
        Graphics2D rotated = (Graphics2D) g.create();
        rotated.rotate(-Math.PI / 2);
        rotated.drawString("latency (log scale)", -(y0 + y1) / 2 - 50, 22);
        rotated.dispose();
    }

    private List<SweepStep> byAchieved() {
        return result.steps().stream().sorted(java.util.Comparator.comparingDouble(SweepStep::achieved)).toList();
    }

    /** The knee's label; when no step failed, the highest rate tried is only a floor of the knee. */
    private String kneeLabel(SweepStep k) {
        return (result.kneeAboveTo() ? "knee above " : "knee ") + Rates.format(k.target()) + "/s (achieved "
                + Rates.format(Math.round(k.achieved())) + "/s)";
    }

    // ---- HTML with inline SVG ----

    public void writeHtml(Path html) throws IOException {
        Files.writeString(html, html(), StandardCharsets.UTF_8);
    }

    String html() {
        StringBuilder b = new StringBuilder();
        b.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>").append(esc(title))
                .append("</title>\n<style>body{font-family:sans-serif;margin:20px;color:#222}"
                        + "table{border-collapse:collapse;margin-top:16px;font-size:13px}"
                        + "td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}"
                        + "td.l,th.l{text-align:left}tr.bad{color:#a00}tr.knee{font-weight:bold;background:#efe8f6}"
                        + "svg text{font-size:12px;font-family:sans-serif}</style></head><body>\n");
        b.append("<h2>").append(esc(title)).append("</h2>\n");
        b.append("<p>").append(esc(SweepTable.kneeLine(result))).append("<br>Stopped: ")
                .append(esc(result.stoppedBecause())).append("</p>\n");
        svg(b);
        table(b);
        b.append("</body></html>\n");
        return b.toString();
    }

    private void svg(StringBuilder b) {
        int x0 = PlotFrame.LEFT;
        int x1 = PlotFrame.WIDTH - PlotFrame.RIGHT;
        int y0 = PlotFrame.HEIGHT - PlotFrame.BOTTOM;
        int y1 = PlotFrame.TOP;
        b.append(String.format(Locale.ROOT, "<svg id=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                + " viewBox=\"0 0 %d %d\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
                PlotFrame.WIDTH, PlotFrame.HEIGHT, PlotFrame.WIDTH, PlotFrame.HEIGHT));
        for (double t : frame.yTicks()) {
            double y = frame.y(t);
            b.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e6e6e6\"/>"
                    + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" fill=\"#444\">%s</text>\n", x0, y, x1, y, x0 - 8, y + 4,
                    esc(PlotFrame.msLabel(t))));
        }
        for (double t : frame.xTicks()) {
            double x = frame.x(t);
            b.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#e6e6e6\"/>"
                    + "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#444\">%s</text>\n", x, y0, x, y1, x, y0 + 18,
                    esc(PlotFrame.rateLabel(t))));
        }
        b.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>"
                + "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", x0, y0, x1, y0, x0, y0, x0, y1));
        b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">achieved requests/s</text>\n"
                + "<text transform=\"rotate(-90)\" x=\"%d\" y=\"22\" text-anchor=\"middle\">latency (log scale)</text>\n",
                (x0 + x1) / 2, y0 + 45, -(y0 + y1) / 2));
        for (PlotFrame.Bound bound : bounds) {
            double y = frame.y(bound.ms());
            b.append(String.format(Locale.ROOT, "<g class=\"objective\" data-objective=\"%s\" data-bound-ms=\"%s\">"
                    + "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1.5\" stroke-dasharray=\"8 5\"/>"
                    + "<text x=\"%d\" y=\"%.1f\" fill=\"%s\">%s</text></g>\n", esc(bound.text()), num(bound.ms()), x0, y, x1, y,
                    hex(OBJECTIVE), x1 - 110, y - 5, hex(OBJECTIVE), esc(bound.text())));
        }
        List<SweepStep> steps = byAchieved();
        for (int i = 0; i < PlotFrame.SERIES.length; i++) {
            String series = PlotFrame.SERIES[i];
            String colour = hex(COLOURS[i]);
            StringBuilder points = new StringBuilder();
            for (SweepStep s : steps) {
                points.append(String.format(Locale.ROOT, "%.1f,%.1f ", frame.x(s.achieved()),
                        frame.y(PlotFrame.latencyMs(s, series))));
            }
            b.append("<g class=\"series\" data-series=\"").append(series).append("\">");
            b.append("<polyline fill=\"none\" stroke=\"").append(colour).append("\" stroke-width=\"2\" points=\"")
                    .append(points.toString().trim()).append("\"/>");
            for (SweepStep s : steps) {
                double ms = PlotFrame.latencyMs(s, series);
                b.append(String.format(Locale.ROOT, "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\""
                        + " data-target=\"%s\" data-achieved=\"%s\" data-latency-ms=\"%s\"><title>%s %s at %s/s</title></circle>",
                        frame.x(s.achieved()), frame.y(ms), colour, num(s.target()), num(Math.round(s.achieved())), num(ms),
                        series, esc(PlotFrame.msLabel(ms)), esc(Rates.format(Math.round(s.achieved())))));
            }
            b.append("</g>\n");
            b.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"38\" width=\"14\" height=\"4\" fill=\"%s\"/>"
                    + "<text x=\"%d\" y=\"44\">%s</text>\n", x0 + 10 + i * 80, colour, x0 + 28 + i * 80, series));
        }
        SweepStep k = result.knee();
        if (k != null) {
            double x = frame.x(k.achieved());
            double y = frame.y(PlotFrame.latencyMs(k, "p99"));
            b.append(String.format(Locale.ROOT, "<g id=\"knee\" data-target=\"%s\" data-achieved=\"%s\">"
                    + "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" stroke-width=\"1.5\" stroke-dasharray=\"3 4\"/>"
                    + "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"9\" fill=\"none\" stroke=\"%s\" stroke-width=\"2.5\"/>"
                    + "<text x=\"%.1f\" y=\"%d\" fill=\"%s\">%s</text></g>\n", num(k.target()), num(Math.round(k.achieved())),
                    x, y1, x, y0, hex(KNEE), x, y, hex(KNEE), Math.min(x + 8, PlotFrame.WIDTH - 260.0), y1 + 14, hex(KNEE),
                    esc(kneeLabel(k))));
        }
        b.append("</svg>\n");
    }

    private void table(StringBuilder b) {
        b.append("<table><tr><th>step</th><th>target/s</th><th>achieved/s</th><th>p50 ms</th><th>p99 ms</th>"
                + "<th>p999 ms</th><th>errors</th><th class=\"l\">objectives met</th></tr>\n");
        SweepStep knee = result.knee();
        for (SweepStep s : result.byRate()) {
            b.append("<tr class=\"").append(s == knee ? "knee" : s.good() ? "good" : "bad").append("\"><td>")
                    .append(s.label()).append("</td><td>").append(Rates.format(s.target()))
                    .append("</td><td>").append(Rates.format(Math.round(s.achieved()))).append("</td><td>")
                    .append(SweepTable.ms(s.p50())).append("</td><td>").append(SweepTable.ms(s.p99())).append("</td><td>")
                    .append(SweepTable.ms(s.p999())).append("</td><td>").append(s.errors()).append("</td><td class=\"l\">")
                    .append(esc(s.good() ? "yes" : "no: " + s.failure())).append("</td></tr>\n");
        }
        b.append("</table>\n");
    }

    private static String num(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : String.format(Locale.ROOT, "%.6g", v);
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
