package io.fluxperf.engine.metrics;

/** Why a run ended; {@link #label()} is what the JSON result says. */
public enum StopReason {
    /** Every window ran its length, or a replay played its whole log. */
    COMPLETED("completed"),
    /** The request limit ({@code --requests}, mcb's {@code -n}) was reached. */
    REQUEST_LIMIT("requests"),
    /** The request source ran out before the windows did (the end of a replayed log, read as a run). */
    SOURCE_ENDED("source ended"),
    /** Ctrl-C (SIGINT): the report covers what ran. */
    INTERRUPTED("interrupted"),
    /** SIGTERM (kill, a pod's end): the report covers what ran. */
    TERMINATED("terminated"),
    /** The trace could not be written and {@code --trace-required} asked to stop then. */
    TRACE_FAILED("trace failed"),
    /** A bad line of a replayed log under {@code --strict}. */
    BAD_INPUT("a bad line under --strict"),
    /** A service-level objective with abort (--slo-abort) failed in a window; the run stopped at its end. */
    SLO_FAILED("objective failed"),
    /** {@code POST /quitquitquit} on the admin endpoint: the report covers what ran, and the run did what was asked. */
    QUIT("quit");

    private final String label;

    StopReason(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
