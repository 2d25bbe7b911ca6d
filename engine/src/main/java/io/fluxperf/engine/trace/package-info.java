/**
 * The bridge from the engine to trace-format ({@code io.fluxperf.trace}). {@link RunTrace} owns a
 * run's trace writer, its clock origin and the name tables (workloads, commands, protocols) that
 * turn the engine's requests into trace records; each event loop gets its own
 * {@link ThreadTracer}, which fills one reused record per ended request and appends it to its
 * thread's batch, without allocating. A write that fails is counted by the writer, never thrown
 * into a load loop; whether the run stops for it is the run's choice ({@code RunOutputs}). Nothing
 * here decides what a request's outcome or latency is: the tracer copies what the recorder was
 * told.
 */
package io.fluxperf.engine.trace;
