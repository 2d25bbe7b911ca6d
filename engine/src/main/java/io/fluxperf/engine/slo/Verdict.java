package io.fluxperf.engine.slo;

/**
 * One objective judged in one window, or over the whole run (window 0).
 *
 * @param measured in the objective's unit (ns, percent, requests/s); NaN when nothing was measured
 * @param seconds  the length of the window (or run) judged
 */
public record Verdict(Objective objective, int window, double measured, boolean passed, double seconds) {
    /** The measured value for people: 1.234 ms, 99.95 %, 49,512/s, or "no requests". */
    public String measuredText() {
        return objective.format(measured);
    }

    /** "window 3" or "run". */
    public String where() {
        return window == 0 ? "run" : "window " + window;
    }
}
