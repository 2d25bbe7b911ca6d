package io.fluxperf.engine.config;

/**
 * The keys a workload uses: {@code count} keys, each the key index in decimal left-padded with
 * '0' to {@code keyLength} bytes, drawn with {@code distribution} ({@code exponent} for zipf).
 */
public record KeyspaceConfig(long count, int keyLength, KeyDistribution distribution, double exponent) {
    public static final long DEFAULT_COUNT = 10_000;
    public static final int DEFAULT_KEY_LENGTH = 16;
    public static final double DEFAULT_ZIPF_EXPONENT = 0.99;

    public static KeyspaceConfig defaults() {
        return new KeyspaceConfig(DEFAULT_COUNT, DEFAULT_KEY_LENGTH, KeyDistribution.UNIFORM, DEFAULT_ZIPF_EXPONENT);
    }

    public KeyspaceConfig {
        if (count < 1) {
            throw new IllegalArgumentException("key count must be at least 1, not " + count);
        }
        if (keyLength < 1 || keyLength > 250) {
            throw new IllegalArgumentException("key length must be between 1 and 250 bytes, not " + keyLength);
        }
        if (distribution == KeyDistribution.ZIPF && !(exponent > 0)) {
            throw new IllegalArgumentException("zipf exponent must be greater than 0, not " + exponent);
        }
        if (Long.toString(count - 1).length() > 250) {
            throw new IllegalArgumentException("key count too large");
        }
    }

    public KeyspaceConfig withCount(long newCount) {
        return new KeyspaceConfig(newCount, keyLength, distribution, exponent);
    }

    public KeyspaceConfig withKeyLength(int newKeyLength) {
        return new KeyspaceConfig(count, newKeyLength, distribution, exponent);
    }

    public KeyspaceConfig withDistribution(KeyDistribution newDistribution, double newExponent) {
        return new KeyspaceConfig(count, keyLength, newDistribution, newExponent);
    }

    public String describe() {
        return count + " keys of " + keyLength + " bytes, " + distribution.label()
                + (distribution == KeyDistribution.ZIPF ? " (exponent " + exponent + ")" : "");
    }
}
