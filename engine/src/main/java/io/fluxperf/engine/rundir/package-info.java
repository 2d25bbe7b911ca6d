/**
 * Run directories ({@code run --out DIR}): what a run leaves behind and every later view reads.
 * {@link RunDirectoryWriter} writes one as the run goes ({@code config.toml},
 * {@code environment.json}, {@code windows.hlog}, {@code report.txt}, {@code result.json});
 * {@link RunDirectory} opens one and checks it whole, with {@link ResultLayout} and
 * {@link HdrLogLines} naming a damaged file's field or line in one sentence;
 * {@link ReportRebuild} prints its report again byte for byte; {@link RunMerge} merges the
 * directories of a sharded run's agents into one; {@link EffectiveConfig} and
 * {@link RunEnvironment} say what ran and on what. The file names live in {@link RunFiles}, and
 * the layout in docs/results.md.
 */
package io.fluxperf.engine.rundir;
