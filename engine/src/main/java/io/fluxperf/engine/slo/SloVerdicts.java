package io.fluxperf.engine.slo;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Every verdict of one run: each objective in each window as the window ends, and over the whole
 * run at its end. Shows them as the report's Objectives block, as JSON and as JUnit XML. Windows
 * are judged on the run's thread, one at a time; not thread-safe.
 */
public final class SloVerdicts {
    /** The exit code of a command whose objectives failed (2 is a user's mistake, 130 and 143 signals). */
    public static final int EXIT_CODE = 3;

    private final List<Objective> objectives;
    private final List<Verdict> windows = new ArrayList<>();
    private final List<Verdict> run = new ArrayList<>();
    /** The run's verdict on itself, when it is known: an untrusted run's verdicts say so. */
    private io.fluxperf.engine.trust.TrustVerdict trust;
    /** The window at whose end an objective with abort failed, and that objective; 0 and null while none has. */
    private int abortedAfter;
    private Objective abortedBy;

    public SloVerdicts(List<Objective> objectives) {
        this.objectives = List.copyOf(objectives);
    }

    public List<Objective> objectives() {
        return objectives;
    }

    /**
     * Judges a window as it ends. A window after the one that stopped the run (it holds only the
     * requests that were in flight then) is reported but not judged.
     *
     * @return whether an objective with abort failed in it: the run is to stop
     */
    public boolean window(SloFigures f) {
        if (abortedBy != null) {
            return false;
        }
        for (Objective o : objectives) {
            Verdict v = Evaluator.evaluate(o, f);
            windows.add(v);
            if (!v.passed() && o.abort() && abortedBy == null) {
                abortedBy = o;
                abortedAfter = f.window();
            }
        }
        return abortedBy != null;
    }

    /** Judges the whole run, at its end. */
    public void run(SloFigures f) {
        run.clear();
        for (Objective o : objectives) {
            run.add(Evaluator.evaluate(o, f));
        }
    }

    /** The run's verdict on itself ({@code Trust:}), which the verdicts' text, JSON and XML then carry. */
    public void trust(io.fluxperf.engine.trust.TrustVerdict verdict) {
        this.trust = verdict;
    }

    /** The run's verdict on itself, or null when not given. */
    public io.fluxperf.engine.trust.TrustVerdict trust() {
        return trust;
    }

    /** Whether any objective failed in any window or over the run. */
    public boolean failed() {
        return windows.stream().anyMatch(v -> !v.passed()) || run.stream().anyMatch(v -> !v.passed());
    }

    /** Whether {@code o} held in every window judged and over the run. */
    public boolean passed(Objective o) {
        return of(o).stream().allMatch(Verdict::passed);
    }

    /** The objective that stopped the run (--slo-abort), or null. */
    public Objective abortedBy() {
        return abortedBy;
    }

    /** The window at whose end the run was stopped, or 0. */
    public int abortedAfter() {
        return abortedAfter;
    }

    /** {@code o}'s verdicts: each window's in order, then the run's. */
    public List<Verdict> of(Objective o) {
        List<Verdict> out = new ArrayList<>(windowsOf(o));
        Verdict r = runOf(o);
        if (r != null) {
            out.add(r);
        }
        return out;
    }

    public List<Verdict> windowsOf(Objective o) {
        return windows.stream().filter(v -> v.objective() == o).toList();
    }

    /** The whole run's verdict on {@code o}, or null before the run's end. */
    public Verdict runOf(Objective o) {
        return run.stream().filter(v -> v.objective() == o).findFirst().orElse(null);
    }

    /**
     * The report's Objectives block: each objective's verdict, its value over the run and, when it
     * failed in windows, which and the worst.
     */
    public void print(PrintStream out) {
        long held = objectives.stream().filter(this::passed).count();
        long close = objectives.stream().filter(o -> runOf(o) != null && runOf(o).call() == Verdict.Call.TOO_CLOSE).count();
        out.println();
        out.printf(Locale.ROOT, "Objectives: %d of %d held%s%n", held, objectives.size(),
                close == 0 ? "" : " (" + close + " too close to call at this sample size"
                        + (objectives.stream().anyMatch(Objective::strict) ? ", which --slo-strict fails)" : ")"));
        int width = objectives.stream().mapToInt(o -> o.text().length()).max().orElse(0);
        for (Objective o : objectives) {
            out.printf(Locale.ROOT, "  %s  %-" + width + "s  %s%n", passed(o) ? "PASS" : "FAIL", o.text(), detail(o));
        }
        if (abortedBy != null) {
            out.println("  Stopped at the end of window " + abortedAfter + ", in which " + abortedBy.text()
                    + " failed (--slo-abort, or abort = true)");
        }
        if (trust != null && !trust.good()) {
            out.println("  The run does not trust its own figures (" + trust.text() + "): these verdicts may describe the"
                    + " client, not the server (Trust, below)");
        }
        out.flush();
    }

    private String detail(Objective o) {
        Verdict r = runOf(o);
        StringBuilder s = new StringBuilder("run: ").append(r == null ? "not judged" : r.measuredText());
        if (r != null && r.hasInterval()) {
            s.append(' ').append(r.intervalText()).append(' ').append(r.call().label());
        }
        List<Verdict> ws = windowsOf(o);
        List<Verdict> failed = ws.stream().filter(v -> !v.passed()).toList();
        if (ws.isEmpty()) {
            return s.toString();
        }
        Verdict worst = worst(o, failed.isEmpty() ? ws : failed);
        if (failed.isEmpty()) {
            s.append("; held in ").append(ws.size() == 1 ? "its window" : "all " + ws.size() + " windows");
        } else {
            s.append("; failed in window").append(failed.size() > 1 ? "s " : " ")
                    .append(String.join(", ", failed.stream().map(v -> Integer.toString(v.window())).toList()))
                    .append(" of ").append(ws.size());
        }
        if (ws.size() > 1) {
            s.append(" (worst: ").append(worst.measuredText()).append(" in window ").append(worst.window()).append(')');
        }
        return s.toString();
    }

    /** The verdict farthest on the wrong side: the largest for an upper bound, the smallest for a lower; nothing measured is worst. */
    private static Verdict worst(Objective o, List<Verdict> vs) {
        boolean upper = o.comparison() == Objective.Comparison.LESS || o.comparison() == Objective.Comparison.AT_MOST;
        Verdict worst = null;
        for (Verdict v : vs) {
            if (worst == null || Double.isNaN(v.measured())
                    || (!Double.isNaN(worst.measured()) && (upper ? v.measured() > worst.measured() : v.measured() < worst.measured()))) {
                worst = v;
                if (Double.isNaN(v.measured())) {
                    break;
                }
            }
        }
        return worst;
    }

    /**
     * The verdicts as the JSON result's {@code slo} object: whether every objective held, where an
     * abort stopped the run, and per objective its parts, its run verdict and each window's.
     */
    public ObjectNode json() {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode root = f.objectNode();
        root.put("passed", !failed());
        if (trust != null) {
            root.put("trusted", trust.good());
            root.put("trust", trust.text());
        }
        if (abortedBy != null) {
            root.put("stoppedAfterWindow", abortedAfter);
            root.put("stoppedBy", abortedBy.text());
        }
        ArrayNode list = root.putArray("objectives");
        for (Objective o : objectives) {
            ObjectNode n = list.addObject();
            n.put("objective", o.text());
            if (o.workload() != null) {
                n.put("workload", o.workload());
            } else {
                n.putNull("workload");
            }
            n.put("measure", o.measureName());
            n.put("comparison", o.comparison().symbol());
            putValue(n, "threshold", o, o.threshold());
            n.put("unit", o.measure().unit());
            n.put("abort", o.abort());
            n.put("strict", o.strict());
            n.put("passed", passed(o));
            Verdict r = runOf(o);
            if (r != null) {
                n.set("run", verdict(f, r, false));
            }
            ArrayNode ws = n.putArray("windows");
            for (Verdict v : windowsOf(o)) {
                ws.add(verdict(f, v, true));
            }
        }
        return root;
    }

    /** A value in the objective's unit: latencies as whole ns, as everywhere in the JSON result; nothing measured as null. */
    private static void putValue(ObjectNode n, String field, Objective o, double v) {
        if (Double.isNaN(v)) {
            n.putNull(field);
        } else if (o.measure().isLatency() && v == Math.rint(v)) {
            n.put(field, (long) v);
        } else {
            n.put(field, v);
        }
    }

    private static ObjectNode verdict(JsonNodeFactory f, Verdict v, boolean numbered) {
        ObjectNode n = f.objectNode();
        if (numbered) {
            n.put("window", v.window());
        }
        putValue(n, "measured", v.objective(), v.measured());
        n.put("passed", v.passed());
        n.put("call", v.call().label());
        if (v.hasInterval()) {
            putValue(n, "low", v.objective(), v.low());
            if (Double.isInfinite(v.high())) {
                n.putNull("high");
            } else {
                putValue(n, "high", v.objective(), v.high());
            }
        }
        return n;
    }
}
