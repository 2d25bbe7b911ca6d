/**
 * One run from a checked config to its report, the same for {@code run}, {@code replay} and
 * {@code mcb}. {@link RunOrchestrator} (read it first) opens the output files before anything is
 * sent ({@link RunOutputs}: the JSON result, the HdrHistogram log, the trace), so that a long run
 * never learns at its end that its result cannot be written; starts the protocol's embedded target
 * when no server is named; may warm this JVM up on an in-process copy of the load against an
 * embedded target on a free loopback port, so that nothing the user did not ask for reaches the
 * server under test; runs the load ({@code LoadRun}) under the host policy the command gave it;
 * hands every step to the command's {@link RunReport}; and writes the JSON result.
 * {@link TextRunReport} is {@code run}'s report, in rpc-perf's layout; replay and mcb add to it or
 * supply their own. The orchestrator chooses no host policy (the command does) and names no
 * concrete protocol (the registry supplies it).
 */
package io.fluxperf.engine.run;
