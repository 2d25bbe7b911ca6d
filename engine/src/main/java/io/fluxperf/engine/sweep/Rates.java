package io.fluxperf.engine.sweep;

import java.util.Locale;

/** Rates as the sweep prints them. */
public final class Rates {
    private Rates() {
    }

    /** 10,000 or 12,345.5: thousands grouped, a fraction only where there is one. */
    public static String format(double rate) {
        return rate == Math.rint(rate) ? String.format(Locale.ROOT, "%,d", (long) rate)
                : String.format(Locale.ROOT, "%,.1f", rate);
    }
}
