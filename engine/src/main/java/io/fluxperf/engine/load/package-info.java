/**
 * One load test, across its threads. Each load thread is a {@code LoadDriver}: one event loop, its
 * connection slots, and the three rooms to which it passes each of its connections' events
 * ({@link io.fluxperf.engine.connection.SlotEvents}). {@code SendScheduler} decides when and where
 * each request leaves: it takes requests in batches from the phase's {@link RequestSource},
 * waits for its intended send time on the loop's alarm and for a connection with room, and flushes
 * each batch of sends together. {@code ConnectionManager} decides when each connection connects:
 * all at the start (at the connect rate if one is given), again after a loss with a growing
 * backoff, never while the slot is open, and, for a connection per request whose request count is
 * known, exactly once per request (a slot stays idle while every request left already has a
 * connection on its way). {@code ThreadRecorder} records what happened once (per workload outcomes,
 * bytes, latency and service histograms, send lag, connect times, trace records, and with
 * {@code LateSendTracker} how the thread kept its schedule) into one interval, which the run's
 * {@code RunClock} swaps out for recycled {@code ThreadFigures} at the next boundary any report
 * needs, so that the swap allocates nothing on the loop. The clock hands each interval to its
 * {@code IntervalConsumer}s, each with its own next deadline: {@code RunningWindow} (the window
 * going on), {@code WindowSeconds}, {@code StatsBlocks} (statistics blocks and the admin feed),
 * {@code LiveLine}, and {@code RampSteps} and {@code HostTicks}, which read no figures.
 * {@link LoadRun}, the class to read first, runs the phases from the run's own thread (connect,
 * flush and preload, warm-up, the measured windows, and the stop that waits for every request in
 * flight), talks to the drivers only through tasks that return futures, and applies the host
 * policy; {@code WindowBookkeeping} does a window's end in steps of one histogram each, with the
 * policy's pause between steps. What holds here: every issued request is counted in
 * exactly one window; what is in flight is bounded by pipeline depth times connections; a loop
 * neither blocks nor allocates per request; and no concrete protocol is named.
 */
package io.fluxperf.engine.load;
