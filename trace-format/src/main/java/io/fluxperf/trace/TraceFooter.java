package io.fluxperf.trace;

/**
 * The end marker a {@link TraceWriter} writes when it closes, as the JSON file
 * {@value TraceFiles#FOOTER_FILE}. A trace without it was not closed cleanly: its writer was killed,
 * crashed, or is still running.
 *
 * @param recordsWritten   records the writer appended
 * @param recordsLost      records the writer could not append after an I/O failure (0 when none)
 * @param failure          the I/O failure that stopped tracing, or null
 * @param closedEpochNanos wall clock at close, ns since the Unix epoch
 */
public record TraceFooter(long recordsWritten, long recordsLost, String failure, long closedEpochNanos) {
}
