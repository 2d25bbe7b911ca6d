/**
 * The command-log reader SPI: what replay reads logs through, and what each protocol implements in
 * its {@code .log} sub-package. A {@link LogFormat} is a kind of log (its {@code --format} name,
 * the first line it recognizes, and how a log is prepared into passes); a {@link LogReader}
 * streams the commands of one pass into a reused {@link LogEntry}, with a {@link ReaderContext}
 * (bad lines, verbs, counters, the key rewrite) that the readers of a pass share. An entry's path:
 * a reader fills it, replay's read-ahead sorts it, the pacer gives it a send time, and a lane
 * copies it into a pooled request and hands it back. The rest makes line-based readers cheap and
 * uniform: {@link LogInput} (gzip told from its magic bytes, progress against the file's size),
 * {@link LineReader} and {@link LineLogReader}, {@link SpaceTokens}, {@link VerbTable} and
 * {@link ClientTable} (no allocation after a first sighting), {@link BadLines} (each named by its
 * place; the first one is an error under {@code --strict}) and {@link LogStats} for the fidelity
 * report. This package names no protocol (formats come from
 * {@link io.fluxperf.engine.protocol.Protocol#logFormats()}) and does no timing: pacing,
 * reordering, lanes and the trace read as a log belong to {@code io.fluxperf.replay}.
 */
package io.fluxperf.engine.log;
