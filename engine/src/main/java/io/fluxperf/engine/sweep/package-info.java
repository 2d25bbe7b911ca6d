/**
 * Capacity sweeps ({@code fluxperf sweep}, mutilate's {@code --search}): one measured window per
 * target rate, rising from a first rate by a step or a factor until a rate breaks an objective or
 * cannot be reached, then a bisection between the last good and the first bad rate. The knee is the
 * highest rate that met every objective. {@link Sweep} runs the steps through a {@link StepRunner}
 * (the run's orchestration, one run per step); {@link SweepTable} and {@link SweepPlot} show them.
 */
package io.fluxperf.engine.sweep;
