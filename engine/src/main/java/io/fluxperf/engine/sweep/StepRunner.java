package io.fluxperf.engine.sweep;

import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.metrics.RunResult;

/** Runs one step of a sweep: one measured window at the step's rate (the run's orchestration). */
@FunctionalInterface
public interface StepRunner {
    /**
     * @param number the step's number, from 1, in the order steps run
     * @param config the run's config at the step's rate, one window of the sweep's length
     */
    RunResult run(int number, double rate, RunConfig config);
}
