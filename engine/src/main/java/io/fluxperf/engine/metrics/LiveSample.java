package io.fluxperf.engine.metrics;

/**
 * A look at the running window, taken about once a second for the live line.
 *
 * @param elapsedNanos time since the window started
 * @param requests     requests ended so far in this window
 * @param errors       of which error, timeout or closed
 * @param p99Nanos     99th percentile latency so far in this window (0 if no replies yet)
 * @param rate         requests per second over the last sample interval
 */
public record LiveSample(int window, long elapsedNanos, long requests, long errors, long p99Nanos, double rate) {
}
