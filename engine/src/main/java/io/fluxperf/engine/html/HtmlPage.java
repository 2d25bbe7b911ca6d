package io.fluxperf.engine.html;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * One self-contained HTML page: tables written here, charts drawn in the browser by the inline
 * {@code charts.js} from the page's data (inline JSON). Nothing is fetched from the network, so the
 * file can be mailed, archived with the run or opened offline.
 */
public final class HtmlPage {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CHARTS = resource("charts.js");

    private final String title;
    private final StringBuilder body = new StringBuilder();

    public HtmlPage(String title) {
        this.title = title;
    }

    public HtmlPage h1(String text) {
        return tag("h1", text);
    }

    public HtmlPage h2(String text) {
        return tag("h2", text);
    }

    public HtmlPage h3(String text) {
        return tag("h3", text);
    }

    public HtmlPage p(String text) {
        return tag("p", text);
    }

    public HtmlPage pre(String text) {
        return tag("pre", text);
    }

    /** A placeholder the page's script draws charts into. */
    public HtmlPage div(String id) {
        body.append("<div id=\"").append(escape(id)).append("\"></div>\n");
        return this;
    }

    /** Markup as given: the caller escaped what needs it. */
    public HtmlPage raw(String html) {
        body.append(html);
        return this;
    }

    /** A table: the first row is the header; cells that look like numbers are right-aligned. */
    public HtmlPage table(List<String[]> rows) {
        body.append("<table>\n");
        for (int i = 0; i < rows.size(); i++) {
            String cell = i == 0 ? "th" : "td";
            body.append("<tr>");
            for (String c : rows.get(i)) {
                String v = c == null ? "" : c;
                boolean num = i > 0 && v.matches("[-+\\[]?[0-9.,]+.*") && !v.contains(" ") || v.matches("[0-9.]+ (ns|us|µs|ms|s)");
                String cls = num ? "n" : v.equals("slower") || v.equals("faster") ? v : null;
                body.append('<').append(cell).append(cls != null ? " class=\"" + cls + "\"" : "").append('>').append(escape(v))
                        .append("</").append(cell).append('>');
            }
            body.append("</tr>\n");
        }
        body.append("</table>\n");
        return this;
    }

    private HtmlPage tag(String tag, String text) {
        body.append('<').append(tag).append('>').append(escape(text)).append("</").append(tag).append(">\n");
        return this;
    }

    /**
     * The page.
     *
     * @param data   the data the script reads as {@code D}
     * @param script the page's own drawing code, run after charts.js
     */
    public String render(JsonNode data, String script) {
        String json;
        try {
            json = JSON.writeValueAsString(data);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        // keep the data from closing its <script> element early
        json = json.replace("</", "<\\/").replace("<!--", "<\\!--");
        return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + escape(title)
                + "</title>\n<style>\n" + STYLE + "</style>\n</head>\n<body>\n" + body
                + "<script>const D = " + json + ";</script>\n<script>\n" + CHARTS + "</script>\n<script>\n(function () {\n"
                + "\"use strict\";\n" + script + "\ndocument.body.setAttribute(\"data-done\", \"true\");\n})();\n</script>\n"
                + "</body>\n</html>\n";
    }

    public static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private static String resource(String name) {
        try (InputStream in = HtmlPage.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static final String STYLE = """
            body { font: 13px system-ui, sans-serif; color: #222; background: #fff; margin: 16px 24px; }
            h1 { font-size: 20px; margin: 0 0 6px; }
            h2 { font-size: 16px; margin: 24px 0 6px; border-bottom: 1px solid #ccc; }
            h3 { font-size: 13px; margin: 10px 0 2px; font-weight: 600; }
            table { border-collapse: collapse; margin: 4px 0 8px; }
            th, td { border: 1px solid #ccc; padding: 2px 8px; text-align: left; white-space: nowrap; }
            th { background: #f2f2f2; }
            td.n { text-align: right; font-variant-numeric: tabular-nums; }
            td.slower { background: #fbe0e0; } td.faster { background: #dff3df; }
            pre { background: #f6f6f6; padding: 8px 12px; overflow-x: auto; }
            .chart { display: inline-block; vertical-align: top; margin: 0 12px 8px 0; }
            iframe { border: 1px solid #ccc; width: 1240px; height: 1300px; display: block; }
            """;
}
