package io.fluxperf.engine.config;

import java.util.Locale;

/**
 * How the gaps between an open-loop workload's intended send times are drawn; each keeps the
 * workload's mean rate, and latency is measured from each request's intended time whatever the
 * gaps are.
 */
public enum Arrivals {
    /** Evenly spaced: request n at start + n / rate (rpc-perf's {@code smooth}). */
    SMOOTH,
    /** Gaps uniform on [0, 2 / rate]: the mean gap, with a spread of one mean either side. */
    UNIFORM,
    /** Gaps normal around 1 / rate with a standard deviation of a quarter of it, cut at 0. */
    NORMAL,
    /** Gaps exponential with mean 1 / rate: Poisson arrivals (mutilate's default). */
    EXPONENTIAL;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Arrivals parse(String text) {
        for (Arrivals a : values()) {
            if (a.label().equalsIgnoreCase(text.trim())) {
                return a;
            }
        }
        return null;
    }
}
