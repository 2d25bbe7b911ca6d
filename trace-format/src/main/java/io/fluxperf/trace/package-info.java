/**
 * The trace format (the trace-format module): one record per request of a run, kept in a directory
 * that holds a Chronicle Queue, a JSON header and an end marker, and the tools that read it back.
 * Read {@link TraceRecord} first (the hand-written binary layout; mutable and reused, so writing
 * allocates nothing), then {@link TraceHeader} (format version, the run's config, the clock
 * origin, and the name tables that give the stored codes their names) and {@link Outcome}.
 * {@link TraceWriter} takes records from any number of threads, batches them per thread, never
 * throws for an I/O problem and counts what it loses; {@link TraceReader} streams a directory back
 * record by record in bounded memory, and tells a trace whose writer was killed from one closed
 * cleanly ({@link TraceFooter}). On the reader sit single streaming passes: {@link TraceStats}
 * (what {@code trace stats} prints, with the report's own histogram setting from
 * {@link LatencyHistograms}), {@link TraceExporter} with {@link TraceFilter} (CSV and JSON lines),
 * and {@link HeatmapAggregator}, drawn by {@link HeatmapPngRenderer} or
 * {@link HeatmapHtmlRenderer}. The module depends on nothing else of fluxperf (the engine, replay
 * and the commands depend on it), so nothing here may import {@code io.fluxperf.engine} or above;
 * and the layout and the codes are the format: within a format version they never change meaning.
 */
package io.fluxperf.trace;
