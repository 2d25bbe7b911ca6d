package io.fluxperf.engine.report;

import io.fluxperf.engine.metrics.OutcomeCounts;
import io.fluxperf.engine.metrics.PoolFigures;
import io.fluxperf.engine.metrics.ServerSample;
import io.fluxperf.engine.metrics.ServerStats;
import io.fluxperf.engine.metrics.WindowResult;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.AbstractHistogram;

/**
 * The per-server lines of a run with several servers or a cluster, after each window's block and
 * in each statistics block: one line per server with its requests by outcome, rate and latency
 * percentiles, and for a cluster the redirects its nodes answered with and the window's
 * {@code Topology:} line (changes seen, slots without a master). A run against one server has none
 * of these lines.
 */
final class ServerLines {
    private ServerLines() {
    }

    /** The lines of {@code w}'s servers; none when it has no per-server figures. */
    static List<String> window(WindowResult w) {
        PoolFigures pool = w.pool();
        List<String> lines = new ArrayList<>();
        if (pool == null) {
            return lines;
        }
        for (ServerStats s : pool.servers()) {
            if (!s.shown()) {
                continue;
            }
            OutcomeCounts o = s.outcomes();
            AbstractHistogram h = s.latency();
            boolean timed = h.getTotalCount() > 0;
            StringBuilder b = new StringBuilder(s.isNotSent() ? "Server " + s.name() + " (keys on several servers)"
                    : (s.role() != null ? "Node " + s.name() + " " + s.role() : "Server " + s.name()));
            b.append(": Requests: ").append(o.requests()).append(" Ok: ").append(o.ok()).append(" Miss: ").append(o.miss())
                    .append(" Error: ").append(o.error()).append(" Timeout: ").append(o.timeout()).append(" Closed: ")
                    .append(o.closed()).append(" Rate: ").append(Math.round(o.requests() / w.seconds())).append(" rps")
                    .append(" p50: ").append(timed ? h.getValueAtPercentile(50) : 0).append(" ns p99: ")
                    .append(timed ? h.getValueAtPercentile(99) : 0).append(" ns p999: ")
                    .append(timed ? h.getValueAtPercentile(99.9) : 0).append(" ns");
            if (pool.cluster() && !s.isNotSent()) {
                b.append(" Moved: ").append(s.moved()).append(" Ask: ").append(s.ask());
            }
            lines.add(b.toString());
        }
        if (pool.cluster()) {
            lines.add("Redirects: moved " + pool.moved() + " ask " + pool.ask() + " (slot map read again "
                    + pool.mapRefreshes() + (pool.mapRefreshes() == 1 ? " time)" : " times)"));
        }
        if (w.topology() != null) {
            lines.add(w.topology().line());
        }
        return lines;
    }

    static void printWindow(PrintStream out, WindowResult w) {
        for (String line : window(w)) {
            out.println(line);
        }
    }

    /** A statistics block's line for one server, in the block's columns. */
    static String statsLine(ServerSample s) {
        List<String> pairs = new ArrayList<>(List.of("server", s.server(),
                "responses", TextReport.group(s.responses()), "rps", TextReport.group(Math.round(s.rate())),
                "errors", TextReport.group(s.error() + s.timeout() + s.closed()),
                "p50", TextReport.group(s.latencyP50()) + " ns", "p99", TextReport.group(s.latencyP99()) + " ns",
                "p999", TextReport.group(s.latencyP999()) + " ns"));
        if (s.role() != null) {
            pairs.addAll(List.of("moved", TextReport.group(s.moved()), "ask", TextReport.group(s.ask())));
        }
        return TextReport.columns(pairs.toArray(String[]::new));
    }
}
