/**
 * The engine module's root: what all of its layers and the commands share, namely
 * {@link UserError} (a mistake the user can fix: one sentence that names its place, shown without
 * a stack trace, and exit status 2) and the build's {@link Version}. The work is done in the
 * sub-packages: {@code config}, {@code request} and {@code workload} describe and make the
 * requests; {@code protocol} and its plug-ins speak them; {@code connection}, {@code netty} and
 * {@code load} send them and time them under the {@code host} policy; {@code metrics},
 * {@code report}, {@code trace} and {@code run} turn what happened into figures, reports and
 * files; {@code target} runs the embedded servers; and {@code log} is the command-log reader SPI
 * that replay reads through. The engine depends only on trace-format: it never reaches up into
 * {@code io.fluxperf.replay} or {@code io.fluxperf.cli}, and outside the
 * {@code io.fluxperf.engine.protocol.NAME} packages it never names a concrete protocol.
 */
package io.fluxperf.engine;
