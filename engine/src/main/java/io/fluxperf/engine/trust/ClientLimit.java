package io.fluxperf.engine.trust;

/** Why a window's pace was the client's rather than the server's ({@code client-limited}). */
public enum ClientLimit {
    /** The busiest load thread was on its CPU for 90 % of the window or more (the report's {@code Client:} line). */
    CPU("cpu"),
    /** A load thread waited for a CPU, runnable, for {@link TrustRecorder#RUN_QUEUE_SHARE} of the window or more. */
    RUN_QUEUE("run queue"),
    /**
     * Paced requests left late (send lag p99 of {@link TrustRecorder#LATE_SEND_NANOS} or more) while
     * no connection lacked room and no pause explains it: the client sent late.
     */
    SEND_LAG("send lag");

    private final String label;

    ClientLimit(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    public static ClientLimit ofLabel(String label) {
        for (ClientLimit l : values()) {
            if (l.label.equals(label)) {
                return l;
            }
        }
        throw new IllegalArgumentException("no limit '" + label + "'");
    }
}
