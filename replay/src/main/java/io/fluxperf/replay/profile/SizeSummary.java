package io.fluxperf.replay.profile;

/**
 * Sizes in bytes: their mean, nearest-rank p50 and p99 (the smallest size with at least 50 % or
 * 99 % of the sizes at or below it), and the largest.
 */
public record SizeSummary(double mean, long p50, long p99, long max) {
}
