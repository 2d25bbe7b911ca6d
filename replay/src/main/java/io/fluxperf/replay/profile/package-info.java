/**
 * {@code fluxperf profile}: a replayable log summarised in the columns of the OSDI'20 paper's table
 * ({@link io.fluxperf.replay.profile.LogProfile}, definitions in docs/replay.md), in one pass
 * through the reader replay uses ({@link io.fluxperf.replay.profile.Profiler}), shown as text or
 * JSON, and fitted as a workload for {@code run --config}
 * ({@link io.fluxperf.replay.profile.WorkloadFit}).
 */
package io.fluxperf.replay.profile;
