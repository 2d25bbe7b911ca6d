/**
 * {@code fluxperf compare}: runs side by side, each figure (requests/s, latency percentiles,
 * service time, CPU per request) as a ratio to the first run with a 95% interval from a seeded
 * bootstrap over the runs' seconds ({@link io.fluxperf.engine.compare.Bootstrap}), and a verdict
 * per figure. {@link io.fluxperf.engine.compare.RunComparison} is the result; the text, JSON and
 * HTML classes only lay it out. Nothing here measures or sends load: the inputs are run directories'
 * files.
 */
package io.fluxperf.engine.compare;
