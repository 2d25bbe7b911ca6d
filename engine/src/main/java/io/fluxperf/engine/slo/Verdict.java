package io.fluxperf.engine.slo;

/**
 * One objective judged in one window, or over the whole run (window 0).
 *
 * @param measured in the objective's unit (ns, percent, requests/s); NaN when nothing was measured
 * @param passed   whether it counts as held: met, or too close to call with the point estimate on
 *                 the right side and the objective not strict
 * @param seconds  the length of the window (or run) judged
 * @param call     met, missed or too close to call, from the measure's 95 % interval
 * @param low      the interval's lower bound, in the measure's unit; NaN for a measure without one
 * @param high     its upper bound; NaN without one, infinite when the samples cannot bound it
 */
public record Verdict(Objective objective, int window, double measured, boolean passed, double seconds, Call call,
                      double low, double high) {
    /** What a verdict says of an objective, given the uncertainty of the measure. */
    public enum Call {
        /** The whole 95 % interval is on the right side of the threshold. */
        MET("met"),
        /** The whole interval is on the wrong side. */
        MISSED("missed"),
        /** The interval holds the threshold: at this sample size the run cannot tell. */
        TOO_CLOSE("too close to call");

        private final String label;

        Call(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /** A verdict without an interval: met or missed as the value holds. */
    public Verdict(Objective objective, int window, double measured, boolean passed, double seconds) {
        this(objective, window, measured, passed, seconds, passed ? Call.MET : Call.MISSED, Double.NaN, Double.NaN);
    }

    /** The measured value for people: 1.234 ms, 99.95 %, 49,512/s, or "no requests". */
    public String measuredText() {
        return objective.format(measured);
    }

    /** "window 3" or "run". */
    public String where() {
        return window == 0 ? "run" : "window " + window;
    }

    /** Whether an interval stands behind the call. */
    public boolean hasInterval() {
        return !Double.isNaN(low);
    }

    /** The interval for people, in the measure's unit: {@code [380.1 us, 425.3 us]}; empty without one. */
    public String intervalText() {
        if (!hasInterval()) {
            return "";
        }
        return "[" + objective.format(low) + ", " + (Double.isInfinite(high) ? "unbounded" : objective.format(high)) + "]";
    }
}
