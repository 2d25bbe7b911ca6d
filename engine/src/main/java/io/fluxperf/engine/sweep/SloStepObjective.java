package io.fluxperf.engine.sweep;

import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.slo.Evaluator;
import io.fluxperf.engine.slo.Objective;
import io.fluxperf.engine.slo.ResultFigures;
import io.fluxperf.engine.slo.Verdict;
import java.util.List;

/**
 * An objective of the SLO grammar ({@code --slo 'p99<1ms'}, {@code [[slo]]}) as a sweep's step
 * objective: judged on the step's window by the grammar's own evaluator, so that a sweep and a run
 * judge an objective alike.
 */
public record SloStepObjective(Objective objective) implements StepObjective {
    /** The run's objectives, in order. */
    public static List<StepObjective> of(List<Objective> objectives) {
        return objectives.stream().<StepObjective>map(SloStepObjective::new).toList();
    }

    @Override
    public String text() {
        return objective.text();
    }

    @Override
    public Judged judge(WindowResult window, List<WorkloadConfig> configs) {
        Verdict v = Evaluator.evaluate(objective, new ResultFigures(window, configs));
        return new Judged(v.passed(), v.measuredText());
    }

    /** A percentile (or the max) of every request's latency: drawn as a line on the plot. */
    private boolean drawn() {
        return objective.workload() == null
                && (objective.measure() == Objective.Measure.PERCENTILE || objective.measure() == Objective.Measure.MAX);
    }

    @Override
    public double latencyPercentile() {
        return !drawn() ? Double.NaN : objective.measure() == Objective.Measure.MAX ? 100 : objective.percentile();
    }

    @Override
    public double latencyBoundNanos() {
        return drawn() ? objective.threshold() : Double.NaN;
    }
}
