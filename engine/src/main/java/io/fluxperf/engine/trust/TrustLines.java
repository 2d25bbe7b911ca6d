package io.fluxperf.engine.trust;

import io.fluxperf.engine.report.HumanUnits;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The report's lines of trust: under each window and under the total, each on a line of its own
 * beside rpc-perf's ns lines (which stay as they are, since users parse them).
 */
public final class TrustLines {
    private TrustLines() {
    }

    /** A window's lines: its intervals, its pauses, why the client set its pace, its drifts. */
    public static List<String> window(WindowTrust w) {
        List<String> out = new ArrayList<>();
        if (!w.intervals().isEmpty()) {
            out.add("Intervals (95 %): " + intervals(w.intervals()));
        }
        out.add(PauseSummary.line(w.pauses()));
        if (w.limits().contains(ClientLimit.RUN_QUEUE)) {
            out.add(String.format(Locale.ROOT, "Client: a load thread waited for a CPU %.0f %% of the window (runnable, on the"
                    + " run queue: other threads or processes held the CPUs)", 100 * w.runQueueShare()));
        }
        if (w.limits().contains(ClientLimit.SEND_LAG)) {
            out.add("Client: requests left late (send lag p99 " + HumanUnits.latency(w.sendLagP99Nanos()) + ") while every"
                    + " connection had room: the client, not the server, held them");
        }
        w.drift().forEach(f -> out.add("Unstable: " + f.text()));
        return out;
    }

    /** The total's lines: its intervals with the spread between seconds, the run's pauses, what the checks found. */
    public static List<String> total(RunTrust t) {
        List<String> out = new ArrayList<>();
        if (!t.totalIntervals().isEmpty()) {
            out.add("Intervals (95 %, with the spread between seconds): " + intervals(t.totalIntervals()));
        }
        out.add(PauseSummary.line(t.pauses()));
        t.findings().forEach(f -> out.add("Unstable: " + f.text()));
        return out;
    }

    /** {@code p50: 31.9 us [31.7, 32.1] ... p9999: 2.31 ms (few samples: 4 beyond)}. */
    static String intervals(List<LatencyInterval> intervals) {
        StringBuilder b = new StringBuilder();
        for (LatencyInterval i : intervals) {
            if (b.length() > 0) {
                b.append(' ');
            }
            b.append(name(i.percentile())).append(": ");
            if (i.fewSamples()) {
                b.append(HumanUnits.latency(i.value())).append(" (few samples: ").append(i.beyond()).append(" beyond)");
            } else {
                b.append(HumanUnits.latencyInterval(i.value(), i.low(), i.high()));
            }
        }
        return b.toString();
    }

    /** p50, p90, p99, p999, p9999, as the Percentiles line names them. */
    static String name(double percentile) {
        String plain = java.math.BigDecimal.valueOf(percentile).stripTrailingZeros().toPlainString();
        return "p" + plain.replace(".", "");
    }
}
