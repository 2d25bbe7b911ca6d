package io.fluxperf.engine.compare;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The comparison as a text table: per workload, one line per figure with A's value and, for each
 * later run, its value, its ratio to A, the 95% interval and the verdict. The config keys that
 * differ come first.
 */
public final class ComparisonText {
    private ComparisonText() {
    }

    public static String render(RunComparison c) {
        StringBuilder out = new StringBuilder();
        out.append("Runs (each later run as a ratio to A; 95% interval by bootstrap over seconds, ")
                .append(c.resamples()).append(" resamples, seed ").append(c.seed())
                .append(c.minChange() > 0 ? "; faster or slower needs a change over " + percent(c.minChange()) : "")
                .append("):\n");
        for (RunComparison.RunInfo r : c.runs()) {
            out.append("  ").append(r.label()).append("  ").append(r.source()).append("  (").append(r.seconds())
                    .append(" s)\n");
        }
        out.append('\n');
        if (c.configDifferences().isEmpty()) {
            out.append("Config: the same in every run\n");
        } else {
            out.append("Config differences:\n");
            List<String[]> rows = new ArrayList<>();
            String[] head = new String[1 + c.runs().size()];
            head[0] = "key";
            for (int i = 0; i < c.runs().size(); i++) {
                head[1 + i] = c.runs().get(i).label();
            }
            rows.add(head);
            for (ConfigKeys.Difference d : c.configDifferences()) {
                String[] row = new String[1 + d.values().size()];
                row[0] = d.key();
                for (int i = 0; i < d.values().size(); i++) {
                    row[1 + i] = d.values().get(i) == null ? "(absent)" : d.values().get(i);
                }
                rows.add(row);
            }
            table(out, rows, 1);
        }
        for (RunComparison.WorkloadComparison w : c.workloads()) {
            out.append("\nWorkload ").append(w.workload()).append(RunComparison.ALL.equals(w.workload())
                    ? " (every workload together)" : "").append(":\n");
            List<String[]> rows = new ArrayList<>();
            List<String> head = new ArrayList<>(List.of("figure", c.runs().get(0).label()));
            for (int i = 1; i < c.runs().size(); i++) {
                String l = c.runs().get(i).label();
                head.addAll(List.of(l, l + "/A", "95% interval", "verdict"));
            }
            rows.add(head.toArray(String[]::new));
            for (RunComparison.Row row : w.rows()) {
                List<String> cells = new ArrayList<>(List.of(row.figure().label(), value(row.figure(), row.values().get(0))));
                for (int i = 1; i < c.runs().size(); i++) {
                    RunComparison.Versus v = row.versus().get(i - 1);
                    cells.add(value(row.figure(), row.values().get(i)));
                    cells.add(v.ratio() == null ? "-" : ratio(v.ratio()));
                    cells.add(v.low() == null ? "-" : "[" + ratio(v.low()) + ", " + ratio(v.high()) + "]");
                    cells.add(v.verdict().label());
                }
                rows.add(cells.toArray(String[]::new));
            }
            table(out, rows, 1);
        }
        return out.toString();
    }

    /** Left-aligned first column, the others right-aligned except verdicts, two spaces apart. */
    private static void table(StringBuilder out, List<String[]> rows, int leftColumns) {
        int cols = rows.stream().mapToInt(r -> r.length).max().orElse(0);
        int[] width = new int[cols];
        for (String[] r : rows) {
            for (int i = 0; i < r.length; i++) {
                width[i] = Math.max(width[i], r[i].length());
            }
        }
        for (String[] r : rows) {
            StringBuilder line = new StringBuilder("  ");
            for (int i = 0; i < r.length; i++) {
                boolean left = i < leftColumns || r[i].startsWith("no ") || r[i].equals("faster") || r[i].equals("slower")
                        || r[i].equals("verdict") || r[i].equals("few samples");
                String cell = r[i];
                String pad = " ".repeat(width[i] - cell.length());
                line.append(left ? cell + pad : pad + cell);
                if (i < r.length - 1) {
                    line.append("  ");
                }
            }
            out.append(line.toString().stripTrailing()).append('\n');
        }
    }

    /** A fraction as a percentage: 0.02 is "2%". */
    public static String percent(double fraction) {
        return java.math.BigDecimal.valueOf(fraction * 100).stripTrailingZeros().toPlainString() + "%";
    }

    public static String ratio(double r) {
        return String.format(Locale.ROOT, "%.3f", r);
    }

    /** A figure's value: a time with its unit, or requests/s. */
    public static String value(Figure f, Double v) {
        if (v == null) {
            return "-";
        }
        if (!f.isNanos()) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        return nanos(v);
    }

    /** A time in ns with three significant digits and its unit. */
    public static String nanos(double ns) {
        if (ns < 1_000) {
            return String.format(Locale.ROOT, "%.0f ns", ns);
        }
        if (ns < 1_000_000) {
            return sig3(ns / 1e3) + " us";
        }
        if (ns < 1_000_000_000) {
            return sig3(ns / 1e6) + " ms";
        }
        return sig3(ns / 1e9) + " s";
    }

    private static String sig3(double v) {
        return String.format(Locale.ROOT, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v);
    }
}
