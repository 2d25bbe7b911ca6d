package io.fluxperf.engine.sweep;

import java.util.Comparator;
import java.util.List;

/**
 * A sweep's steps in the order they ran, and its knee: the highest target rate that was reached
 * and met every objective (null when none did; a floor when no step failed, {@link #kneeAboveTo()}).
 *
 * @param objectives the objectives as written
 * @param stoppedBecause why the rising steps stopped: the first bad step's failure, or that --to was reached
 * @param interrupted the sweep was stopped (Ctrl-C) before it ended by itself
 * @param reachedTo the rising steps ran out of rates at --to with none of them failing (a first
 *                  step tried once more counts by its second try)
 */
public record SweepResult(List<SweepStep> steps, List<String> objectives, String stoppedBecause, boolean interrupted,
                          boolean reachedTo) {
    public SweepResult {
        steps = List.copyOf(steps);
        objectives = List.copyOf(objectives);
    }

    /** The highest good step, or null. */
    public SweepStep knee() {
        return steps.stream().filter(SweepStep::good).max(Comparator.comparingDouble(SweepStep::target)).orElse(null);
    }

    /**
     * The sweep ran out of rates at --to without a failing step: the knee (the highest rate the
     * server holds) lies above --to, and {@link #knee()} is only a floor of it.
     */
    public boolean kneeAboveTo() {
        return reachedTo && !interrupted && knee() != null;
    }

    /** The steps by target rate, for tables and plots (a refinement falls between the steps it bisects). */
    public List<SweepStep> byRate() {
        return steps.stream().sorted(Comparator.comparingDouble(SweepStep::target)).toList();
    }
}
