package io.fluxperf.engine.metrics;

/**
 * How a warm-up to a hit rate ended ({@code --warmup-hitrate}, rpc-perf's {@code warmup_hitrate}):
 * once a second the run takes the hit rate of the reads answered in that second, and the warm-up
 * ends at the first check that reaches the target, or at its bound ({@code --warmup}).
 *
 * @param targetPercent  the hit rate asked for, in percent
 * @param hitratePercent the hit rate of the last check's interval, in percent; null when no read was
 *                       answered in it
 * @param seconds        how long the warm-up ran, from the load's start to its end
 * @param boundSeconds   the longest it could run (--warmup)
 * @param reached        the target was reached; false: the bound ended it
 */
public record HitrateWarmup(double targetPercent, Double hitratePercent, double seconds, double boundSeconds,
                            boolean reached) {
}
