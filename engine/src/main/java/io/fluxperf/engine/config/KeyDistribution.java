package io.fluxperf.engine.config;

import java.util.Locale;

/** How keys are drawn from a key space. */
public enum KeyDistribution {
    /** Every key equally likely. */
    UNIFORM,
    /** Key rank r (0-based) has probability proportional to 1/(r+1)^exponent (Gray et al., SIGMOD 1994). */
    ZIPF,
    /** 0, 1, 2, … wrapping at the key count: every key in turn. */
    SEQUENTIAL;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static KeyDistribution parse(String text) {
        for (KeyDistribution d : values()) {
            if (d.label().equalsIgnoreCase(text.trim())) {
                return d;
            }
        }
        return null;
    }
}
