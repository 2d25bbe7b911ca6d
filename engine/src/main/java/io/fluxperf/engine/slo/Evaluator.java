package io.fluxperf.engine.slo;

import io.fluxperf.engine.UserError;
import java.util.List;

/** Checks objectives against one window's (or the whole run's) figures. Stateless. */
public final class Evaluator {
    private Evaluator() {
    }

    /**
     * Every objective is about workloads the run has.
     *
     * @throws UserError naming the objective and the workloads there are
     */
    public static void checkWorkloads(List<Objective> objectives, List<String> workloads) {
        for (Objective o : objectives) {
            if (o.workload() != null && !workloads.contains(o.workload())) {
                throw new UserError(o.origin() + ": the run has no workload '" + o.workload() + "'; its workloads are "
                        + String.join(", ", workloads));
            }
        }
    }

    /** The verdict on {@code o} in the window {@code f} describes. */
    public static Verdict evaluate(Objective o, SloFigures f) {
        double measured = measure(o, f);
        boolean holds = o.holds(measured);
        io.fluxperf.engine.trust.LatencyInterval i = o.hasInterval() && !Double.isNaN(measured)
                ? f.latencyInterval(o.workload(), o.percentile()) : null;
        if (i == null) {
            return new Verdict(o, f.window(), measured, holds, f.seconds());
        }
        Verdict.Call call = call(o, i);
        boolean passed = call == Verdict.Call.MET || call == Verdict.Call.TOO_CLOSE && holds && !o.strict();
        return new Verdict(o, f.window(), measured, passed, f.seconds(), call, i.low(),
                i.openAbove() ? Double.POSITIVE_INFINITY : i.high());
    }

    /**
     * Met when the whole interval meets the threshold, missed when none of it does, else too close
     * to call: an interval whose upper end the samples cannot bound never meets an upper bound.
     */
    static Verdict.Call call(Objective o, io.fluxperf.engine.trust.LatencyInterval i) {
        double t = o.threshold();
        boolean met;
        boolean missed;
        switch (o.comparison()) {
            case LESS -> {
                met = i.below(t, false);
                missed = i.above(t, true);
            }
            case AT_MOST -> {
                met = i.below(t, true);
                missed = i.above(t, false);
            }
            case MORE -> {
                met = i.above(t, false);
                missed = i.below(t, true);
            }
            default -> {
                met = i.above(t, true);
                missed = i.below(t, false);
            }
        }
        return met ? Verdict.Call.MET : missed ? Verdict.Call.MISSED : Verdict.Call.TOO_CLOSE;
    }

    /**
     * What {@code o} measures in {@code f}, in its unit; NaN when there is nothing to measure (no
     * requests; for a hit rate, no answered reads), which fails the objective.
     *
     * @throws UserError when the figures cannot give it (a percentile a run directory does not hold)
     */
    public static double measure(Objective o, SloFigures f) {
        String w = o.workload();
        long requests = f.requests(w);
        if (o.measure() == Objective.Measure.RATE) {
            return requests / f.seconds();
        }
        if (requests == 0) {
            return Double.NaN;
        }
        try {
            return switch (o.measure()) {
                case PERCENTILE -> f.latencyAt(w, o.percentile());
                case MAX -> f.latencyAt(w, 100);
                case MEAN -> f.meanLatency(w);
                case SUCCESS -> 100.0 * f.answered(w) / requests;
                case ERRORS -> 100.0 * (requests - f.answered(w)) / requests;
                case HITRATE -> {
                    Double h = f.hitratePercent(w);
                    yield h == null ? Double.NaN : h;
                }
                case RATE -> requests / f.seconds();
            };
        } catch (IllegalArgumentException e) {
            throw new UserError(o.origin() + ": " + e.getMessage());
        }
    }
}
