package io.fluxperf.engine.pause;

/**
 * A stretch of time in which the client stood still for {@link PauseDetector#THRESHOLD_NANOS} or
 * more. Requests due in it are still counted (the schedule demands them); the report names the pause.
 *
 * @param startNanos    its start, {@link System#nanoTime()}
 * @param durationNanos its length
 * @param cause         what held the client
 */
public record ClientPause(long startNanos, long durationNanos, PauseCause cause) {
    public long endNanos() {
        return startNanos + durationNanos;
    }
}
