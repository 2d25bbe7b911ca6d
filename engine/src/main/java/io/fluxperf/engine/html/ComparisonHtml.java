package io.fluxperf.engine.html;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxperf.engine.compare.Bootstrap;
import io.fluxperf.engine.compare.ComparisonJson;
import io.fluxperf.engine.compare.ComparisonText;
import io.fluxperf.engine.compare.ConfigKeys;
import io.fluxperf.engine.compare.RunComparison;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code compare --html}: the comparison's tables and, per workload, every run's percentile
 * spectrum overlaid on HdrHistogram's "nines" axis, as one self-contained page.
 */
public final class ComparisonHtml {
    private ComparisonHtml() {
    }

    public static String render(RunComparison c) {
        HtmlPage page = new HtmlPage("fluxperf compare");
        page.h1("fluxperf compare");
        page.p("Each later run as a ratio to A, with a " + Math.round(Bootstrap.CONFIDENCE * 100)
                + "% interval by bootstrap over the runs' seconds (" + c.resamples() + " resamples, seed " + c.seed()
                + "); the verdict is faster or slower when the interval excludes 1"
                + (c.minChange() > 0 ? " and the change is over " + ComparisonText.percent(c.minChange()) : "") + ".");
        List<String[]> runs = new ArrayList<>();
        runs.add(new String[] {"run", "directory", "seconds"});
        c.runs().forEach(r -> runs.add(new String[] {r.label(), r.source(), Integer.toString(r.seconds())}));
        page.table(runs);
        page.h2("Config differences");
        if (c.configDifferences().isEmpty()) {
            page.p("The same config in every run.");
        } else {
            List<String[]> rows = new ArrayList<>();
            String[] head = new String[1 + c.runs().size()];
            head[0] = "key";
            for (int i = 0; i < c.runs().size(); i++) {
                head[1 + i] = c.runs().get(i).label();
            }
            rows.add(head);
            for (ConfigKeys.Difference d : c.configDifferences()) {
                String[] row = new String[head.length];
                row[0] = d.key();
                for (int i = 0; i < d.values().size(); i++) {
                    row[1 + i] = d.values().get(i) == null ? "(absent)" : d.values().get(i);
                }
                rows.add(row);
            }
            page.table(rows);
        }
        for (int w = 0; w < c.workloads().size(); w++) {
            RunComparison.WorkloadComparison wc = c.workloads().get(w);
            page.h2("Workload " + wc.workload() + (RunComparison.ALL.equals(wc.workload()) ? " (every workload together)" : ""));
            List<String[]> rows = new ArrayList<>();
            List<String> head = new ArrayList<>(List.of("figure", c.runs().get(0).label()));
            for (int i = 1; i < c.runs().size(); i++) {
                String l = c.runs().get(i).label();
                head.addAll(List.of(l, l + "/A", "95% interval", "verdict"));
            }
            rows.add(head.toArray(String[]::new));
            for (RunComparison.Row row : wc.rows()) {
                List<String> cells = new ArrayList<>(List.of(row.figure().label(),
                        ComparisonText.value(row.figure(), row.values().get(0))));
                for (int i = 1; i < c.runs().size(); i++) {
                    RunComparison.Versus v = row.versus().get(i - 1);
                    cells.add(ComparisonText.value(row.figure(), row.values().get(i)));
                    cells.add(v.ratio() == null ? "-" : ComparisonText.ratio(v.ratio()));
                    cells.add(v.low() == null ? "-" : "[" + ComparisonText.ratio(v.low()) + ", "
                            + ComparisonText.ratio(v.high()) + "]");
                    cells.add(v.verdict().label());
                }
                rows.add(cells.toArray(String[]::new));
            }
            page.table(rows);
            page.div("spectrum-" + w);
        }
        ObjectNode data = ComparisonJson.tree(c);
        return page.render(data, SCRIPT);
    }

    private static final String SCRIPT = """
            D.workloads.forEach(function (w, i) {
              const series = [];
              w.spectra.forEach(function (points, r) {
                if (points.length > 0) series.push({ name: D.runs[r].label + "  " + D.runs[r].dir.split("/").pop(), points: points });
              });
              FluxCharts.spectrum(document.getElementById("spectrum-" + i),
                "Latency by percentile, " + w.workload + " (intended)", series);
            });
            """;
}
