package io.fluxperf.engine.compare;

/** What a figure's 95% interval of B/A says about B against A. */
public enum Verdict {
    FASTER("faster"),
    SLOWER("slower"),
    NO_SIGNIFICANT_DIFFERENCE("no significant difference"),
    /** A percentile with fewer than 10 samples beyond it in a run: no change of it is claimed. */
    FEW_SAMPLES("few samples"),
    /** Too few seconds in a run, a figure of 0 in A, or a figure with one value per run (CPU). */
    NO_INTERVAL("no interval");

    private final String label;

    Verdict(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
