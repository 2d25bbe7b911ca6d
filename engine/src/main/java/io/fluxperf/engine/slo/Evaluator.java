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
        return new Verdict(o, f.window(), measured, o.holds(measured), f.seconds());
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
