/**
 * The admin endpoint of a running run ({@code --admin}): an HTTP server on a loop of its own, never
 * a load loop, that shows the run's live figures and steers its rate. {@link AdminEndpoint} starts
 * it; {@link AdminHttpHandler} frames HTTP/1.x and answers a malformed request in one sentence;
 * {@link AdminRoutes} answers each well-formed request (dashboard, {@code /metrics},
 * {@code /metrics.json}, {@code /vars}, {@code PUT /ratelimit}); {@link AdminConnections} bounds
 * the connections and their waits so that the endpoint can never take the load's descriptors;
 * {@link LiveFigures} is fed on the run's thread and read by the endpoint as one immutable
 * snapshot; {@link AdminMetrics} and {@link AdminViews} turn that snapshot into Prometheus text,
 * JSON and rpc-perf's lines. docs/admin.md describes what a user sees.
 */
package io.fluxperf.engine.admin;
