/**
 * {@code fluxperf replay}: a command log sent to a server with its original timing (or faster),
 * measured and reported as {@code run} is, plus how faithfully it was replayed. {@link Replay} is
 * the entry; with {@link ReplayOptions} it first decides the plan ({@code ReplayPlan}: the format,
 * told from the content by {@code FormatDetector}, the protocol, and one workload per command from
 * a scan of the log's start). The log then becomes a {@code ReplaySource}: one reader thread reads
 * it through the reader SPI of {@code io.fluxperf.engine.log}, sorts it in a bounded read-ahead
 * ({@code ReorderWindow}), gives each command its send time ({@code Pacer}: speed, longest wait,
 * rate cap and loops, never decreasing), and deals the commands out to one {@code Lane} per load
 * thread, each command copied into the lane's single-producer ring of bytes ({@code ByteRing},
 * {@code LaneRecord}), keeping each original client on one connection. Everything
 * below the request flux (connections, metrics, reports, trace, output files) is {@code run}'s,
 * through {@code RunOrchestrator}; {@code ReplayRunReport} and {@code ReplayReport} add the
 * progress line, each statistics block's send lag and place in the log ({@code LogPosition}), the
 * fidelity block (with how the schedule was kept, and a note when it was not) and the JSON's
 * {@code replay} object, whose figures are a {@link ReplayResult}. {@link LogFormats} lists every protocol's formats and adds fluxperf's own
 * trace as a log ({@code TraceFormat}, {@code TraceLogReader}). Memory stays bounded by the
 * read-ahead and the rings, whatever the log's size; no file is read on an event loop; and no
 * concrete protocol is named (formats and protocols come from the registry). This module does not
 * depend on the command line.
 */
package io.fluxperf.replay;
