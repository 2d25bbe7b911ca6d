package io.fluxperf.engine.trust;

import io.fluxperf.engine.report.HumanUnits;

/**
 * The run's latency floor: the round-trip time of the protocol's no-op on an idle connection,
 * measured before the load ({@link FloorProbe}). No latency of the run can be below it, and a
 * p50 close to it means the server spent almost nothing on the requests.
 *
 * @param measured   whether it was measured; when not, {@code reason} says why
 * @param noOp       what was sent, e.g. {@code version}; null when not measured
 * @param roundTrips how many round trips were timed
 * @param p50        their median, ns
 * @param p99        their p99, ns
 * @param min        the shortest, ns
 * @param reason     why it was not measured, e.g. {@code over TLS}; null when it was
 */
public record LatencyFloor(boolean measured, String noOp, long roundTrips, long p50, long p99, long min, String reason) {
    /** A floor that was not measured, and why. */
    public static LatencyFloor notMeasured(String reason) {
        return new LatencyFloor(false, null, 0, 0, 0, 0, reason);
    }

    /**
     * The Config block's line after {@code Config: }: {@code Floor: p50 21.3 us p99 35.2 us (idle round
     * trip: 300 × version)}, or {@code Floor: not measured (over TLS)}.
     */
    public String line() {
        if (!measured) {
            return "Floor: not measured (" + reason + ")";
        }
        return "Floor: p50 " + HumanUnits.latency(p50) + " p99 " + HumanUnits.latency(p99) + " (idle round trip: "
                + roundTrips + " x " + noOp + ")";
    }
}
