package io.fluxperf.engine.config;

import java.util.ArrayList;
import java.util.List;

/**
 * Value sizes as {@code --bytes} (and a string {@code bytes} in the config file) gives them:
 * {@code 64} (fixed), {@code 16..1024} (uniform over the range, both ends included) or
 * {@code 64:9,4096:1} (size:weight pairs; 64 bytes nine times in ten).
 */
public final class ValueSizeParser {
    static final String FORMS = "write N, MIN..MAX or SIZE:WEIGHT,SIZE:WEIGHT";

    private ValueSizeParser() {
    }

    /** @throws IllegalArgumentException with a message that quotes the text and shows the forms */
    public static ValueSize parse(String text) {
        String t = text == null ? "" : text.trim();
        if (t.contains("..")) {
            int dots = t.indexOf("..");
            return range(number(t.substring(0, dots), t), number(t.substring(dots + 2), t));
        }
        if (t.contains(":") || t.contains(",")) {
            List<Long> sizes = new ArrayList<>();
            List<Long> weights = new ArrayList<>();
            for (String pair : t.split(",", -1)) {
                int colon = pair.indexOf(':');
                if (colon < 0) {
                    throw notASize(t);
                }
                sizes.add(number(pair.substring(0, colon), t));
                weights.add(number(pair.substring(colon + 1), t));
            }
            return weighted(sizes.stream().mapToLong(Long::longValue).toArray(),
                    weights.stream().mapToLong(Long::longValue).toArray());
        }
        return fixed(number(t, t));
    }

    static ValueSize fixed(long bytes) {
        return ValueSize.fixed(checkSize(bytes));
    }

    static ValueSize range(long min, long max) {
        checkSize(min);
        checkSize(max);
        if (min > max) {
            throw new IllegalArgumentException("the range's min " + min + " is above its max " + max);
        }
        return new ValueSize.Range((int) min, (int) max);
    }

    static ValueSize weighted(long[] sizes, long[] weights) {
        long total = 0;
        int[] s = new int[sizes.length];
        int[] w = new int[weights.length];
        for (int i = 0; i < sizes.length; i++) {
            s[i] = checkSize(sizes[i]);
            if (weights[i] < 0 || weights[i] > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("a weight must be between 0 and " + Integer.MAX_VALUE + ", not " + weights[i]);
            }
            w[i] = (int) weights[i];
            total += weights[i];
        }
        if (total == 0) {
            throw new IllegalArgumentException("the weights must not all be 0");
        }
        if (total > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("the weights add up to " + total + ", more than " + Integer.MAX_VALUE);
        }
        return new ValueSize.Weighted(s, w);
    }

    /** Checks a size against memcached's item limit; returns it as an int. */
    static int checkSize(long bytes) {
        if (bytes < 0 || bytes > ValueSize.MAX_BYTES) {
            throw new IllegalArgumentException("a value size must be between 0 and " + ValueSize.MAX_BYTES
                    + " bytes, not " + bytes);
        }
        return (int) bytes;
    }

    private static long number(String part, String whole) {
        String p = part.trim().replace("_", "");
        if (p.isEmpty() || !p.chars().allMatch(c -> c >= '0' && c <= '9' || c == '-' || c == '+')) {
            throw notASize(whole);
        }
        long v;
        try {
            v = Long.parseLong(p);
        } catch (NumberFormatException e) {
            if (p.matches("[+-]?[0-9]+")) {
                throw new IllegalArgumentException(p + " in '" + whole.trim() + "' is too large");
            }
            throw notASize(whole);
        }
        return v;
    }

    private static IllegalArgumentException notASize(String text) {
        return new IllegalArgumentException("'" + text + "' is not a value size; " + FORMS);
    }
}
