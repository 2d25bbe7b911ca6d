package io.fluxperf.engine.trust;

import java.util.List;

/**
 * How far a whole run can be trusted: its latency floor, each window's {@link WindowTrust}, the
 * whole run's percentiles with intervals widened by the spread between seconds, its seconds, what
 * the stability checks found over the run, and the verdict.
 *
 * @param floor          the latency floor, measured before the load
 * @param windows        each window's, in order
 * @param totalIntervals the whole run's latency at {@link PercentileIntervals#REPORTED}; empty without requests
 * @param seconds        every second of the measured run
 * @param findings       the run-wide findings of {@link Stability} (an outlying start, trends)
 * @param verdict        the trust line
 */
public record RunTrust(LatencyFloor floor, List<WindowTrust> windows, List<LatencyInterval> totalIntervals,
                       List<SecondSummary> seconds, List<Finding> findings, TrustVerdict verdict) {
    public RunTrust {
        windows = List.copyOf(windows);
        totalIntervals = List.copyOf(totalIntervals);
        seconds = List.copyOf(seconds);
        findings = List.copyOf(findings);
    }

    /** Every window's pauses, in order. */
    public List<NamedPause> pauses() {
        return windows.stream().flatMap(w -> w.pauses().stream()).toList();
    }
}
