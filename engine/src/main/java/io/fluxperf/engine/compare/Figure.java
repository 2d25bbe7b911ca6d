package io.fluxperf.engine.compare;

/** A figure that {@code compare} sets side by side, with which way is better. */
public enum Figure {
    REQUESTS_PER_SECOND("requests/s", Kind.INTENDED, Double.NaN, true),
    P50("p50", Kind.INTENDED, 50, false),
    P90("p90", Kind.INTENDED, 90, false),
    P99("p99", Kind.INTENDED, 99, false),
    P999("p999", Kind.INTENDED, 99.9, false),
    P9999("p9999", Kind.INTENDED, 99.99, false),
    SERVICE_P50("service p50", Kind.SERVICE, 50, false),
    SERVICE_P99("service p99", Kind.SERVICE, 99, false),
    CPU_PER_REQUEST("cpu/request", Kind.CPU, Double.NaN, false);

    /** Where a figure comes from: the latency logs of one kind, or the run's CPU time. */
    public enum Kind { INTENDED, SERVICE, CPU }

    private final String label;
    private final Kind kind;
    private final double percentile;
    private final boolean higherIsBetter;

    Figure(String label, Kind kind, double percentile, boolean higherIsBetter) {
        this.label = label;
        this.kind = kind;
        this.percentile = percentile;
        this.higherIsBetter = higherIsBetter;
    }

    public String label() {
        return label;
    }

    public Kind kind() {
        return kind;
    }

    /** The latency percentile, NaN for requests/s and CPU. */
    public double percentile() {
        return percentile;
    }

    /** Requests/s: more is faster; latency and CPU per request: less is faster. */
    public boolean higherIsBetter() {
        return higherIsBetter;
    }

    /** Whether the value is a time in ns (latency, CPU per request). */
    public boolean isNanos() {
        return this != REQUESTS_PER_SECOND;
    }

    /** The verdict of B/A's interval: faster or slower when it excludes 1. */
    public Verdict verdict(Bootstrap.Ratio r) {
        return verdict(r, 0);
    }

    /**
     * The verdict of B/A's interval: faster or slower when it lies wholly above {@code 1 + minChange}
     * or below {@code 1 - minChange}, no significant difference otherwise.
     *
     * @param minChange the smallest change that counts, as a fraction (0.02: 2%); 0: the interval excludes 1
     */
    public Verdict verdict(Bootstrap.Ratio r, double minChange) {
        if (r != null && r.fewSamples()) {
            return Verdict.FEW_SAMPLES;
        }
        if (r == null || !r.hasInterval()) {
            return Verdict.NO_INTERVAL;
        }
        boolean higher = r.low() > 1 + minChange;
        boolean lower = r.high() < 1 - minChange;
        if (!higher && !lower) {
            return Verdict.NO_SIGNIFICANT_DIFFERENCE;
        }
        return higher == higherIsBetter ? Verdict.FASTER : Verdict.SLOWER;
    }
}
