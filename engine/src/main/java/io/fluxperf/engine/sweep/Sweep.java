package io.fluxperf.engine.sweep;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.LatencySummary;
import io.fluxperf.engine.metrics.OutcomeCounts;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.SendLateness;
import io.fluxperf.engine.metrics.WindowResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * Runs a sweep: a step per rate of the {@link SweepPlan}, rising until a step is not good (an
 * objective broken, or the rate not reached), then bisections between the last good and that first
 * bad rate. Each step is one run of one window, so that each rate's percentiles stand alone and
 * the server starts each from the same connections.
 *
 * <p>A rate counts as not reached when the window ended fewer than 99 % of the target's requests
 * (the client or the server could not keep up: the run's own 1 % rule), or when a load thread was
 * on its CPU for {@link WindowResult#SATURATED_LOOP_SHARE} of the window (the client set the pace:
 * the report's {@code Client:} line). Requests that left late are kept with the step
 * ({@link SweepStep#lateShare()}) but do not stop the sweep by themselves: one stall of a shared
 * machine makes a tenth of a second's requests late at any rate, and the latency objectives, which
 * count from the intended send time, judge such a stall.
 *
 * <p>The first step decides whether there is a knee at all, and it is the one most exposed to a cold
 * start: fresh connections to a server that has not served this load yet. So it may run after a
 * warm-up of its own ({@link #warmUpFirstStep}), and when it is not good it is tried once more
 * ({@link SweepStep#again()}) before the sweep gives up: one stall of a shared machine would
 * otherwise end a sweep with no knee.
 */
public final class Sweep {
    /** The share of the target a step must end: the 1 % a run holds its rates to. */
    static final double REACHED_SHARE = 0.99;

    private final RunConfig base;
    private final SweepPlan plan;
    private final List<StepObjective> objectives;
    private final StepRunner runner;
    private Consumer<SweepStep> onStep = s -> { };
    private Consumer<SweepStep> onRetry = s -> { };
    private Duration firstStepWarmup = Duration.ZERO;
    private volatile boolean stopRequested;

    /**
     * @param base the run's config; each step's is this at the step's rate, with one window of the plan's length
     */
    public Sweep(RunConfig base, SweepPlan plan, List<StepObjective> objectives, StepRunner runner) {
        if (objectives.isEmpty()) {
            throw new UserError("--slo: a sweep needs at least one objective, e.g. --slo 'p99<1ms'");
        }
        this.base = base;
        this.plan = plan;
        this.objectives = List.copyOf(objectives);
        this.runner = runner;
    }

    /** Hears each step as it ends. */
    public Sweep onStep(Consumer<SweepStep> listener) {
        this.onStep = listener;
        return this;
    }

    /** Hears that the first step was not good and is about to be tried once more (after it was heard as a step). */
    public Sweep onRetry(Consumer<SweepStep> listener) {
        this.onRetry = listener;
        return this;
    }

    /**
     * A warm-up at the first step's rate before the first step only, unreported (as the run's
     * {@code --warmup}), when the config has no warm-up of its own (which runs before every step).
     */
    public Sweep warmUpFirstStep(Duration warmup) {
        this.firstStepWarmup = warmup;
        return this;
    }

    /** Ends the sweep after the step that runs (Ctrl-C): its result covers what ran. */
    public void requestStop() {
        stopRequested = true;
    }

    public SweepResult execute() {
        List<SweepStep> steps = new ArrayList<>();
        SweepStep lastGood = null;
        SweepStep firstBad = null;
        for (double rate : plan.rates()) {
            if (stopRequested) {
                break;
            }
            SweepStep s = step(steps.size() + 1, rate, false, false);
            steps.add(s);
            if (!s.good() && steps.size() == 1 && !stopRequested) {
                onRetry.accept(s);
                s = step(steps.size() + 1, rate, false, true);
                steps.add(s);
            }
            if (!s.good()) {
                firstBad = s;
                break;
            }
            lastGood = s;
        }
        String stopped = firstBad != null ? "at " + Rates.format(firstBad.target()) + "/s: " + firstBad.failure()
                : stopRequested ? "interrupted" : "reached --to " + Rates.format(plan.to()) + "/s with every objective met"
                + " (the knee lies above it)";
        if (lastGood != null && firstBad != null) {
            double good = lastGood.target();
            double bad = firstBad.target();
            for (int i = 0; i < plan.refine() && !stopRequested; i++) {
                double mid = Math.round((good + bad) / 2);
                if (mid <= good || mid >= bad) {
                    break; // no whole rate left between them
                }
                SweepStep s = step(steps.size() + 1, mid, true, false);
                steps.add(s);
                if (s.good()) {
                    good = mid;
                } else {
                    bad = mid;
                }
            }
        }
        return new SweepResult(steps, objectives.stream().map(StepObjective::text).toList(), stopped, stopRequested,
                firstBad == null && !stopRequested);
    }

    private SweepStep step(int number, double rate, boolean refinement, boolean again) {
        RunConfig config = atRate(base, rate, plan);
        if (number == 1 && (config.warmup() == null || config.warmup().isZero())) {
            config = config.toBuilder().warmup(firstStepWarmup).build();
        }
        RunResult result = runner.run(number, rate, config);
        SweepStep s = judge(number, refinement, again, rate, result, config, objectives, runner.achieved(result, rate));
        onStep.accept(s);
        return s;
    }

    /**
     * The base config at {@code rate} in total: rated workloads keep their shares of it, unrated
     * ones (closed loop) share it by weight. One window of the plan's length, no request limit.
     */
    static RunConfig atRate(RunConfig base, double rate, SweepPlan plan) {
        List<WorkloadConfig> ws = base.workloads();
        double rated = ws.stream().mapToDouble(WorkloadConfig::rate).sum();
        double weights = ws.stream().mapToDouble(WorkloadConfig::weight).sum();
        List<WorkloadConfig> scaled = new ArrayList<>();
        for (WorkloadConfig w : ws) {
            double share = rated > 0 ? w.rate() / rated : weights > 0 ? w.weight() / weights : 1.0 / ws.size();
            scaled.add(w.withRate(rate * share));
        }
        return base.toBuilder().workloads(scaled).duration(plan.window()).windows(1).requests(0).build();
    }

    static SweepStep judge(int number, boolean refinement, boolean again, double rate, RunResult result, RunConfig config,
                           List<StepObjective> objectives) {
        WindowResult w = result.windows().isEmpty() ? result.total() : result.windows().get(result.windows().size() - 1);
        return judge(number, refinement, again, rate, result, config, objectives, w.rate());
    }

    /** The same, with the rate the step achieved as its runner tells it ({@link StepRunner#achieved}). */
    static SweepStep judge(int number, boolean refinement, boolean again, double rate, RunResult result, RunConfig config,
                           List<StepObjective> objectives, double achieved) {
        WindowResult w = result.windows().isEmpty() ? result.total() : result.windows().get(result.windows().size() - 1);
        LatencySummary l = w.summaries().latency();
        OutcomeCounts o = w.total().outcomes();
        String unreached = null;
        if (result.interrupted()) {
            unreached = "interrupted";
        } else if (achieved < REACHED_SHARE * rate) {
            unreached = String.format(Locale.ROOT, "achieved %s/s, %.1f %% of the target", Rates.format(Math.round(achieved)),
                    100 * achieved / rate);
        } else if (w.loopSaturated()) {
            unreached = String.format(Locale.ROOT, "a load thread was on CPU %.0f %% of the window (the client set the pace)",
                    100 * w.busiestLoopShare());
        }
        SendLateness late = result.lateness() != null ? result.lateness() : SendLateness.NONE;
        List<SweepStep.Judgement> judged = new ArrayList<>();
        for (StepObjective objective : objectives) {
            StepObjective.Judged j = objective.judge(w, config.workloads());
            judged.add(new SweepStep.Judgement(objective.text(), j.met(), j.measured()));
        }
        return new SweepStep(number, refinement, again, rate, achieved, l.p50(), l.p99(), l.p999(), o.requests(),
                o.error() + o.timeout() + o.closed(), late.lateShare(), unreached == null, unreached, judged);
    }
}
