package io.fluxperf.engine.config;

import java.util.Locale;
import java.util.Objects;

/**
 * What a workload's requests carry beyond key and value size: the keyspace's place among others,
 * the fields or members of container commands, the kind of value, and an EVAL script.
 *
 * @param keyOffset        the first key index: keyspaces side by side use disjoint indexes
 * @param cardinality      fields, members or elements per hash, set, sorted-set or list command
 * @param innerKeys        fields or members are drawn from this many (0: the first is the key itself,
 *                         more are other keys of the keyspace)
 * @param innerKeyLength   bytes per field or member name (zero-padded index)
 * @param valueKind        random bytes, or decimal 64-bit integers (counters that INCR and HINCRBY accept)
 * @param compressionRatio values compress to about 1 / this of their size (1: not compressible)
 * @param values           per key (the default: a key's value is the same every time, so reads can
 *                         check it), fixed (one value for every request) or fresh (new each request)
 * @param script           the Lua body that eval and evalsha run; null otherwise
 * @param rangeStart       where LRANGE and ZRANGE start (an index, or with byScore a score); null: the
 *                         first element (index 0), or -inf by score
 * @param rangeEnd         where they end, included; null: index 9 (ten elements), or +inf by score
 * @param byScore          ZRANGE reads by score (ZRANGE k start end BYSCORE), not by index
 * @param truncate         LPUSH and RPUSH keep their list at most this long (a trim sent with each push); 0: no trim
 * @param ttls             expiry times the writes draw by weight; null: the workload's one ttl
 *                         ({@link WorkloadConfig#ttlSeconds()})
 * @param subscribers      a publish workload's subscriber connections, each subscribed to every channel
 *                         of its keyspace; 0: none
 */
public record WorkloadShape(long keyOffset, int cardinality, long innerKeys, int innerKeyLength, ValueKind valueKind,
                            double compressionRatio, ValueMode values, String script, Long rangeStart, Long rangeEnd,
                            boolean byScore, int truncate, TtlMix ttls, int subscribers) {
    public static final WorkloadShape DEFAULT = new WorkloadShape(0, 1, 0, 0, ValueKind.BYTES, 1.0,
            ValueMode.PER_KEY, null);
    public static final int MAX_CARDINALITY = 1024;
    /** The longest list a truncate keeps. */
    public static final int MAX_TRUNCATE = 1 << 30;
    /** The most subscribers a publish workload has (each a connection per server, and a bit per message). */
    public static final int MAX_SUBSCRIBERS = 1024;

    /** A shape with the default range and no truncate. */
    public WorkloadShape(long keyOffset, int cardinality, long innerKeys, int innerKeyLength, ValueKind valueKind,
                         double compressionRatio, ValueMode values, String script) {
        this(keyOffset, cardinality, innerKeys, innerKeyLength, valueKind, compressionRatio, values, script, null, null,
                false, 0, null, 0);
    }

    /** A shape without a ttl mix. */
    public WorkloadShape(long keyOffset, int cardinality, long innerKeys, int innerKeyLength, ValueKind valueKind,
                         double compressionRatio, ValueMode values, String script, Long rangeStart, Long rangeEnd,
                         boolean byScore, int truncate) {
        this(keyOffset, cardinality, innerKeys, innerKeyLength, valueKind, compressionRatio, values, script, rangeStart,
                rangeEnd, byScore, truncate, null, 0);
    }

    public WorkloadShape {
        if (subscribers < 0 || subscribers > MAX_SUBSCRIBERS) {
            throw new IllegalArgumentException("subscribers must be between 1 and " + MAX_SUBSCRIBERS + ", not " + subscribers);
        }
        if (truncate < 0 || truncate > MAX_TRUNCATE) {
            throw new IllegalArgumentException("truncate must be between 1 and " + MAX_TRUNCATE + ", not " + truncate);
        }
        if (keyOffset < 0) {
            throw new IllegalArgumentException("key offset must be at least 0, not " + keyOffset);
        }
        if (cardinality < 1 || cardinality > MAX_CARDINALITY) {
            throw new IllegalArgumentException("cardinality must be between 1 and " + MAX_CARDINALITY + ", not " + cardinality);
        }
        if (innerKeys < 0) {
            throw new IllegalArgumentException("inner keyspace must be at least 0, not " + innerKeys);
        }
        if (innerKeys > 0 && (innerKeyLength < Long.toString(innerKeys - 1).length() || innerKeyLength > 250)) {
            throw new IllegalArgumentException(innerKeys + " inner keys need an inner key length of "
                    + Long.toString(innerKeys - 1).length() + " to 250 bytes, not " + innerKeyLength);
        }
        Objects.requireNonNull(valueKind, "valueKind");
        Objects.requireNonNull(values, "values");
        if (!(compressionRatio >= 1.0) || Double.isInfinite(compressionRatio)) {
            throw new IllegalArgumentException("compression ratio must be a number of at least 1, not " + compressionRatio);
        }
    }

    /**
     * Values are the run's shared pattern, each key's own: what a read of a preloaded key can
     * check. Not for counters, compressible values, or values fixed or fresh per request.
     */
    public boolean keepsPatternValues() {
        return valueKind == ValueKind.BYTES && compressionRatio == 1.0 && values == ValueMode.PER_KEY;
    }

    /**
     * What differs from the default, for the report's workload line: e.g. {@code " Key offset: 1000
     * Members: 5 of 50 (3 bytes) Values: i64"}; empty for the default shape.
     */
    public String describe() {
        StringBuilder b = new StringBuilder();
        if (keyOffset > 0) {
            b.append(" Key offset: ").append(keyOffset);
        }
        if (cardinality > 1 || innerKeys > 0) {
            b.append(" Members: ").append(cardinality);
            if (innerKeys > 0) {
                b.append(" of ").append(innerKeys).append(" (").append(innerKeyLength).append(" bytes)");
            }
        }
        if (valueKind != ValueKind.BYTES || values != ValueMode.PER_KEY || compressionRatio != 1.0) {
            b.append(" Values: ").append(valueKind.label());
            if (values != ValueMode.PER_KEY) {
                b.append(", ").append(values.label());
            }
            if (compressionRatio != 1.0) {
                b.append(", compressible ").append(compressionRatio).append(":1");
            }
        }
        if (script != null) {
            b.append(" Script: ").append(script.length()).append(" bytes");
        }
        if (rangeStart != null || rangeEnd != null || byScore) {
            b.append(" Range: ").append(rangeStart != null ? rangeStart.toString() : byScore ? "-inf" : "0")
                    .append("..").append(rangeEnd != null ? rangeEnd.toString() : byScore ? "+inf" : "9")
                    .append(byScore ? " by score" : "");
        }
        if (truncate > 0) {
            b.append(" Truncate: ").append(truncate);
        }
        if (subscribers > 0) {
            b.append(" Subscribers: ").append(subscribers);
        }
        if (ttls != null) {
            b.append(" TTLs: ").append(ttls.describe()).append(" (seconds:weight)");
        }
        return b.toString();
    }

    public WorkloadShape withKeyOffset(long v) {
        return new WorkloadShape(v, cardinality, innerKeys, innerKeyLength, valueKind, compressionRatio, values, script,
                rangeStart, rangeEnd, byScore, truncate, ttls, subscribers);
    }

    public WorkloadShape withCardinality(int v) {
        return new WorkloadShape(keyOffset, v, innerKeys, innerKeyLength, valueKind, compressionRatio, values, script,
                rangeStart, rangeEnd, byScore, truncate, ttls, subscribers);
    }

    public WorkloadShape withInnerKeys(long count, int length) {
        return new WorkloadShape(keyOffset, cardinality, count, length, valueKind, compressionRatio, values, script,
                rangeStart, rangeEnd, byScore, truncate, ttls, subscribers);
    }

    public WorkloadShape withValueKind(ValueKind v) {
        return new WorkloadShape(keyOffset, cardinality, innerKeys, innerKeyLength, v, compressionRatio, values, script,
                rangeStart, rangeEnd, byScore, truncate, ttls, subscribers);
    }

    public WorkloadShape withCompressionRatio(double v) {
        return new WorkloadShape(keyOffset, cardinality, innerKeys, innerKeyLength, valueKind, v, values, script,
                rangeStart, rangeEnd, byScore, truncate, ttls, subscribers);
    }

    public WorkloadShape withValues(ValueMode v) {
        return new WorkloadShape(keyOffset, cardinality, innerKeys, innerKeyLength, valueKind, compressionRatio, v, script,
                rangeStart, rangeEnd, byScore, truncate, ttls, subscribers);
    }

    public WorkloadShape withScript(String v) {
        return new WorkloadShape(keyOffset, cardinality, innerKeys, innerKeyLength, valueKind, compressionRatio, values, v,
                rangeStart, rangeEnd, byScore, truncate, ttls, subscribers);
    }

    public WorkloadShape withRange(Long start, Long end) {
        return new WorkloadShape(keyOffset, cardinality, innerKeys, innerKeyLength, valueKind, compressionRatio, values,
                script, start, end, byScore, truncate, ttls, subscribers);
    }

    public WorkloadShape withByScore(boolean v) {
        return new WorkloadShape(keyOffset, cardinality, innerKeys, innerKeyLength, valueKind, compressionRatio, values,
                script, rangeStart, rangeEnd, v, truncate, ttls, subscribers);
    }

    public WorkloadShape withTruncate(int v) {
        return new WorkloadShape(keyOffset, cardinality, innerKeys, innerKeyLength, valueKind, compressionRatio, values,
                script, rangeStart, rangeEnd, byScore, v, ttls, subscribers);
    }

    /** Writes draw their ttl from {@code v} (null: the workload's one ttl). */
    public WorkloadShape withTtls(TtlMix v) {
        return new WorkloadShape(keyOffset, cardinality, innerKeys, innerKeyLength, valueKind, compressionRatio, values,
                script, rangeStart, rangeEnd, byScore, truncate, v, subscribers);
    }

    /** A publish workload's messages go to {@code v} subscriber connections (0: none). */
    public WorkloadShape withSubscribers(int v) {
        return new WorkloadShape(keyOffset, cardinality, innerKeys, innerKeyLength, valueKind, compressionRatio, values,
                script, rangeStart, rangeEnd, byScore, truncate, ttls, v);
    }

    /** The kind of value a write carries. */
    public enum ValueKind {
        BYTES, I64;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static ValueKind parse(String text) {
            for (ValueKind k : values()) {
                if (k.label().equalsIgnoreCase(text.trim())) {
                    return k;
                }
            }
            return null;
        }
    }

    /** Whether a write's value depends on its key, is always the same, or is new each time. */
    public enum ValueMode {
        PER_KEY("per-key"), FIXED("fixed"), FRESH("fresh");

        private final String label;

        ValueMode(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }

        public static ValueMode parse(String text) {
            for (ValueMode m : values()) {
                if (m.label.equalsIgnoreCase(text.trim())) {
                    return m;
                }
            }
            return null;
        }
    }
}
