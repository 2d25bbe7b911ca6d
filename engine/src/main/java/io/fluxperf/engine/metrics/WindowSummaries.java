package io.fluxperf.engine.metrics;

import java.util.List;

/**
 * A window's latency summaries, made once: what the text report, the JSON and the replay's lines
 * read, so that they agree and a kept window need not decode its histograms again.
 *
 * @param latency         every request's latency (from the intended send time in open loop)
 * @param service         from the actual write
 * @param sendLag         actual minus intended send time of paced requests
 * @param connect         connect to ready, per connection made
 * @param workloadLatency each workload's latency, in workload order
 * @param workloadService each workload's service time, in workload order
 */
public record WindowSummaries(LatencySummary latency, LatencySummary service, LatencySummary sendLag,
                              LatencySummary connect, List<LatencySummary> workloadLatency,
                              List<LatencySummary> workloadService) {
    public WindowSummaries {
        workloadLatency = List.copyOf(workloadLatency);
        workloadService = List.copyOf(workloadService);
    }

    /** Every summary of {@code w}, read from its histograms in one go. */
    static WindowSummaries of(WindowResult w) {
        return new WindowSummaries(LatencySummary.of(w.total().latency()), LatencySummary.of(w.total().service()),
                LatencySummary.of(w.sendLag()), LatencySummary.of(w.connectLatency()),
                w.workloads().stream().map(s -> LatencySummary.of(s.latency())).toList(),
                w.workloads().stream().map(s -> LatencySummary.of(s.service())).toList());
    }
}
