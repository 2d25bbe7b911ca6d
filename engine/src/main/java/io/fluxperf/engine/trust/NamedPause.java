package io.fluxperf.engine.trust;

import io.fluxperf.engine.pause.PauseCause;

/**
 * A client pause as a report names it: in the window in which it began (or the next, when it was
 * still going on as that window ended), at a time of the run.
 *
 * @param window        the window, from 1
 * @param atNanos       its start, ns after the first window's start
 * @param durationNanos its length
 * @param cause         what held the client
 * @param epochMillis   its start on the wall clock, ms since the epoch (what a trace or a log lines up with)
 */
public record NamedPause(int window, long atNanos, long durationNanos, PauseCause cause, long epochMillis) {
}
