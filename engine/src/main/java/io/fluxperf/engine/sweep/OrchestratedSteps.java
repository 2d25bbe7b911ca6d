package io.fluxperf.engine.sweep;

import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.host.HostTuning;
import io.fluxperf.engine.metrics.LiveSample;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.report.HumanUnits;
import io.fluxperf.engine.report.TextReport;
import io.fluxperf.engine.run.RunOrchestrator;
import io.fluxperf.engine.run.RunOutputs;
import io.fluxperf.engine.run.RunReport;
import io.fluxperf.engine.run.TextRunReport;
import io.fluxperf.engine.rundir.RunDirectoryWriter;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The steps of a sweep as runs of the run's own orchestration ({@link RunOrchestrator}): the
 * embedded target when no server is named, the in-process warm-up before the first step only (the
 * JVM stays warm from step to step), and with a sweep directory one run directory per step
 * ({@code DIR/step-NN-RATE}, as {@code run --out} writes it, its report.txt the step's text
 * report). One run per step: each opens its connections afresh, so that a step's backlog or broken
 * connections do not carry into the next.
 */
public final class OrchestratedSteps implements StepRunner {
    private final HostTuning tuning;
    private final Path sweepDir;
    private final boolean overwrite;
    private final List<String> commandLine;
    private boolean warm;
    /** Where each step's live line goes, once a second while its window runs; null for none. */
    private PrintStream progress;
    private volatile RunOrchestrator current;
    private volatile boolean stopRequested;

    /**
     * @param sweepDir    the sweep's directory, each step's run directory in it; null for none
     * @param overwrite   a step's directory may replace one there (--overwrite)
     * @param commandLine the sweep's command line, for each run directory's environment.json
     * @param warmUp      warm the JVM up in-process before the first step ({@link RunOrchestrator#warmUp})
     */
    public OrchestratedSteps(HostTuning tuning, Path sweepDir, boolean overwrite, List<String> commandLine, boolean warmUp) {
        this.tuning = tuning;
        this.sweepDir = sweepDir;
        this.overwrite = overwrite;
        this.commandLine = List.copyOf(commandLine);
        this.warm = !warmUp;
    }

    /** A runner without files, warmed up before its first step. */
    public static OrchestratedSteps withoutFiles(boolean warmUp) {
        return new OrchestratedSteps(HostTuning.standard(), null, false, List.of(), warmUp);
    }

    /**
     * Prints a live line on {@code out} once a second while a step's window runs, as run's live line
     * with the step in place of the window: {@code [step 3 at 22,500/s, 2 s of 5 s] 22,497 rps, errors
     * 0, p99 so far 641 us}; null for none.
     */
    public OrchestratedSteps progress(PrintStream out) {
        this.progress = out;
        return this;
    }

    /** Step {@code number}'s run directory in {@code sweepDir}: step-03-22500. */
    public static Path stepDirectory(Path sweepDir, int number, double rate) {
        return sweepDir.resolve(String.format(Locale.ROOT, "step-%02d-%d", number, Math.round(rate)));
    }

    @Override
    public RunResult run(int number, double rate, RunConfig config) {
        RunDirectoryWriter directory = null;
        PrintStream nowhere = new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8);
        RunConfig stepConfig = config;
        PrintStream text = nowhere;
        if (sweepDir != null) {
            Path dir = stepDirectory(sweepDir, number, rate);
            stepConfig = config.toBuilder().out(dir).build();
            // "run": a step is a run of run's load with run's report, so report DIR makes it again
            directory = RunDirectoryWriter.open(dir, overwrite, stepConfig, "run", commandLine, "--out");
            text = directory.tee(nowhere);
        }
        RunReport report = new StepReport(text, nowhere, progress, "step " + number + " at " + Rates.format(rate) + "/s");
        RunOrchestrator run = new RunOrchestrator(stepConfig, report).outputs(RunOutputs.none()).tuning(tuning)
                .liveSamples(progress != null);
        if (directory != null) {
            run.runDirectory(directory);
        }
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

    /**
     * A step's report: run's text report (into the step's run directory, or nowhere), and the live
     * line of the step on the progress stream.
     */
    private static final class StepReport extends TextRunReport {
        private final PrintStream progress;
        private final String step;

        StepReport(PrintStream out, PrintStream err, PrintStream progress, String step) {
            super(out, err, false);
            this.progress = progress;
            this.step = step;
        }

        @Override
        public void live(LiveSample sample) {
            if (progress != null && config() != null) {
                progress.println("[" + step + ", " + Math.round(sample.elapsedNanos() / 1e9) + " s of "
                        + HumanUnits.seconds(config().duration().toNanos() / 1e9) + "] " + TextReport.liveFigures(sample));
            }
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
