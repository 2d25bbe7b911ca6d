package io.fluxperf.engine.config;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Expiry times that a workload's writes carry, each drawn with its weight: {@code seconds[i]} with
 * probability {@code weights[i] / sum(weights)} (0 seconds: no expiry). What {@code profile
 * --config-out} writes for a log whose writes carry several TTLs; a single ttl is
 * {@link WorkloadConfig#ttlSeconds()}.
 */
public record TtlMix(int[] seconds, int[] weights) {
    static final String FORMS = "write SECONDS:WEIGHT,SECONDS:WEIGHT, e.g. 60:5,3600:1";

    public TtlMix {
        if (seconds.length == 0 || seconds.length != weights.length) {
            throw new IllegalArgumentException("a weighted ttl list needs as many weights as ttls, at least one");
        }
        seconds = seconds.clone();
        weights = weights.clone();
        long total = 0;
        for (int i = 0; i < seconds.length; i++) {
            if (seconds[i] < 0 || seconds[i] > Settings.MAX_TTL) {
                throw new IllegalArgumentException("a ttl must be between 0 and " + Settings.MAX_TTL
                        + " seconds, not " + seconds[i]);
            }
            if (weights[i] < 0) {
                throw new IllegalArgumentException("a ttl's weight must be at least 0, not " + weights[i]);
            }
            total += weights[i];
        }
        if (total == 0 || total > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("the ttl weights must add up to between 1 and " + Integer.MAX_VALUE
                    + ", not " + total);
        }
    }

    /** {@code 60:5,3600:1}. */
    public static TtlMix parse(String text) {
        List<int[]> pairs = new ArrayList<>();
        for (String pair : text.trim().split(",", -1)) {
            int colon = pair.indexOf(':');
            if (colon < 0) {
                throw new IllegalArgumentException("'" + text.trim() + "' is not a weighted ttl list; " + FORMS);
            }
            pairs.add(new int[] {number(pair.substring(0, colon), text), number(pair.substring(colon + 1), text)});
        }
        return new TtlMix(pairs.stream().mapToInt(p -> p[0]).toArray(), pairs.stream().mapToInt(p -> p[1]).toArray());
    }

    private static int number(String part, String whole) {
        try {
            return Integer.parseInt(part.trim().replace("_", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + whole.trim() + "' is not a weighted ttl list; " + FORMS);
        }
    }

    /** As the config echo shows it: {@code 60:5,3600:1}. */
    public String describe() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < seconds.length; i++) {
            b.append(i == 0 ? "" : ",").append(seconds[i]).append(':').append(weights[i]);
        }
        return b.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TtlMix m && Arrays.equals(seconds, m.seconds) && Arrays.equals(weights, m.weights);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(seconds) + Arrays.hashCode(weights);
    }

    @Override
    public String toString() {
        return "TtlMix[" + describe() + "]";
    }
}
