package io.fluxperf.engine.load;

import java.util.List;

/**
 * What one swap hands out: every load thread's figures of the same interval, from its start to its
 * end ({@link System#nanoTime()}). One interval is handed to every {@link IntervalConsumer} in turn;
 * its figures go back to the threads, emptied, after the last consumer returns, so a consumer adds
 * what it needs and keeps nothing of it.
 *
 * @param threads    each thread's figures, in thread order
 * @param startNanos when the interval began (the end of the one before)
 * @param endNanos   when the threads took the figures (the mean of their times, {@link ThreadFigures#takenNanos})
 */
record Interval(List<ThreadFigures> threads, long startNanos, long endNanos) {
}
