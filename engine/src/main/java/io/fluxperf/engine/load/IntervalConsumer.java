package io.fluxperf.engine.load;

/**
 * A job of the run's clock ({@link RunClock}): it is handed every interval the load threads swap
 * out, and adds up what it needs; when it has a deadline, the clock ends an interval there and then
 * tells it that it is due (wrk2's timer events, each returning its next delay). A new report cadence
 * is one class of this kind and one {@link RunClock#register} call.
 *
 * <h2>Assumptions and guarantees</h2>
 * <ul>
 *   <li>Every call comes on the run's thread, in the order the intervals end.</li>
 *   <li>{@link #add} sees every interval the clock swaps out, in the warm-up too; the figures are
 *       emptied and reused after it returns.</li>
 *   <li>{@link #due} comes after the interval that ends at (or just after) {@link #nextDueNanos()}
 *       has been handed to every consumer, so a due consumer's sums are complete.</li>
 * </ul>
 */
interface IntervalConsumer {
    /** Adds one interval's figures. */
    default void add(Interval interval) {
    }

    /** When this job is next due ({@link System#nanoTime()}); {@link Long#MAX_VALUE}: not until told otherwise. */
    default long nextDueNanos() {
        return Long.MAX_VALUE;
    }

    /**
     * Whether its deadline ends an interval (a swap before {@link #due}); false for jobs that read
     * no figures, which are ticked ({@link #due}) on every wake of the clock instead.
     */
    default boolean readsFigures() {
        return true;
    }

    /** Its deadline has passed: it reports, and moves its deadline on. */
    default void due(long nowNanos) {
    }

    /**
     * A measured window begins at {@code startNanos} and is planned to end at {@code endNanos}
     * (a stop may end it sooner).
     */
    default void windowBegins(int window, long startNanos, long endNanos) {
    }

    /** A measured window has ended: its last interval has been added. */
    default void windowEnds(int window, long endNanos) {
    }
}
