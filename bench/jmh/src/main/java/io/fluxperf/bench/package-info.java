/**
 * JMH benchmarks of the hot path's parts (the bench/jmh module): each protocol's per-request codec
 * work, request generation and open-loop pacing, key and value-size choosers, the recording of a
 * request's figures, the trace append, the I/O buffers, and replay's log readers and its hand-off
 * from the reader thread to the load threads. Every benchmark extends
 * {@link HotPathBenchmark}, which holds the shared JMH settings and the fork's JVM flags (those
 * fluxperf itself runs with, so that a benchmark measures what a run pays); they are run from the
 * benchmarks jar with {@code -prof gc}, and the figure that matters is allocation per operation,
 * which for a hot-path part must stay at zero. Benchmarks use the engine as its own callers do
 * (codecs from the {@code Protocols} registry, sources pulled one request at a time as the load
 * driver pulls them), and mirror a private piece of engine code line for line rather than open it
 * up (replay's package-private lane is reached through {@code io.fluxperf.replay.LaneBenchAccess},
 * a class of this module); they are not tests, and nothing depends on them.
 */
package io.fluxperf.bench;
