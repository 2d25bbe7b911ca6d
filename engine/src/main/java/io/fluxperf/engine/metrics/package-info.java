/**
 * The figures of a run, as data that the reports read. {@link WorkloadStats} holds one workload's
 * outcomes, bytes, latency and service-time histograms over an interval, written by one thread; a
 * {@link WindowResult} gathers them per workload with their total, the {@link ConnectionCounts}
 * and the send lag, and its {@link WindowSummaries} (each a {@link LatencySummary}) are read from
 * the histograms once, so that the text, the JSON and replay's lines print the same numbers; a
 * window already reported is kept small, its histograms as {@link KeptHistogram}s.
 * {@link RunResult} holds the effective config, every window, their sum and the
 * {@link StopReason} and {@link SendLateness} (how the paced requests kept their schedule);
 * {@link IntervalSample} and {@link LiveSample} are the periodic and the live
 * looks at a running window, and {@link ProcessCpu} and {@link ThreadCpu} what the requests cost
 * the client. The figures reconcile by construction (requests are the sum of their outcomes,
 * {@link OutcomeCounts}), and in open loop latency counts from the intended send time. The figures
 * know nothing of how they were made or how they are shown: nothing here calls the host tuning,
 * prints, or names a concrete protocol.
 */
package io.fluxperf.engine.metrics;
