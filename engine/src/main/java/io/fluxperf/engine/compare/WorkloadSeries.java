package io.fluxperf.engine.compare;

/**
 * One workload's per-second latency in a run.
 *
 * @param intended latency from the intended send time (open loop) or the write (closed loop); its counts give requests/s
 * @param service  latency from the actual send; null when the run has none
 */
public record WorkloadSeries(SecondSeries intended, SecondSeries service) {
}
