/**
 * Views of the figures in {@code io.fluxperf.engine.metrics}: each reads a run's results and
 * writes them in one form, and none measures anything. {@link TextReport} prints rpc-perf's layout
 * and words (the config echo, workloads, connections, warm-up, one block per window and one for
 * the whole run) as plain lines that can be diffed and grepped; {@link JsonReport} writes the JSON
 * result through the records of {@code JsonResultModel}, so that the engine's config and metrics
 * classes carry no Jackson annotations and the JSON layout can change apart from them;
 * {@link HdrLogWriter} writes each window's latency as an HdrHistogram interval log for
 * HdrHistogram's own tools, through {@link IntervalLog}, the one writer of that format (the run
 * directory's logs use it too). {@link Counts} and {@link WindowFigures} hold what more than one view
 * derives (requests as the sum of the outcomes, the hit rate, the workloads that missed their
 * rate), so that the views cannot disagree. Reports never call the host tuning, never start or
 * steer a run, and name no concrete protocol (a protocol's reply classes come with their labels).
 */
package io.fluxperf.engine.report;
