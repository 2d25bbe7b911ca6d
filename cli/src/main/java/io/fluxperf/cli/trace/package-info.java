/**
 * The commands that read a trace written by {@code run --trace} or {@code replay --trace}:
 * {@link TraceCommand} ({@code trace stats}: counts, rate and latency percentiles with the run
 * report's histogram setting; {@code trace dump}: CSV or JSON lines, filtered) and
 * {@link HeatmapCommand} (a PNG, or one self-contained HTML page). They parse flags and call
 * trace-format's reader, statistics, exporter and heatmap classes; the analysis lives there, not
 * here. A directory that is no readable trace becomes the user's one-sentence error.
 */
package io.fluxperf.cli.trace;
