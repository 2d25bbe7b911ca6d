package io.fluxperf.engine.sweep;

import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.host.HostTuning;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.run.RunOrchestrator;
import io.fluxperf.engine.run.RunOutputs;
import io.fluxperf.engine.run.RunReport;
import java.util.function.BiFunction;

/**
 * The steps of a sweep as runs of the run's own orchestration ({@link RunOrchestrator}): the
 * embedded target when no server is named, the in-process warm-up before the first step only (the
 * JVM stays warm from step to step), and each step's files where {@code outputs} puts them. One run
 * per step: each opens its connections afresh, so that a step's backlog or broken connections do
 * not carry into the next.
 */
public final class OrchestratedSteps implements StepRunner {
    private final HostTuning tuning;
    private final BiFunction<Integer, Double, RunOutputs> outputs;
    private final RunReport report;
    private boolean warm;
    private volatile RunOrchestrator current;
    private volatile boolean stopRequested;

    /**
     * @param outputs the files of step (number, rate); {@link RunOutputs#none()} for none
     * @param report  what each step's run shows (quiet: the sweep prints its own rows)
     * @param warmUp  warm the JVM up in-process before the first step ({@link RunOrchestrator#warmUp})
     */
    public OrchestratedSteps(HostTuning tuning, BiFunction<Integer, Double, RunOutputs> outputs, RunReport report,
                             boolean warmUp) {
        this.tuning = tuning;
        this.outputs = outputs;
        this.report = report;
        this.warm = !warmUp;
    }

    /** A quiet runner: no files, no report, no warm-up (tests, and callers that print nothing). */
    public static OrchestratedSteps quiet() {
        return new OrchestratedSteps(HostTuning.standard(), (n, r) -> RunOutputs.none(), new RunReport() { }, false);
    }

    @Override
    public RunResult run(int number, double rate, RunConfig config) {
        RunOrchestrator run = new RunOrchestrator(config, report).outputs(outputs.apply(number, rate)).tuning(tuning)
                .liveSamples(false);
        if (!warm) {
            run.warmUp(new RunOrchestrator.Warmup(RunOrchestrator.Warmup.RUN_REQUESTS, null));
            warm = true;
        }
        current = run;
        if (stopRequested) {
            run.requestStop();
        }
        try {
            return run.execute();
        } finally {
            current = null;
        }
    }

    /** Stops the step that runs (Ctrl-C); its report covers what ran. */
    public void requestStop() {
        stopRequested = true;
        RunOrchestrator r = current;
        if (r != null) {
            r.requestStop();
        }
    }
}
