package io.fluxperf.engine.sweep;

import java.io.PrintStream;
import java.util.Locale;

/**
 * The sweep as text: a row per step as it ends, then why it stopped and the knee; the table by rate
 * for sweep.txt, and after the live rows only when bisection steps ran out of rate order.
 * Latencies in ms (from the intended send time in open loop).
 */
public final class SweepTable {
    private static final String HEADER = String.format(Locale.ROOT, "%-5s %12s %12s %10s %10s %10s %8s  %s",
            "step", "target/s", "achieved/s", "p50 ms", "p99 ms", "p999 ms", "errors", "objectives met");

    private SweepTable() {
    }

    public static String header() {
        return HEADER;
    }

    /** One step's row; a refinement's number has an r after it, the first rate's second try an a. */
    public static String row(SweepStep s) {
        String met = s.good() ? "yes" : "no: " + s.failure();
        return String.format(Locale.ROOT, "%-5s %12s %12s %10s %10s %10s %8d  %s", s.label(),
                Rates.format(s.target()), Rates.format(Math.round(s.achieved())), ms(s.p50()), ms(s.p99()), ms(s.p999()),
                s.errors(), met);
    }

    /** The whole sweep: every step by rate, why it stopped, and the knee. */
    public static void print(SweepResult r, PrintStream out) {
        rowsByRate(r, out);
        printEnd(r, out);
    }

    /**
     * What follows the rows printed as the steps ended: the table again by rate only when bisection
     * steps ran between the others (the live rows then are not in rate order), why it stopped, and the knee.
     */
    public static void printAfterRows(SweepResult r, PrintStream out) {
        if (!r.byRate().equals(r.steps())) {
            out.println("By rate:");
            rowsByRate(r, out);
        }
        printEnd(r, out);
    }

    private static void rowsByRate(SweepResult r, PrintStream out) {
        out.println(HEADER);
        for (SweepStep s : r.byRate()) {
            out.println(row(s));
        }
    }

    private static void printEnd(SweepResult r, PrintStream out) {
        out.println("Stopped: " + r.stoppedBecause());
        out.println(kneeLine(r));
    }

    /**
     * {@code Knee: 45,000/s (achieved 44,990/s, p50 …, p99 0.812 ms, p999 …) met p99<1ms}; that no
     * rate did; or, when no step failed, that the knee lies above --to (the highest rate tried is
     * only a floor).
     */
    public static String kneeLine(SweepResult r) {
        SweepStep k = r.knee();
        String objectives = String.join(", ", r.objectives());
        if (k == null) {
            return "Knee: none: no rate tried met " + objectives;
        }
        String figures = "(achieved " + Rates.format(Math.round(k.achieved())) + "/s, p50 " + ms(k.p50()) + " ms, p99 "
                + ms(k.p99()) + " ms, p999 " + ms(k.p999()) + " ms)";
        if (r.kneeAboveTo()) {
            return "Knee: above " + Rates.format(k.target()) + "/s, the --to bound: every rate tried met " + objectives
                    + ", the highest " + figures + "; raise --to to find the knee";
        }
        return "Knee: " + Rates.format(k.target()) + "/s " + figures + " met " + objectives;
    }

    static String ms(long nanos) {
        return String.format(Locale.ROOT, "%.3f", nanos / 1e6);
    }
}
