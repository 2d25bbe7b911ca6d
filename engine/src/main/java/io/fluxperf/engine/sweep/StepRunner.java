package io.fluxperf.engine.sweep;

import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.WindowResult;

/** Runs one step of a sweep: one measured window at the step's rate (the run's orchestration). */
@FunctionalInterface
public interface StepRunner {
    /**
     * @param number the step's number, from 1, in the order steps run
     * @param config the run's config at the step's rate, one window of the sweep's length
     */
    RunResult run(int number, double rate, RunConfig config);

    /**
     * The rate a step achieved, requests/s, which the sweep holds against its target: by default
     * what its window ended per second. A step that is one pass of a command log says it from its
     * schedule instead, since its window also holds the connecting and the last replies, a share
     * that grows as the pass gets shorter.
     */
    default double achieved(RunResult result, double rate) {
        WindowResult w = result.windows().isEmpty() ? result.total() : result.windows().get(result.windows().size() - 1);
        return w.rate();
    }
}
