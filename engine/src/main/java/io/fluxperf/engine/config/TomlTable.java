package io.fluxperf.engine.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxperf.engine.UserError;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;

/**
 * One table of a {@link TomlConfigFile} with typed, checked getters. Each getter returns null
 * when the key is absent and throws a {@link UserError} naming the key's path when the value has
 * the wrong type or is out of range.
 */
final class TomlTable {
    private final TomlConfigFile file;
    private final String path;
    private final ObjectNode node;

    TomlTable(TomlConfigFile file, String path, ObjectNode node) {
        this.file = file;
        this.path = path;
        this.node = node;
    }

    /** This table's path: empty for the top level, else as in {@code workload[1]}. */
    String path() {
        return path;
    }

    String keyPath(String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    TomlConfigFile file() {
        return file;
    }

    boolean has(String key) {
        return node.has(key);
    }

    JsonNode raw(String key) {
        return node.get(key);
    }

    /** Where {@code key} of this table is, to start a message with. */
    String place(String key) {
        return file.place(keyPath(key));
    }

    /** A problem with {@code key} of this table. */
    UserError error(String key, String problem) {
        return file.error(keyPath(key), problem);
    }

    /** A problem with this table as a whole. */
    UserError error(String problem) {
        return path.isEmpty() ? file.error(problem) : file.error(path, problem);
    }

    /** Rejects keys not in {@code allowed}, suggesting the nearest allowed key for a typo. */
    void allowOnly(List<String> allowed) {
        allowOnly(allowed, key -> null);
    }

    /**
     * The same; a key that is no typo of an allowed one and for which {@code elsewhere} says where
     * it belongs (a sentence) gets that sentence instead of the list of allowed keys.
     */
    void allowOnly(List<String> allowed, java.util.function.Function<String, String> elsewhere) {
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (!allowed.contains(key)) {
                String near = NearestName.among(key, allowed);
                String other = near == null ? elsewhere.apply(key) : null;
                throw error(key, "unknown key" + (near != null ? "; did you mean " + near + "?"
                        : other != null ? "; " + other
                        : "; expected one of " + String.join(", ", allowed)));
            }
        }
    }

    /** A table under {@code key}, or null when absent. */
    TomlTable table(String key) {
        JsonNode v = node.get(key);
        if (v == null) {
            return null;
        }
        if (!(v instanceof ObjectNode o)) {
            throw error(key, "expected a table, not " + describe(v));
        }
        return new TomlTable(file, keyPath(key), o);
    }

    String string(String key) {
        JsonNode v = node.get(key);
        if (v == null) {
            return null;
        }
        if (!v.isTextual()) {
            throw error(key, "expected a string, not " + describe(v));
        }
        return v.textValue();
    }

    /** A list of strings (a single string is a list of one). */
    java.util.List<String> strings(String key) {
        JsonNode v = node.get(key);
        if (v == null) {
            return null;
        }
        if (v.isTextual()) {
            return java.util.List.of(v.textValue());
        }
        if (!v.isArray()) {
            throw error(key, "expected a list of strings, not " + describe(v));
        }
        java.util.List<String> out = new java.util.ArrayList<>();
        for (JsonNode item : v) {
            if (!item.isTextual()) {
                throw error(key, "expected a list of strings, but an item is " + describe(item));
            }
            out.add(item.textValue());
        }
        return out;
    }

    Boolean bool(String key) {
        JsonNode v = node.get(key);
        if (v == null) {
            return null;
        }
        if (!v.isBoolean()) {
            throw error(key, "expected true or false, not " + describe(v));
        }
        return v.booleanValue();
    }

    /** A whole number in [min, max]. */
    Long integer(String key, long min, long max) {
        JsonNode v = node.get(key);
        if (v == null) {
            return null;
        }
        return integer(v, key, min, max);
    }

    /** {@code v} (found at {@code key} under this table) as a whole number in [min, max]. */
    long integer(JsonNode v, String key, long min, long max) {
        if (!v.isIntegralNumber()) {
            throw error(key, "expected a whole number, not " + describe(v));
        }
        BigInteger n = v.bigIntegerValue();
        if (n.compareTo(BigInteger.valueOf(min)) < 0 || n.compareTo(BigInteger.valueOf(max)) > 0) {
            throw error(key, Checks.outside(n, min, max));
        }
        return n.longValueExact();
    }

    /** A finite number (whole or not). */
    Double number(String key) {
        JsonNode v = node.get(key);
        if (v == null) {
            return null;
        }
        if (!v.isNumber()) {
            throw error(key, "expected a number, not " + describe(v));
        }
        double d = v.doubleValue();
        if (!Double.isFinite(d)) {
            throw error(key, "must be a finite number, not " + describe(v));
        }
        return d;
    }

    /** A number of seconds, or a string such as {@code "250ms"} or {@code "2s"}. */
    Duration duration(String key) {
        JsonNode v = node.get(key);
        if (v == null) {
            return null;
        }
        try {
            if (v.isNumber()) {
                if (!Double.isFinite(v.doubleValue())) {
                    throw new IllegalArgumentException("must be a finite number of seconds, not " + describe(v));
                }
                return DurationParser.ofSeconds(v.isIntegralNumber() ? new BigDecimal(v.bigIntegerValue()) : v.decimalValue());
            }
            if (v.isTextual()) {
                return DurationParser.parse(v.textValue());
            }
        } catch (IllegalArgumentException e) {
            throw error(key, e.getMessage());
        }
        throw error(key, "expected a number of seconds or a string such as \"250ms\", not " + describe(v));
    }

    /** How a message shows a value of the wrong type. */
    static String describe(JsonNode v) {
        if (v.isTextual()) {
            return "the string \"" + v.textValue() + "\"";
        }
        if (v.isArray()) {
            return "an array";
        }
        if (v.isObject()) {
            return "a table";
        }
        if (v.isDouble() && Double.isNaN(v.doubleValue())) {
            return "nan";
        }
        if (v.isDouble() && Double.isInfinite(v.doubleValue())) {
            return v.doubleValue() > 0 ? "inf" : "-inf";
        }
        if (v.isBigDecimal()) {
            return v.decimalValue().toPlainString();
        }
        return v.asText();
    }
}
