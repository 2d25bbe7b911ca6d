package io.fluxperf.engine.trust;

/**
 * Something that makes a run's figures less than steady ({@link Stability}); the report prints it
 * as {@code Unstable: TEXT}.
 *
 * @param kind   which check found it
 * @param window the window it is about, or 0 for the whole run
 * @param text   what it says, e.g. {@code the first second's p99 was 3.1x the rest's (...)}
 */
public record Finding(Kind kind, int window, String text) {
    /** The checks of {@link Stability}. */
    public enum Kind {
        /** The first second (or seconds) of the run far above the rest. */
        FIRST_SECONDS("first-seconds"),
        /** p99 rose or fell across the run. */
        P99_TREND("p99-trend"),
        /** The rate rose or fell across the run. */
        RATE_TREND("rate-trend"),
        /** p99 drifted within a window beyond the window's interval. */
        P99_DRIFT("p99-drift"),
        /** The rate drifted within a window beyond the window's interval. */
        RATE_DRIFT("rate-drift"),
        /** A paced window whose first second sent nothing on time: a backlog from before it went out in it. */
        BEGAN_BEHIND("began-behind");

        private final String label;

        Kind(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }

        public static Kind ofLabel(String label) {
            for (Kind k : values()) {
                if (k.label.equals(label)) {
                    return k;
                }
            }
            throw new IllegalArgumentException("no check '" + label + "'");
        }
    }
}
